// Issue 27, decode speed: each codec decodes a column of 65,536 values (a sealed batch's) many
// times; GB/s of decoded output per core (CPU time of the process, so a busy machine's waits do
// not count), beside the bits a value it stored. Targets: ≥ 2 GB/s for bit packing and ALP.
import { decodeBitmap, decodeFloat64, decodeInt32, decodeInt64, encodeBitmap, encodeFloat64, encodeInt32, encodeInt64 } from '../../engine/codecs/index.js';
import { defineCase, recordMetric } from '../harness.js';
import type { Suite } from '../harness.js';
import { prng } from '../../test/prng.js';

export const CODECS_SUITE = 'codecs: decode';
const N = 65_536;
const PASSES = 400;

interface Column {
  readonly name: string;
  readonly encode: () => Uint8Array;
  readonly decode: (bytes: Uint8Array) => void;
  readonly outBytes: number;
}

function columns(): Column[] {
  const r = prng(5);
  let walk = 20;
  const f64 = (name: string, values: Float64Array): Column => {
    const into = new Float64Array(N);
    return { name, encode: () => encodeFloat64(values), decode: (b) => decodeFloat64(b, into), outBytes: 8 * N };
  };
  const i64 = (name: string, values: BigInt64Array): Column => {
    const into = new BigInt64Array(N);
    return { name, encode: () => encodeInt64(values), decode: (b) => decodeInt64(b, into), outBytes: 8 * N };
  };
  const codes = Int32Array.from({ length: N }, () => Math.floor(r() * 200));
  const codesInto = new Int32Array(N);
  const bits = Uint8Array.from({ length: N / 8 }, () => Math.floor(r() * 256));
  const bitsInto = new Uint8Array(N / 8);
  return [
    f64('ALP, 2-decimal random walk', Float64Array.from({ length: N }, () => (walk = Math.round((walk + r() - 0.5) * 100) / 100))),
    f64('ALP, 12 significant digits', Float64Array.from({ length: N }, () => Number((r() * 100).toPrecision(12)))),
    // ALP-RD is used where it keeps at most half the bits (else the block is raw): short mantissas.
    f64('ALP-RD, doubles of 16 significant bits', Float64Array.from({ length: N }, () => Math.floor(r() * 65536) / 65536)),
    i64('delta-of-delta, timestamps every 10 s', BigInt64Array.from({ length: N }, (_, i) => 1_700_000_000_000_000_000n + BigInt(i) * 10_000_000_000n)),
    i64('FOR bit packing, integers of 33 bits', BigInt64Array.from({ length: N }, () => BigInt(Math.floor(r() * 8e9)))),
    i64('FOR bit packing, integers of 20 bits', BigInt64Array.from({ length: N }, () => BigInt(Math.floor(r() * 1e6)))),
    { name: 'dictionary codes, 200 symbols', encode: () => encodeInt32(codes, [0]), decode: (b) => decodeInt32(b, codesInto), outBytes: 4 * N },
    { name: 'bitmap, random bits', encode: () => encodeBitmap(bits, N), decode: (b) => decodeBitmap(b, bitsInto), outBytes: N / 8 },
  ];
}

export const codecsSuite: Suite = {
  name: CODECS_SUITE,
  mode: 'once',
  rounds: 3,
  cases: columns().map((c) => defineCase({
    name: c.name,
    setup: () => {
      const encoded = c.encode();
      // 8-byte aligned, as read back from a file.
      const bytes = new Uint8Array(encoded.length);
      bytes.set(encoded);
      for (let k = 0; k < 20; k++) c.decode(bytes);
      return bytes;
    },
    run(bytes) {
      const before = process.cpuUsage();
      for (let k = 0; k < PASSES; k++) c.decode(bytes);
      const { user, system } = process.cpuUsage(before);
      const seconds = (user + system) / 1e6;
      recordMetric(CODECS_SUITE, `${c.name}: decode`, (c.outBytes * PASSES) / seconds / 1e9, 'GB/s per core', `${((bytes.length * 8) / N).toFixed(2)} bits a value stored`);
    },
  })),
};
