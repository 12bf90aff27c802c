// MIME detection for blobs (SPEC §3): magic bytes first (file-type), then text heuristics, then
// the alias's file extension, then application/octet-stream. Run once when a blob is written;
// the result is stored in the WAL record, so replay never re-sniffs.
import { fileTypeFromBuffer } from 'file-type';

const OCTET = 'application/octet-stream';

const BY_EXTENSION: Record<string, string> = {
  txt: 'text/plain; charset=utf-8', csv: 'text/csv', json: 'application/json', html: 'text/html', htm: 'text/html',
  xml: 'application/xml', js: 'text/javascript', css: 'text/css', svg: 'image/svg+xml', md: 'text/markdown',
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', pdf: 'application/pdf',
  zip: 'application/zip', gz: 'application/gzip', bin: OCTET,
};

export async function detectMime(data: Uint8Array, alias: string): Promise<string> {
  if (data.length === 0) return OCTET;
  const magic = await fileTypeFromBuffer(data).catch(() => undefined);
  if (magic !== undefined) return magic.mime;
  const text = utf8(data);
  if (text !== null) return textMime(text);
  const ext = /\.([A-Za-z0-9]+)$/.exec(alias)?.[1]?.toLowerCase();
  return (ext !== undefined && BY_EXTENSION[ext]) || OCTET;
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
