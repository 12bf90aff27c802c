// Seeded bench data: a year of timestamps (one row per ~3 s at 10 M rows) with uniform random
// DOUBLE columns, plus the time constants and helpers every case shares. The same seed gives the
// same rows in every run, so figures of different runs describe the same data.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The tests' seeded PRNG (mulberry32): the bench's data is as replayable as theirs.
import { prng } from '../test/prng.js';

export const DAY_NS = 86_400_000_000_000n;
export const MINUTE_NS = 60_000_000_000n;
export const YEAR_START = isoNs('2021-01-01T00:00');
export const YEAR_NS = 365n * DAY_NS;
/** Rows per inserted batch (issue 2: batches of 10,000). */
export const BATCH_ROWS = 10_000;
export const MIN_TS = -(2n ** 63n);
export const MAX_TS = 2n ** 63n - 1n;

/** Rows of the big cases: BENCH_ROWS (underscores allowed), 10 M by default. */
export function benchRows(): number {
  const raw = process.env.BENCH_ROWS?.replaceAll('_', '');
  const n = raw === undefined || raw === '' ? 10_000_000 : Number(raw);
  if (!Number.isSafeInteger(n) || n < BATCH_ROWS) throw new Error(`BENCH_ROWS must be an integer >= ${BATCH_ROWS}, got ${process.env.BENCH_ROWS}`);
  return n;
}

/** A UTC time point like `2021-03-01T05:17` as int64 nanoseconds. */
export function isoNs(text: string): bigint {
  const ms = Date.parse(`${text}Z`);
  if (Number.isNaN(ms)) throw new Error(`bad time ${text}`);
  return BigInt(ms) * 1_000_000n;
}


export interface Series {
  readonly rows: number;
  /** Strictly increasing nanosecond timestamps spread over 2021. */
  readonly ts: BigInt64Array;
  readonly columns: Readonly<Record<string, Float64Array>>;
}

/** `rows` rows over one year (step = year / rows, jitter < half a step) and uniform [0, 1) columns. */
export function makeSeries(rows: number, columnNames: readonly string[], seed: number): Series {
  const random = prng(seed);
  const step = Number(YEAR_NS) / rows;
  const ts = new BigInt64Array(rows);
  for (let i = 0; i < rows; i++) ts[i] = YEAR_START + BigInt(Math.floor(i * step + random() * step * 0.5));
  const columns: Record<string, Float64Array> = {};
  for (const name of columnNames) {
    const values = new Float64Array(rows);
    for (let i = 0; i < rows; i++) values[i] = random();
    columns[name] = values;
  }
  return { rows, ts, columns };
}

export type InputBatch = Record<string, BigInt64Array | Float64Array>;

/** The series as insert batches of `size` rows (views into the series, not copies). */
export function toBatches(series: Series, size = BATCH_ROWS): InputBatch[] {
  const out: InputBatch[] = [];
  for (let at = 0; at < series.rows; at += size) {
    const end = Math.min(series.rows, at + size);
    const batch: InputBatch = { $timestamp: series.ts.subarray(at, end) };
    for (const [name, values] of Object.entries(series.columns)) batch[name] = values.subarray(at, end);
    out.push(batch);
  }
  return out;
}

/** A fresh temporary directory (under BENCH_DIR or the OS temp dir) and its remover. */
export async function tempDir(label: string): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(process.env.BENCH_DIR ?? tmpdir(), `svc-bench-${label}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Full GC (node --expose-gc), twice so finalizers' garbage goes too; a no-op without the flag. */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
}

/** Bytes the JS side holds: V8 heap in use plus ArrayBuffer backing stores. */
export function heldBytes(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}
