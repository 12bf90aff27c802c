// MIME detection for blobs (SPEC §3): magic bytes first (file-type), then text heuristics, then
// the alias's file extension (the `mime` package), then application/octet-stream. Run once when
// a blob is written; the result is stored in the WAL record, so replay never re-sniffs.
import { fileTypeFromBuffer } from 'file-type';
import mime from 'mime';

const OCTET = 'application/octet-stream';

export async function detectMime(data: Uint8Array, alias: string): Promise<string> {
  if (data.length === 0) return OCTET;
  const magic = await fileTypeFromBuffer(data).catch(() => undefined);
  if (magic !== undefined) return magic.mime;
  const text = utf8(data);
  if (text !== null) return textMime(text);
  // `mime` knows every registered extension; only a name with a dot and an extension counts.
  return (/\.[A-Za-z0-9]+$/.test(alias) ? mime.getType(alias) : null) ?? OCTET;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function utf8(data: Uint8Array): string | null {
  try {
    const s = decoder.decode(data);
    // Control characters other than whitespace mean binary data that happens to decode.
    return /[\u0000-\u0008\u000e-\u001f]/.test(s) ? null : s;
  } catch {
    return null;
  }
}

function textMime(text: string): string {
  const t = text.trim();
  if ((t.startsWith('{') || t.startsWith('[') || t.startsWith('"')) && isJson(t)) return 'application/json';
  if (/^(<!doctype html|<html[\s>])/i.test(t)) return 'text/html';
  if (/^<\?xml[\s?]/.test(t)) return 'application/xml';
  return 'text/plain; charset=utf-8';
}

function isJson(t: string): boolean {
  try { JSON.parse(t); return true; } catch { return false; }
}
