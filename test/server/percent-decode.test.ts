// The fast decodeURIComponent path of percentDecodeText / QueryParams.get must give exactly what
// the byte-by-byte path gives (text, or the same 400) for every input, ASCII or not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QueryParams, percentDecodeBytes, percentDecodeText } from '../../server/http/query-params.js';

const fatal = new TextDecoder('utf-8', { fatal: true });

/** The reference: bytes, then a fatal UTF-8 decode; a thrown error is returned as 'error'. */
function reference(s: string): string {
  try {
    return fatal.decode(percentDecodeBytes(s));
  } catch {
    return 'error';
  }
}

function actual(s: string): string {
  try {
    return percentDecodeText(s, 'x');
  } catch {
    return 'error';
  }
}

const CASES = [
  '', 'plain', 'bench%2Fblob-1k', 'a%20b', '%', '%2', '%zz', 'a%2', '%C3%A9', 'é', 'é%20', '%ED%A0%80', '%C0%AF',
  '%EF%BB%BFbom', 'x%EF%BB%BF', '%FF', '%E2%82', '%F0%9F%98%80', '%00', 'a+b', '\ud800', '%2g', '%%41',
];

test('percentDecodeText equals the byte path', () => {
  for (const s of CASES) assert.equal(actual(s), reference(s), JSON.stringify(s));
});

test('percentDecodeText equals the byte path on seeded random escapes', () => {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pieces = ['%', 'a', '/', '%2F', '%C3', '%A9', '%E2%82%AC', '%F0', '%9F', '%BB', '%EF', '%BF', 'é', '0', 'F', '+'];
  for (let k = 0; k < 2000; k++) {
    let s = '';
    for (let n = Math.floor(next() * 6); n >= 0; n--) s += pieces[Math.floor(next() * pieces.length)];
    assert.equal(actual(s), reference(s), JSON.stringify(s));
  }
});

test('QueryParams.get: + is a space, escaped names match, bad UTF-8 is an error', () => {
  const q = new QueryParams('a=x+y%21&b%5Fc=1&d=%FF&e=%EF%BB%BFz');
  assert.equal(q.get('a'), 'x y!');
  assert.equal(q.get('b_c'), '1');
  assert.throws(() => q.get('d'), /not valid UTF-8/);
  assert.equal(q.get('e'), 'z'); // the fatal decoder drops a leading BOM, as before
  assert.equal(q.get('missing'), undefined);
});
