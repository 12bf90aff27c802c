// A body cut into chunks (a log entry's parts) reads as the same bytes joined: every view, copy,
// u32, slice and checksum over random cuts equals the joined body's; frames and records decoded
// from chunks equal those decoded from the whole, however the cuts fall (inside a frame header,
// a record's meta, a column).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32c } from '@node-rs/crc32';
import { ByteChunks } from '../../engine/durability/wal/byte-chunks.js';
import { frameHeader, framesOf } from '../../engine/durability/wal/frame.js';
import { decodeRecords, encodeRecords } from '../../engine/durability/wal/records.js';
import type { WalRecord } from '../../engine/durability/wal/records.js';
import { prng } from '../prng.js';

/** `body` cut at random points (empty chunks included). */
function cut(body: Uint8Array, rand: () => number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < body.length;) {
    const n = rand() < 0.1 ? 0 : 1 + Math.floor(rand() * Math.min(body.length - at, rand() < 0.5 ? 16 : 4096));
    chunks.push(body.subarray(at, at + n));
    at += n;
  }
  return chunks;
}

describe('ByteChunks', () => {
  it('reads as the joined bytes, wherever the cuts fall', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rand = prng(seed);
      const body = Buffer.from(Array.from({ length: Math.floor(rand() * 10_000) + 8 }, () => Math.floor(rand() * 256)));
      const c = new ByteChunks(cut(body, rand));
      assert.equal(c.length, body.length);
      for (let k = 0; k < 50; k++) {
        const from = Math.floor(rand() * body.length);
        const to = from + Math.floor(rand() * (body.length - from + 1));
        assert.deepEqual(Buffer.from(c.view(from, to)), body.subarray(from, to), `seed ${seed} view ${from}..${to}`);
        assert.deepEqual(Buffer.from(c.copy(from, to)), body.subarray(from, to));
        assert.deepEqual(Buffer.from(c.slice(from, to).view(0, to - from)), body.subarray(from, to));
        assert.equal(c.crc32c(from, to, 7), crc32c(body.subarray(from, to), 7) >>> 0);
        if (from + 4 <= body.length) assert.equal(c.u32(from), body.readUInt32LE(from));
      }
    }
  });

  it('frames and records decode from chunks as from the whole entry', () => {
    const rand = prng(99);
    const n = 3_000;
    const records: WalRecord[] = [
      { kind: 'TableCreate', name: 't', columns: [{ name: 'v', type: 'DOUBLE' }, { name: 's', type: 'STRING' }, { name: 'k', type: 'INT64' }], shardSize: 1000n },
      { kind: 'TableInsert', name: 't', batch: { ts: BigInt64Array.from({ length: n }, (_, i) => BigInt(i)), columns: [
        { type: 'DOUBLE', values: Float64Array.from({ length: n }, () => rand()), nulls: null },
        { type: 'STRING', values: Array.from({ length: n }, (_, i) => (i % 7 === 0 ? null : `s${i}`)) },
        { type: 'INT64', values: BigInt64Array.from({ length: n }, (_, i) => BigInt(i * 3)), nulls: Uint8Array.from({ length: n }, (_, i) => (i % 5 === 0 ? 1 : 0)) },
      ] } },
      { kind: 'BlobPut', alias: 'b', data: Uint8Array.from({ length: 5_000 }, (_, i) => i & 255), mime: 'application/octet-stream', expiry: 0 },
    ];
    const payload = encodeRecords(records);
    const body = Buffer.concat([frameHeader(payload), ...payload, frameHeader([Buffer.from('x')]), Buffer.from('x')]);
    const whole = framesOf(new ByteChunks([body]));
    const expected = decodeRecords(whole[0]);
    assert.deepEqual(expected, records);
    for (let seed = 1; seed <= 20; seed++) {
      const frames = framesOf(new ByteChunks(cut(body, prng(seed))));
      assert.equal(frames.length, 2);
      assert.deepEqual(decodeRecords(frames[0]), expected, `seed ${seed}`);
      assert.deepEqual(Buffer.from(frames[1].view(0, frames[1].length)), Buffer.from('x'));
    }
    // A damaged byte anywhere fails the checksum, in chunks as whole.
    const damaged = Buffer.from(body);
    damaged[100] ^= 1;
    assert.throws(() => framesOf(new ByteChunks(cut(damaged, prng(3)))), /fails its checksum/);
  });
});
