// Entries cut into parts and put back together (engine/cluster/entry-chunks.ts), without a
// server: parts shuffled, interleaved with other entries, repeated (a retry after a failover),
// late after completion, or never completed (a writer that died between parts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { partsOf, Reassembler } from '../../engine/cluster/entry-chunks.js';
import type { EntryPart, LogMessage } from '../../engine/cluster/entry-chunks.js';
import type { ByteChunks } from '../../engine/durability/wal/byte-chunks.js';
import { prng } from '../prng.js';

const WINDOW_MS = 120_000;

function message(p: EntryPart, seq: number, timeMs: number): LogMessage {
  return { seq, timeMs, headers: p.headers, data: p.data };
}

describe('entry parts', () => {
  it('an entry within the limit is one message; a larger one is parts under the limit that join back to it', () => {
    const rand = prng(7);
    for (const size of [0, 1, 1000, 4096, 4097, 10_000, 65_537]) {
      const body = Uint8Array.from({ length: size }, () => Math.floor(rand() * 256));
      const parts = partsOf('e', body, 4096);
      for (const p of parts) assert.ok(p.data.length <= 4096 - 1024, `${size}: part of ${p.data.length}`);
      assert.equal(parts.length, Math.max(1, Math.ceil(size / 3072)));
      assert.deepEqual(new Set(parts.map((p) => p.msgId)).size, parts.length);
      const r = new Reassembler(WINDOW_MS);
      const out = parts.map((p, i) => r.push(message(p, i + 1, 0)));
      assert.deepEqual(out.slice(0, -1), new Array(parts.length - 1).fill(null));
      assert.deepEqual(joined(out.at(-1)!), Buffer.from(body));
    }
  });

  it('shuffled, interleaved and repeated parts give every entry exactly once, when its last part arrives', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rand = prng(seed);
      const bodies = new Map<string, Buffer>();
      let stream: EntryPart[] = [];
      for (let e = 0; e < 20; e++) {
        const body = Buffer.from(Array.from({ length: Math.floor(rand() * 20_000) }, () => Math.floor(rand() * 256)));
        const id = `w${seed}.${e}`;
        bodies.set(id, body);
        const parts = partsOf(id, body, 2048);
        // A retry repeats a part; retries may land after the entry completed.
        for (const p of parts) if (rand() < 0.2) parts.push(p);
        stream = stream.concat(parts);
      }
      for (let i = stream.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [stream[i], stream[j]] = [stream[j], stream[i]];
      }
      const r = new Reassembler(WINDOW_MS);
      const seen = new Map<string, number>();
      for (const [i, p] of stream.entries()) {
        const body = r.push(message(p, i + 1, i));
        if (body === null) continue;
        const id = p.headers.get('Svc-Entry');
        seen.set(id, (seen.get(id) ?? 0) + 1);
        assert.deepEqual(joined(body), bodies.get(id), `seed ${seed}: entry ${id}`);
        // Applied at its last part: no part of this entry comes later except repeats.
        const later = stream.slice(i + 1).filter((q) => q.headers.get('Svc-Entry') === id);
        for (const q of later) assert.ok(stream.slice(0, i + 1).some((s) => s.msgId === q.msgId), `seed ${seed}: ${q.msgId} came after the entry was applied`);
      }
      assert.equal(seen.size, bodies.size, `seed ${seed}`);
      for (const [id, n] of seen) assert.equal(n, 1, `seed ${seed}: ${id} applied ${n} times`);
      assert.equal(r.pendingEntries, 0);
    }
  });

  it('an entry whose writer died between parts is dropped once the stream clock passes the window', () => {
    const r = new Reassembler(WINDOW_MS);
    const dead = partsOf('dead', new Uint8Array(10_000), 4096);
    assert.equal(r.push(message(dead[0], 1, 0)), null);
    assert.equal(r.pendingEntries, 1);
    const live = partsOf('live', new Uint8Array(9000).fill(1), 4096);
    assert.equal(r.push(message(live[0], 2, WINDOW_MS)), null);
    assert.equal(r.pendingEntries, 2, 'inside the window the dead entry may still complete');
    assert.equal(r.push(message(live[1], 3, WINDOW_MS + 1)), null);
    assert.equal(r.pendingEntries, 1);
    assert.equal(r.abandoned, 1);
    assert.ok(r.push(message(live[2], 4, WINDOW_MS + 2)) !== null);
  });
});

/** An entry's bytes, joined. */
function joined(body: ByteChunks): Buffer {
  return Buffer.from(body.view(0, body.length));
}
