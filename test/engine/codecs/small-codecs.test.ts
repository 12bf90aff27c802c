// The int32 (SYMBOL codes, lengths), bitmap (validity, BOOLEAN) and zstd (STRING/BLOB bytes)
// codecs: exact round trips at every length; constant bitmaps and narrow codes cost little.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeBitmap, decodeBytes, decodeInt32, encodeBitmap, encodeBytes, encodeInt32 } from '../../../engine/codecs/index.js';
import { prng } from '../../prng.js';
import { aligned, bitmapCases, int32Cases, LENGTHS, sameBytes } from './inputs.js';

describe('int32 codec', () => {
  it('round-trips every case exactly at every length', () => {
    for (const n of LENGTHS) {
      for (const [name, values] of int32Cases(n, n + 3)) {
        const out = new Int32Array(n).fill(-5);
        decodeInt32(aligned(encodeInt32(values)), out);
        assert.ok(sameBytes(out, values), `${name}, ${n} values`);
      }
    }
  });

  it('packs codes of a 5-entry dictionary in 3 bits a value (and a 16-byte header a block)', () => {
    const [, codes] = int32Cases(65536, 1)[0];
    assert.ok(encodeInt32(codes, [0]).length <= (65536 * 3) / 8 + 32 * 16, String(encodeInt32(codes, [0]).length));
  });
});

describe('bitmap codec', () => {
  it('round-trips every case at every length, the bits up to the count', () => {
    for (const n of LENGTHS) {
      for (const [name, bits] of bitmapCases(n, n)) {
        const out = new Uint8Array(bits.length + 1).fill(0xaa);
        decodeBitmap(aligned(encodeBitmap(bits, n)), out);
        for (let i = 0; i < n; i++) assert.equal((out[i >> 3] >> (i & 7)) & 1, (bits[i >> 3] >> (i & 7)) & 1, `${name}, bit ${i} of ${n}`);
        assert.equal(out[bits.length], 0xaa, `${name}: wrote past ${bits.length} bytes`);
      }
    }
  });

  it('stores an all-valid or all-null block as one byte', () => {
    const n = 65536;
    for (const [name, bits] of bitmapCases(n, 1).slice(0, 2)) assert.ok(encodeBitmap(bits, n).length <= 4 + n / 2048, name);
  });
});

describe('zstd codec', () => {
  it('round-trips empty, tiny, repetitive and random bytes', () => {
    const r = prng(3);
    const cases: [string, Uint8Array][] = [
      ['empty', new Uint8Array(0)],
      ['tiny', Uint8Array.of(1, 2, 3)],
      ['repetitive', new TextEncoder().encode('host-17.example.com,'.repeat(5000))],
      ['random', Uint8Array.from({ length: 100_000 }, () => Math.floor(r() * 256))],
    ];
    for (const [name, bytes] of cases) {
      const encoded = encodeBytes(bytes);
      const out = new Uint8Array(bytes.length);
      decodeBytes(aligned(encoded), out);
      assert.ok(sameBytes(out, bytes), name);
      if (name === 'repetitive') assert.ok(encoded.length < bytes.length / 50, `${encoded.length}`);
      if (name === 'random') assert.ok(encoded.length <= bytes.length + 8, `${encoded.length}`);
    }
  });
});
