// The query string of a request, decoded the way HTML forms and curl --data-urlencode encode it
// (`+` is a space, `%XX` a byte). Values decode as UTF-8 text, or as raw bytes for parameters that
// carry byte sequences (`pattern`). A malformed escape or invalid UTF-8 is a 400, never a guess.
import { HttpError } from '../errors.js';

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });
const ASCII = /^[\x00-\x7f]*$/;
/** A parameter name that percent-decoding leaves as it is. */
const PLAIN_NAME = /^[^%+]*$/;

export class QueryParams {
  private readonly pairs: readonly (readonly [string, string])[];

  /** `raw` is the part of the URL after `?`, still percent-encoded. */
  constructor(readonly raw: string) {
    this.pairs = raw === '' ? [] : raw.split('&').filter((p) => p !== '').map((p) => {
      const eq = p.indexOf('=');
      return eq < 0 ? [p, ''] as const : [p.slice(0, eq), p.slice(eq + 1)] as const;
    });
  }

  has(name: string): boolean {
    return this.rawValue(name) !== undefined;
  }

  /** The first value of `name` as text, or undefined when absent. */
  get(name: string): string | undefined {
    const v = this.rawValue(name);
    if (v === undefined) return undefined;
    return percentDecodeText(v.replaceAll('+', ' '), `query parameter '${name}'`);
  }

  /** The first value of `name` as bytes (no UTF-8 check), or undefined when absent. */
  getBytes(name: string): Uint8Array | undefined {
    const v = this.rawValue(name);
    return v === undefined ? undefined : percentDecodeBytes(v.replaceAll('+', ' '));
  }

  /** The same raw query with `name` set to `value` (replacing every occurrence, else appended). */
  with(name: string, value: string): string {
    const kept = this.raw === '' ? [] : this.raw.split('&').filter((p) => p !== '' && rawName(p) !== name);
    return [...kept, `${name}=${encodeURIComponent(value)}`].join('&');
  }

  private rawValue(name: string): string | undefined {
    // A name without escapes or `+` decodes to itself: only the others are decoded to compare.
    for (const [k, v] of this.pairs) if (k === name || (PLAIN_NAME.test(k) ? false : safeDecodeName(k) === name)) return v;
    return undefined;
  }
}

function rawName(pair: string): string {
  const eq = pair.indexOf('=');
  return safeDecodeName(eq < 0 ? pair : pair.slice(0, eq));
}

function safeDecodeName(k: string): string {
  try { return decodeURIComponent(k.replaceAll('+', ' ')); } catch { return k; }
}

/** `%XX` → byte; anything else → its UTF-8 bytes. A `%` not followed by two hex digits is a 400. */
export function percentDecodeBytes(s: string): Uint8Array {
  if (!s.includes('%')) return Buffer.from(s, 'utf8');
  const parts: Buffer[] = [];
  let last = 0;
  for (let i = s.indexOf('%'); i >= 0; i = s.indexOf('%', last)) {
    const hex = s.slice(i + 1, i + 3);
    if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new HttpError('BadRequest', `malformed percent-encoding at '${s.slice(i, i + 3)}'`);
    parts.push(Buffer.from(s.slice(last, i), 'utf8'), Buffer.from([parseInt(hex, 16)]));
    last = i + 3;
  }
  parts.push(Buffer.from(s.slice(last), 'utf8'));
  return Buffer.concat(parts);
}

/** Percent-decodes a path segment (no `+` rule in paths) into UTF-8 text; malformed → 400. */
export function percentDecodeText(s: string, what: string): string {
  const fast = quickDecode(s);
  if (fast !== undefined) return fast;
  const bytes = percentDecodeBytes(s);
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    throw new HttpError('BadRequest', `${what} is not valid UTF-8 once percent-decoded`);
  }
}

/**
 * The usual case, ASCII with well-formed escapes of valid UTF-8: decodeURIComponent gives the same
 * text as the byte round trip, without it. undefined for anything else (a non-ASCII character, a
 * malformed escape, invalid UTF-8, a leading BOM that the fatal decoder drops): the caller then
 * takes the exact path and its exact error.
 */
function quickDecode(s: string): string | undefined {
  if (!ASCII.test(s)) return undefined;
  try {
    const text = decodeURIComponent(s);
    return text.charCodeAt(0) === 0xfeff ? undefined : text;
  } catch {
    return undefined;
  }
}
