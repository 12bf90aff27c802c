// Shared helpers of the engine test suite: temporary data directories, error-code assertions,
// reading a table back as plain rows through scan() + columnVector (checking the batch order
// invariants on the way), and copying a live data directory aside to recover it as after a crash.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { columnVector } from '../../engine/storage/column-vector.js';
import { catalogOf } from '../../engine/database.js';
import type { Database } from '../../engine/database.js';
import { SvcError } from '../../engine/errors.js';
import type { ColumnDef } from '../../engine/types.js';
import type { ErrorCode } from '../../engine/errors.js';
import { isValid } from '../../engine/types.js';
import type { ColumnStats, ColumnType } from '../../engine/types.js';
import type { SealedBatch } from '../../engine/storage/sealed-batch.js';
export { prng } from '../prng.js';

export const MIN_TS = -(2n ** 63n);
export const MAX_TS = 2n ** 63n - 1n;

export type Value = number | bigint | string | Uint8Array | boolean | null;
export type Row = Record<string, Value>;

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** The batches of `table` overlapping [from, to) in time order (the query layer's Table.scan). */
export function scanOf(db: Database, table: string, from = MIN_TS, to = MAX_TS): SealedBatch[] {
  const t = catalogOf(db).table(table);
  if (t === undefined) throw new SvcError('TableNotFound', `table '${table}' does not exist`);
  return t.scan(from, to);
}

/** A fresh empty directory, removed when the test file ends. */
export async function tempDir(label = 'svc-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), label));
  dirs.push(dir);
  return dir;
}

/**
 * Runs a child test process (`node script …args`) and SIGKILLs it once `onLine` returns true for
 * a line it printed, after a random moment of up to `jitterMs`; a watchdog kills it after
 * `watchdogMs`. Resolves with what it wrote to stderr once it died of the SIGKILL; fails the test
 * when it exited on its own.
 */
export async function killWhen(script: string, args: readonly string[], onLine: (line: string) => boolean, jitterMs: number, watchdogMs = 60_000): Promise<string> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let buffer = '';
  const watchdog = setTimeout(() => child.kill('SIGKILL'), watchdogMs);
  child.stderr.on('data', (d) => { stderr += d; });
  child.stdout.on('data', (d) => {
    buffer += d;
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) if (onLine(line)) setTimeout(() => child.kill('SIGKILL'), Math.floor(Math.random() * jitterMs));
  });
  // 'close', not 'exit': the child's last lines may still be in the pipe when it has exited.
  const [, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on('close', (c, sig) => resolve([c, sig])));
  clearTimeout(watchdog);
  assert.equal(signal, 'SIGKILL', `the child exited on its own: ${stderr}`);
  return stderr;
}

/** Runs `run` and asserts it fails (synchronously or by rejection) with SvcError `code`. */
export async function expectCode(run: () => unknown, code: ErrorCode, message?: RegExp): Promise<SvcError> {
  let result: unknown;
  try {
    result = await run();
  } catch (e) {
    assert.ok(e instanceof SvcError, `expected SvcError ${code}, got ${String(e)}`);
    assert.equal(e.code, code, `expected ${code}, got ${e.code}: ${e.message}`);
    if (message !== undefined) assert.match(e.message, message);
    return e;
  }
  assert.fail(`expected SvcError ${code}, but the call returned ${String(result)}`);
}

/**
 * Every row of `table` in scan order, as plain values (null for nulls). Asserts the scan
 * contract on the way: batches sorted inside, in timestamp order, never overlapping, with
 * minTs/maxTs/rowCount matching their rows.
 */
export function readRows(db: Database, table: string, from = MIN_TS, to = MAX_TS): Row[] {
  return readBatches(db, table, from, to).flatMap((b) => b.rows);
}

/** The batches of a scan with their rows decoded (see readRows for the checks made). */
export function readBatches(db: Database, table: string, from = MIN_TS, to = MAX_TS): { view: SealedBatch; rows: Row[] }[] {
  const out: { view: SealedBatch; rows: Row[] }[] = [];
  let previousMax: bigint | null = null;
  for (const view of scanOf(db, table, from, to)) {
    assert.ok(view.rowCount > 0, 'empty batch in a scan');
    const rows = decodeView(db, view, table);
    view.loadSync([0]);
    assert.equal(view.minTs, view.ts[0]);
    assert.equal(view.maxTs, view.ts[view.rowCount - 1]);
    view.unpin([0]);
    if (previousMax !== null) assert.ok(previousMax <= view.minTs, `batches overlap: ${previousMax} > ${view.minTs}`);
    previousMax = view.maxTs;
    out.push({ view, rows });
  }
  return out;
}

/**
 * The rows of one batch of `table` (read back if evicted), checking that its timestamps are
 * sorted and agree with `ts`.
 */
export function decodeView(db: Database, view: SealedBatch, table = 't'): Row[] {
  view.loadSync(view.allColumns);
  try {
    return decodeLoaded(db, view, table);
  } finally {
    view.unpin(view.allColumns);
  }
}

function decodeLoaded(db: Database, view: SealedBatch, table: string): Row[] {
  const { columns } = db.describeTable(table);
  const tsVector = columnVector(view, 0, 'TIMESTAMP') as { values: BigInt64Array };
  const vectors = columns.map((c, i) => columnVector(view, i + 1, c.type));
  const rows: Row[] = [];
  for (let r = 0; r < view.rowCount; r++) {
    const ts = tsVector.values[r];
    assert.equal(ts, view.ts[r]);
    if (r > 0) assert.ok(view.ts[r - 1] <= ts, 'batch not sorted by $timestamp');
    const row: Row = { $timestamp: ts };
    columns.forEach((c, i) => { row[c.name] = cell(vectors[i], r); });
    rows.push(row);
  }
  return rows;
}

/** Asserts that every batch's statistics match a recomputation from its values. */
export function checkStats(db: Database, table: string): void {
  const { columns } = db.describeTable(table);
  for (const { view, rows } of readBatches(db, table)) {
    const n = rows.length;
    const ts = rows.map((r) => r.$timestamp as bigint);
    const [first, last] = [ts[0], ts[n - 1]];
    assert.deepEqual({ ...view.stats[0] }, {
      count: n, nullCount: 0, min: first, max: last, minRow: 0, maxRow: n - 1, sum: null, firstRow: 0, lastRow: n - 1,
      minTime: first, maxTime: last, firstTime: first, lastTime: last, first, last,
    });
    columns.forEach((c, i) => {
      const values = rows.map((r) => r[c.name]);
      assert.deepEqual({ ...view.statsOf(i + 1) }, expectedStats(c.type, values, ts), `stats of column ${c.name}`);
    });
  }
}

/** Statistics of a column from its values and row times. */
function expectedStats(type: ColumnType, values: Value[], ts: readonly bigint[]): ColumnStats {
  let count = 0;
  let firstRow = -1;
  let lastRow = -1;
  let min: number | bigint | null = null;
  let max: number | bigint | null = null;
  let minRow = -1;
  let maxRow = -1;
  let sum: number | bigint | null = type === 'DOUBLE' ? 0 : type === 'INT64' ? 0n : null;
  if (type === 'BOOLEAN') {
    // false < true; ties go to the first row, as for numbers.
    values.forEach((v, i) => {
      if (v === null) return;
      count++;
      if (firstRow < 0) firstRow = i;
      lastRow = i;
      const x = v === true ? 1 : 0;
      if (min === null || x < min) { min = x; minRow = i; }
      if (max === null || x > max) { max = x; maxRow = i; }
    });
  } else {
    values.forEach((v, i) => {
      if (v === null) return;
      count++;
      if (firstRow < 0) firstRow = i;
      lastRow = i;
      if (type === 'DOUBLE' || type === 'INT64') sum = (sum as number) + (v as number);
      if (type === 'DOUBLE' || type === 'INT64' || type === 'TIMESTAMP') {
        if (typeof v === 'number' && Number.isNaN(v)) return;
        if (min === null || (v as number) < min) { min = v as number; minRow = i; }
        if (max === null || (v as number) > max) { max = v as number; maxRow = i; }
      }
    });
  }
  const at = (row: number) => (row < 0 ? null : ts[row]);
  const isNumber = type === 'DOUBLE' || type === 'INT64' || type === 'TIMESTAMP';
  return {
    count, nullCount: values.length - count, min, max, minRow, maxRow, sum, firstRow, lastRow,
    minTime: at(minRow), maxTime: at(maxRow), firstTime: at(firstRow), lastTime: at(lastRow),
    first: isNumber && firstRow >= 0 ? (values[firstRow] as number | bigint) : null,
    last: isNumber && lastRow >= 0 ? (values[lastRow] as number | bigint) : null,
  };
}

function cell(v: ReturnType<typeof columnVector>, r: number): Value {
  if (!isValid(v.validity, r)) return null;
  switch (v.type) {
    case 'DOUBLE':
    case 'INT64':
    case 'TIMESTAMP':
      return v.values[r];
    case 'STRING':
      return Buffer.from(v.data.subarray(v.offsets[r], v.offsets[r + 1])).toString('utf8');
    case 'BLOB':
      return new Uint8Array(v.data.subarray(v.offsets[r], v.offsets[r + 1]));
    case 'SYMBOL':
      return v.dictionary[v.indices[r]];
    case 'BOOLEAN':
      return (v.values[r >> 3] & (1 << (r & 7))) !== 0;
  }
}

/** Rows in the order a read must return them: by timestamp, ties in insertion order. */
export function sortedByTs(rows: readonly Row[]): Row[] {
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => {
      const x = a.row.$timestamp as bigint;
      const y = b.row.$timestamp as bigint;
      return x < y ? -1 : x > y ? 1 : a.i - b.i;
    })
    .map((e) => e.row);
}

/**
 * Copies a data directory that is still open (after its writes were acknowledged) to a new
 * directory, without the lock file: opening the copy recovers it as after a crash at that moment.
 */
export async function copyAside(dataDir: string): Promise<string> {
  const copy = await tempDir('svc-copy-');
  await cp(dataDir, copy, { recursive: true });
  await rm(join(copy, 'LOCK'), { force: true });
  return copy;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Waits until the wall clock reaches UNIX second `second` (exclusive of earlier moments). */
export async function untilSecond(second: number): Promise<void> {
  while (Date.now() < second * 1000) await new Promise((r) => setTimeout(r, Math.max(5, second * 1000 - Date.now())));
}

export function bytes(...values: number[]): Uint8Array {
  return new Uint8Array(values);
}


/** An integer in [lo, hi] from `rand`. */
export function randInt(rand: () => number, lo: number, hi: number): number {
  return lo + Math.floor(rand() * (hi - lo + 1));
}

/** One column of every type, for tests that must cover them all. */
export const ALL_TYPES: ColumnDef[] = [
  { name: 'd', type: 'DOUBLE' },
  { name: 'i', type: 'INT64' },
  { name: 't', type: 'TIMESTAMP' },
  { name: 's', type: 'STRING' },
  { name: 'b', type: 'BLOB' },
  { name: 'y', type: 'SYMBOL' },
];

/** Calls `fn` with each whole line written to `stream` (a child's stdout): a line cut by a chunk boundary waits for its end. */
export function onLines(stream: NodeJS.ReadableStream, fn: (line: string) => void): void {
  let pending = '';
  stream.on('data', (d: Buffer | string) => {
    pending += d;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) fn(line);
  });
}
