// The JSON encoders build text in a plain string and hand it out as UTF-8 chunks of about
// CHUNK_CHARS characters: a large result never becomes one giant string, and appending to a
// short string (a V8 rope, flattened once by the UTF-8 encoder) is cheaper than writing digits
// into a byte buffer by hand. A single value longer than a chunk (a big blob) stays whole.

/** Characters of text per chunk: ~64 KiB of (mostly ASCII) UTF-8. */
export const CHUNK_CHARS = 64 * 1024;

/** UTF-8 bytes of encoder text (never holds lone surrogates: JSON.stringify escapes them). */
export function utf8(text: string): Uint8Array {
  return Buffer.from(text, 'utf8');
}
