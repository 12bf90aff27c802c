// DOUBLE codec (ALP / ALP-RD / raw per block): every input comes back bit for bit — special
// doubles with any NaN payload, -0, ±∞, subnormals, extremes, walks, random bits — at every
// length around the block and group sizes; decimal-like data packs into few bits; damage is a
// RangeError, never a wrong answer or a hang.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeFloat64, encodeFloat64 } from '../../../engine/codecs/index.js';
import { aligned, doubleCases, LENGTHS, sameBytes } from './inputs.js';

describe('float64 codec', () => {
  it('round-trips every case bit for bit at every length', () => {
    for (const n of LENGTHS) {
      for (const [name, values] of doubleCases(n, n + 1)) {
        const bytes = encodeFloat64(values);
        const out = new Float64Array(n).fill(7);
        decodeFloat64(aligned(bytes), out);
        assert.ok(sameBytes(out, values), `${name}, ${n} values`);
      }
    }
  });

  it('decodes into a view at an offset of a larger buffer, leaving the rest alone', () => {
    const [, values] = doubleCases(3000, 5).find(([name]) => name === 'specials and decimals')!;
    const buffer = new Float64Array(3010).fill(9);
    decodeFloat64(aligned(encodeFloat64(values)), buffer.subarray(5, 3005));
    assert.ok(sameBytes(buffer.subarray(5, 3005), values));
    assert.deepEqual([...buffer.subarray(0, 5), ...buffer.subarray(3005)], new Array(10).fill(9));
  });

  it('packs 2-decimal walks, constants and short mantissas into few bits a value, and never grows past raw by more than a header', () => {
    const cases = new Map(doubleCases(65536, 3));
    const bitsPerValue = (name: string) => (encodeFloat64(cases.get(name)!).length * 8) / 65536;
    assert.ok(bitsPerValue('2-decimal walk') < 10, `walk: ${bitsPerValue('2-decimal walk')}`);
    assert.ok(bitsPerValue('constant') < 1, `constant: ${bitsPerValue('constant')}`);
    assert.ok(bitsPerValue('constant third') < 1, `constant third: ${bitsPerValue('constant third')}`);
    // ALP-RD where it keeps at most half the bits (it decodes slower than a raw block reads).
    assert.ok(bitsPerValue('uniform 16-bit') < 24, `uniform 16-bit: ${bitsPerValue('uniform 16-bit')}`);
    assert.ok(bitsPerValue('uniform 32-bit') <= 64.1, `uniform 32-bit: ${bitsPerValue('uniform 32-bit')}`);
    assert.ok(bitsPerValue('random bits') <= 64.1, `random: ${bitsPerValue('random bits')}`);
  });

  it('rejects damaged or truncated bytes with a RangeError (or decodes them to something, never hangs)', () => {
    const [, values] = doubleCases(4000, 9).find(([name]) => name === 'walk with jumps')!;
    const bytes = encodeFloat64(values);
    assert.throws(() => decodeFloat64(aligned(bytes.subarray(0, bytes.length - 3)), new Float64Array(4000)), RangeError);
    assert.throws(() => decodeFloat64(aligned(bytes), new Float64Array(3999)), RangeError);
    for (let at = 0; at < bytes.length; at += 97) {
      const damaged = aligned(bytes);
      damaged[at] ^= 0xff;
      try {
        decodeFloat64(damaged, new Float64Array(4000));
      } catch (e) {
        assert.ok(e instanceof RangeError, `byte ${at}: ${String(e)}`);
      }
    }
  });
});
