// The WAL on disk as a power cut or a crash leaves it, and WAL files of any size. Logs are made
// by the engine (the data directory copied aside while open: no checkpoint), then:
// - the last segment ends in a torn write of any shape — a short frame, zeros (the file size
//   reached the disk, the data did not), garbage — and opens cleanly with every acknowledged
//   record, the file truncated where the tail began and the cut logged;
// - damage followed by a whole frame (in the last segment or an earlier one) fails the open with
//   WalCorrupt naming the file and the byte offset of the damage, the file untouched;
// - segments rotate by size (a tiny walSegmentBytes), and replay reads across many of them;
// - every case also runs with a read chunk of a few bytes, so frames straddle reads: the path a
//   segment or record larger than any single Buffer would take.
import assert from 'node:assert/strict';
import { appendFile, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import { ioLimits } from '../../engine/durability/io-limits.js';
import { copyAside, expectCode, prng, readRows, tempDir } from './helpers.js';
import type { Row } from './helpers.js';

const CHUNKS = [ioLimits.readChunkBytes, 13];

async function withChunk<T>(bytes: number, run: () => Promise<T>): Promise<T> {
  const saved = ioLimits.readChunkBytes;
  ioLimits.readChunkBytes = bytes;
  try {
    return await run();
  } finally {
    ioLimits.readChunkBytes = saved;
  }
}

async function segments(dataDir: string): Promise<string[]> {
  return (await readdir(join(dataDir, 'wal'))).filter((n) => n.endsWith('.wal')).sort().map((n) => join(dataDir, 'wal', n));
}

/** A segment starts with 16 bytes: magic `svc-wal\n`, u32 format version, u32 crc32c of those 12. */
const SEGMENT_HEADER = 16;

/** Frame boundaries of a segment, parsed independently of the engine. */
function frames(buf: Buffer): { offset: number; end: number }[] {
  const out: { offset: number; end: number }[] = [];
  for (let at = SEGMENT_HEADER; at < buf.length;) {
    const end = at + 8 + buf.readUInt32LE(at);
    out.push({ offset: at, end });
    at = end;
  }
  return out;
}

function rowsOf(n: number): Row[] {
  return Array.from({ length: n }, (_, i) => ({ $timestamp: BigInt(i * 10), v: i + 0.5, s: `s${i % 4}` }));
}

/** A crash copy of a log holding one acknowledged insert per row of `rows` (plus the create). */
async function makeLog(rows: Row[], walSegmentBytes?: number): Promise<string> {
  const dataDir = await tempDir();
  const db = await Database.open({ dataDir, sweepIntervalMs: 0, checkpointWalBytes: 1 << 30, walSegmentBytes });
  await db.createTable('t', [{ name: 'v', type: 'DOUBLE' }, { name: 's', type: 'SYMBOL' }]);
  for (const r of rows) await db.insert('t', { $timestamp: [r.$timestamp], v: [r.v], s: [r.s] });
  const copy = await copyAside(dataDir);
  await db.close();
  return copy;
}

/** Opens, checks the rows, runs `whileOpen` (before close checkpoints and deletes the WAL). */
async function openAndCheck(dataDir: string, rows: Row[], whileOpen?: () => Promise<void>): Promise<string[]> {
  const logged: string[] = [];
  const db = await Database.open({ dataDir, sweepIntervalMs: 0, log: (m) => logged.push(m) });
  try {
    assert.deepEqual(readRows(db, 't'), rows);
    await whileOpen?.();
  } finally {
    await db.close();
  }
  return logged;
}

const ROWS = rowsOf(12);

const tails: { name: string; bytes: (lastFrame: Buffer) => Buffer }[] = [
  { name: 'one zero byte', bytes: () => Buffer.alloc(1) },
  { name: 'a zero header (8 bytes)', bytes: () => Buffer.alloc(8) },
  { name: '5,000 zero bytes (size reached the disk, data did not)', bytes: () => Buffer.alloc(5000) },
  { name: 'garbage, 3 bytes', bytes: () => Buffer.from([0xde, 0xad, 0xbe]) },
  { name: 'garbage, 4,096 random bytes', bytes: () => randomBytes(4096, 1) },
  { name: 'garbage whose length field fits the file', bytes: () => Buffer.concat([Buffer.from([16, 0, 0, 0, 1, 2, 3, 4]), randomBytes(40, 2)]) },
  { name: 'a frame cut after its header', bytes: (last) => last.subarray(0, 8) },
  { name: 'a frame cut one byte short', bytes: (last) => last.subarray(0, last.length - 1) },
  { name: 'a whole frame with its last byte flipped', bytes: (last) => { const b = Buffer.from(last); b[b.length - 1] ^= 1; return b; } },
  { name: 'a frame prefix, then zeros', bytes: (last) => Buffer.concat([last.subarray(0, 11), Buffer.alloc(300)]) },
];

function randomBytes(n: number, seed: number): Buffer {
  const rand = prng(seed);
  return Buffer.from(Array.from({ length: n }, () => Math.floor(rand() * 256)));
}

describe('WAL torn tails', () => {
  for (const chunk of CHUNKS) {
    for (const tail of tails) {
      it(`${tail.name} (read chunk ${chunk}) → cut off, every acknowledged record kept`, async () => {
        const dir = await makeLog(ROWS);
        const [segment] = (await segments(dir)).slice(-1);
        const original = await readFile(segment);
        const last = frames(original).at(-1)!;
        await appendFile(segment, tail.bytes(original.subarray(last.offset, last.end)));
        const logged = await withChunk(chunk, () => openAndCheck(dir, ROWS, async () => {
          assert.equal((await stat(segment)).size, original.length, 'the torn tail was truncated');
          // Replay resumes after the cut: a second open sees a clean log.
          assert.deepEqual(await openAndCheck(await copyAside(dir), ROWS), []);
        }));
        assert.ok(logged.some((m) => m.includes(segment) && m.includes(`offset ${original.length}`)), logged.join('\n'));
      });
    }
  }

  it('zeros over the last record (its size reached the disk, its data did not) → that record is cut', async () => {
    const dir = await makeLog(ROWS);
    const [segment] = (await segments(dir)).slice(-1);
    const original = await readFile(segment);
    const last = frames(original).at(-1)!;
    original.fill(0, last.offset, last.end);
    await writeFile(segment, original);
    await openAndCheck(dir, ROWS.slice(0, -1), async () => assert.equal((await stat(segment)).size, last.offset));
  });
});

describe('WAL damage followed by a whole frame', () => {
  const damages: { name: string; apply: (seg: Buffer, f: { offset: number; end: number }[]) => { bytes: Buffer; at: number } }[] = [
    {
      name: 'a middle record zeroed',
      apply: (seg, f) => { const b = Buffer.from(seg); b.fill(0, f[5].offset, f[5].end); return { bytes: b, at: f[5].offset }; },
    },
    {
      name: 'a flipped payload byte in the second-last record',
      apply: (seg, f) => { const b = Buffer.from(seg); const r = f[f.length - 2]; b[r.end - 1] ^= 0x40; return { bytes: b, at: r.offset }; },
    },
    {
      name: 'garbage, then a whole frame',
      apply: (seg, f) => {
        const last = seg.subarray(f.at(-1)!.offset, f.at(-1)!.end);
        return { bytes: Buffer.concat([seg, randomBytes(100, 3), last]), at: seg.length };
      },
    },
    {
      name: 'zeros, then a whole frame',
      apply: (seg, f) => {
        const last = seg.subarray(f.at(-1)!.offset, f.at(-1)!.end);
        return { bytes: Buffer.concat([seg, Buffer.alloc(64), last]), at: seg.length };
      },
    },
  ];
  for (const chunk of CHUNKS) {
    for (const damage of damages) {
      it(`${damage.name} (read chunk ${chunk}) → WalCorrupt naming file and offset, file untouched`, async () => {
        const dir = await makeLog(ROWS);
        const [segment] = (await segments(dir)).slice(-1);
        const original = await readFile(segment);
        const { bytes, at } = damage.apply(original, frames(original));
        await writeFile(segment, bytes);
        const e = await withChunk(chunk, () => expectCode(() => Database.open({ dataDir: dir, sweepIntervalMs: 0 }), 'WalCorrupt'));
        assert.ok(e.message.includes(segment) && e.message.includes(`byte offset ${at}`), e.message);
        assert.deepEqual(await readFile(segment), bytes);
      });
    }
  }
});

describe('WAL segments rotate by size', () => {
  const many = rowsOf(150);

  it('a tiny walSegmentBytes makes many segments, each within the limit; replay reads them all', async () => {
    const dir = await makeLog(many, 1024);
    const files = await segments(dir);
    assert.ok(files.length >= 10, `only ${files.length} segments`);
    for (const f of files) {
      const size = (await stat(f)).size;
      assert.ok(size <= 1024 || frames(await readFile(f)).length === 1, `${f} holds ${size} bytes`);
    }
    for (const chunk of CHUNKS) {
      const copy = await copyAside(dir);
      await withChunk(chunk, () => openAndCheck(copy, many));
    }
  });

  it('a record bigger than a segment gets one of its own', async () => {
    const dataDir = await tempDir();
    const db = await Database.open({ dataDir, sweepIntervalMs: 0, walSegmentBytes: 1024 });
    await db.createBlob('small', 'x');
    await db.createBlob('big', new Uint8Array(5000).fill(9));
    await db.createBlob('after', 'y');
    const copy = await copyAside(dataDir);
    await db.close();
    const sizes = await Promise.all((await segments(copy)).map(async (f) => (await stat(f)).size));
    assert.equal(sizes.length, 3);
    assert.ok(sizes[1] > 5000);
    const reopened = await withChunk(13, () => Database.open({ dataDir: copy, sweepIntervalMs: 0 }));
    assert.deepEqual(await reopened.getBlob('big'), new Uint8Array(5000).fill(9));
    assert.deepEqual(reopened.listAliases('').aliases, ['after', 'big', 'small']);
    await reopened.close();
  });

  it('a torn tail in the last of many segments is cut; damage in an earlier one is WalCorrupt', async () => {
    const dir = await makeLog(many, 1024);
    const files = await segments(dir);
    const lastSize = (await stat(files.at(-1)!)).size;
    await appendFile(files.at(-1)!, Buffer.alloc(700));
    const torn = await copyAside(dir);
    const tornLast = join(torn, 'wal', files.at(-1)!.split('/').at(-1)!);
    await openAndCheck(torn, many, async () => assert.equal((await stat(tornLast)).size, lastSize));

    // The same zeros at the end of an earlier segment: the writer fsyncs a segment before it
    // starts the next, so this cannot be a torn write.
    await writeFile(files.at(-1)!, (await readFile(files.at(-1)!)).subarray(0, lastSize));
    const middle = files[3];
    const size = (await stat(middle)).size;
    await appendFile(middle, Buffer.alloc(700));
    const e = await expectCode(() => Database.open({ dataDir: dir, sweepIntervalMs: 0 }), 'WalCorrupt');
    assert.ok(e.message.includes(middle) && e.message.includes(`byte offset ${size}`), e.message);
  });
});
