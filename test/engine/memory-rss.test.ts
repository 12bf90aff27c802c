// The memory budget against the real process (issue 16's "done when"): the embedded engine in a
// child process under a 512 MiB budget ingests more than five times the budget while its RSS is
// sampled from /proc and never passes the budget + 400 MiB, and answers closed-form queries; a
// writer SIGKILLed mid-ingest reopens under the same budget with every acknowledged row, its
// open reading no column data (nothing read back, and no more bytes read than its manifest,
// entries files and WAL hold).
import assert from 'node:assert/strict';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { checkpointsDir, listManifests } from '../../engine/durability/checkpoint/checkpoint-folder.js';
import { readManifest } from '../../engine/durability/checkpoint/manifest.js';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BATCH, GROUP_FROM, STAR_FROM } from './memory-child.js';
import { tempDir } from './helpers.js';
import { childRunner } from './child-rss.js';

const runChild = childRunner(fileURLToPath(new URL('./memory-child.js', import.meta.url)));
const MIB = 1024 * 1024;
const BUDGET = 512 * MIB;
/** V8, code, buffers, the allocator's slack: SPEC §10's fixed overhead, with margin. */
const OVERHEAD = 400 * MIB;
/** Bytes of column data per row: `$timestamp` and 4 DOUBLE. */
const ROW_BYTES = 40;

/** Σ v over rows [0, n): v = (i mod 1000) / 1000. */
function sumOfV(from: number, n: number): number {
  let s = 0;
  for (let i = from; i < from + n; i++) s += (i % 1000) / 1000;
  return s;
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

async function bytesIn(dir: string, isCounted: (name: string) => boolean): Promise<number> {
  let n = 0;
  for (const name of await readdir(dir)) if (isCounted(name)) n += (await stat(join(dir, name))).size;
  return n;
}

describe('memory budget of a real process', () => {
  it('ingests five times the budget with RSS under the budget + 400 MiB, and answers exactly', async () => {
    const rows = Math.ceil((5.2 * BUDGET) / ROW_BYTES / BATCH) * BATCH;
    const run = await runChild(['ingest', await tempDir(), String(rows), String(BUDGET), 'none', '1'], 170_000);
    assert.equal(run.signal, null, run.stderr);
    assert.ok(run.maxRss > 0, 'RSS was sampled');
    assert.ok(run.maxRss <= BUDGET + OVERHEAD, `peak RSS ${(run.maxRss / MIB).toFixed(0)} MiB over ${(BUDGET + OVERHEAD) / MIB} MiB`);
    process.stderr.write(`memory-rss: ${rows} rows, peak RSS ${(run.maxRss / MIB).toFixed(0)} MiB\n`);
    const { answers, memory } = JSON.parse(run.lines.at(-1)!);
    assert.ok(memory.evictions > 0 && memory.readBacks > 0, JSON.stringify(memory));
    const [whole, where, perMinute, star] = answers.map((a: { columns: unknown[][]; timestamps: string[] | null }[]) => a[0]);
    const cycles = rows / 1000;
    assert.deepEqual(whole.columns.map((c: unknown[]) => c[0]).filter((_: unknown, k: number) => k !== 1), [String(rows), 0, 0.999]);
    assert.ok(close(whole.columns[1][0], cycles * 499.5), `sum(v) ${whole.columns[1][0]}`);
    assert.equal(where.columns[0][0], String(cycles * 499));
    assert.ok(close(where.columns[1][0], cycles * 374.25), `sum(v) WHERE ${where.columns[1][0]}`);
    assert.equal(perMinute.columns[0].length, 60);
    for (let m = 0; m < 60; m++) {
      assert.equal(perMinute.columns[0][m], '60');
      assert.ok(close(perMinute.columns[1][m], sumOfV(GROUP_FROM + 60 * m, 60)), `minute ${m}`);
    }
    // SELECT * gives $timestamp, a, b, c, v.
    assert.deepEqual(star.columns[4], Array.from({ length: 10 }, (_, k) => ((STAR_FROM + k) % 1000) / 1000));
    assert.deepEqual(star.columns[1], Array.from({ length: 10 }, (_, k) => (STAR_FROM + k) % 7));
  });

  it('reopens a writer SIGKILLed mid-ingest under the same budget, with every acknowledged row, reading no column data', async () => {
    const dataDir = await tempDir();
    const rows = 30_000_000;
    let acked = 0;
    const run = await runChild(['ingest', dataDir, String(rows), String(BUDGET), 'os', '0'], 120_000, (line) => {
      acked = Number(line.split(' ')[1]);
      return acked >= 24_000_000;
    });
    assert.equal(run.signal, 'SIGKILL', `the writer finished before it was killed: ${run.stderr}`);
    const checkpoints = join(dataDir, 'checkpoints');
    // What open may read: manifests, entries files and the WAL (replay reads a record again when
    // it straddles two of its 4 MiB read chunks); not table files.
    const metadata = await bytesIn(checkpoints, (n) => n.endsWith('.manifest') || /-e\d+\.bin$/.test(n));
    const wal = await bytesIn(join(dataDir, 'wal'), () => true);
    const tableBytes = await bytesIn(checkpoints, (n) => n.endsWith('.cols'));
    // Columns are encoded on disk: what counts against the budget is their size once read back.
    const manifest = await readManifest(checkpointsDir(dataDir), (await listManifests(checkpointsDir(dataDir))).at(-1)!, (p) => new Error(p));
    const readBackBytes = manifest.tables.flatMap((t) => t.batches.flatMap((b) => b.columns!.map((c) => c[3]))).reduce((a, b) => a + b, 0);
    assert.ok(readBackBytes > BUDGET, `the checkpoints hold ${readBackBytes} bytes of table data once read back (${tableBytes} on disk)`);
    const reopened = await runChild(['reopen', dataDir, String(BUDGET)], 60_000);
    assert.equal(reopened.signal, null, reopened.stderr);
    const { openRead, afterOpen, answer } = JSON.parse(reopened.lines.at(-1)!);
    assert.equal(afterOpen.readBackBytes, 0);
    assert.ok(openRead <= metadata + 1.25 * wal + MIB, `open read ${openRead} bytes; manifests and entries hold ${metadata}, the WAL ${wal}, table files ${tableBytes}`);
    const [count, sum, maxTs] = answer[0].columns.map((c: unknown[]) => c[0]);
    const present = Number(count);
    // Each insert is atomic: the rows present are whole batches, at least those acknowledged.
    assert.ok(present >= acked && present % BATCH === 0 && present <= rows, `${present} rows present, ${acked} acknowledged`);
    assert.ok(close(sum, (present / 1000) * 499.5));
    assert.equal(BigInt(maxTs), 1_600_000_000_000_000_000n + BigInt(present - 1) * 1_000_000_000n);
    assert.ok(reopened.maxRss <= BUDGET + OVERHEAD, `peak RSS ${(reopened.maxRss / MIB).toFixed(0)} MiB`);
  });
});
