// The line-protocol float scanner against parseFloat: random doubles printed every way a client
// prints them (shortest, toPrecision 1…21, exponents), random digit strings up to 24 digits, and
// values on or next to a halfway point between two doubles, where only exact arithmetic decides;
// the int64 scanner against BigInt.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scanFloat, scanFloatPrefix, scanInt64, floatEnd } from '../../../server/protocols/line-protocol/numbers.js';
import { prng } from '../../prng.js';

function same(text: string): void {
  const b = Buffer.from(text);
  const got = scanFloat(b, 0, b.length);
  const want = Number.parseFloat(text);
  if (!Object.is(got, want)) assert.fail(`scanFloat(${JSON.stringify(text)}) = ${got}, parseFloat = ${want}`);
}

describe('scanFloat', () => {
  it('equals parseFloat on random doubles, digit strings and exponents', () => {
    const seed = 1717;
    const r = prng(seed);
    for (let k = 0; k < 40_000; k++) {
      const x = r() * 10 ** (Math.floor(r() * 44) - 22);
      same(String(x));
      same(`-${x}`);
      same(x.toPrecision(1 + Math.floor(r() * 21)));
      let digits = '';
      const n = 1 + Math.floor(r() * 24);
      for (let j = 0; j < n; j++) digits += Math.floor(r() * 10);
      const dot = Math.floor(r() * (n + 1));
      const withDot = `${digits.slice(0, dot)}.${digits.slice(dot)}`;
      same(digits);
      same(withDot);
      same(`${withDot}e${Math.floor(r() * 70) - 35}`);
      same(`${withDot}E+${Math.floor(r() * 30)}`);
    }
  });

  it('equals parseFloat on and next to halfway points', () => {
    const r = prng(99);
    for (let k = 0; k < 20_000; k++) {
      const x = 1 + r();
      const mid = (x + (x + Number.EPSILON)) / 2; // rounds, but toPrecision(19+) shows the tie region
      same(mid.toPrecision(17));
      same(mid.toPrecision(19));
      const big = Math.floor(r() * 2 ** 20) * 2 ** 33 + 2 ** 53;
      same(String(big + 1));
      same(String(big - 1));
    }
    for (const text of ['9007199254740993', '9007199254740995', '900719925474099.3', '90071992547409.95', '9.007199254740993e-5', '9007199254740993e3', '9007199254740993.0', '0.30000000000000004',
      '1.000000000000000111', '1.000000000000000112', '1e22', '1e23', '123456789012345678e-22',
      '9999999999999999999', '18446744073709551615', '2.2250738585072014e-308', '1.7976931348623157e308', '1e400', '-0', '-0.0e5']) {
      same(text);
    }
  });

  it('rejects what is not a whole number; the prefix scan stops where the number ends', () => {
    for (const text of ['', '-', '.', 'e5', '1e', '1e+', '1.5x', '1..2', '--1', '+1', 'NaN', 'Infinity', '1_0']) {
      const b = Buffer.from(text);
      assert.ok(Number.isNaN(scanFloat(b, 0, b.length)), text);
    }
    const b = Buffer.from('x=12.5e3,y');
    assert.equal(scanFloatPrefix(b, 2, b.length), 12500);
    assert.equal(floatEnd, 8);
  });
});

describe('scanInt64', () => {
  it('equals BigInt on random integers of 1 to 20 digits, and refuses what is not an int64', () => {
    const r = prng(64);
    const words = new Int32Array(2);
    const slot = new BigInt64Array(words.buffer);
    const check = (text: string) => {
      const b = Buffer.from(text);
      const ok = scanInt64(b, 0, b.length, 1, words, 0, false);
      let want: bigint | null = null;
      if (/^-?\d+$/.test(text)) want = BigInt(text);
      if (want !== null && (want > 2n ** 63n - 1n || want < -(2n ** 63n))) want = null;
      assert.equal(ok, want !== null, text);
      if (want !== null) assert.equal(slot[0], want, text);
    };
    for (let k = 0; k < 20_000; k++) {
      let digits = '';
      const n = 1 + Math.floor(r() * 20);
      for (let j = 0; j < n; j++) digits += Math.floor(r() * 10);
      check(digits);
      check(`-${digits}`);
      const at = Math.floor(r() * n);
      check(`${digits.slice(0, at)}${pick(r, ['a', '.', ' ', '/', ':'])}${digits.slice(at + 1)}`);
    }
    for (const text of ['9223372036854775807', '9223372036854775808', '-9223372036854775808', '-9223372036854775809', '0', '-0', '']) check(text);
  });
});

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}
