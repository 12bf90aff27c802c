// INT64/TIMESTAMP codec (delta / delta-of-delta + FOR bit packing, raw where wider): every case
// — int64 min/max, 2^53 ± 1, huge jumps, fixed steps, walks, every width — round-trips exactly
// at every length; fixed-step timestamps cost almost nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeInt64, encodeInt64 } from '../../../engine/codecs/index.js';
import { aligned, int64Cases, LENGTHS, sameBytes } from './inputs.js';

describe('int64 codec', () => {
  it('round-trips every case exactly at every length', () => {
    for (const n of LENGTHS) {
      for (const [name, values] of int64Cases(n, n + 11)) {
        const out = new BigInt64Array(n).fill(5n);
        decodeInt64(aligned(encodeInt64(values)), out);
        assert.ok(sameBytes(out, values), `${name}, ${n} values`);
      }
    }
  });

  it('stores fixed-step timestamps in under a bit a value and jittered ones in about their jitter', () => {
    const cases = new Map(int64Cases(65536, 2));
    const bitsPerValue = (name: string) => (encodeInt64(cases.get(name)!).length * 8) / 65536;
    assert.ok(bitsPerValue('timestamps, fixed step') < 1, String(bitsPerValue('timestamps, fixed step')));
    assert.ok(bitsPerValue('timestamps, jitter') < 24, String(bitsPerValue('timestamps, jitter')));
    assert.ok(bitsPerValue('alternating min, max') <= 64.1, String(bitsPerValue('alternating min, max')));
  });

  it('rejects truncated bytes and a wrong count with a RangeError', () => {
    const [, values] = int64Cases(3000, 4)[7];
    const bytes = encodeInt64(values);
    assert.throws(() => decodeInt64(aligned(bytes.subarray(0, bytes.length - 1)), new BigInt64Array(3000)), RangeError);
    assert.throws(() => decodeInt64(aligned(bytes), new BigInt64Array(3001)), RangeError);
  });
});
