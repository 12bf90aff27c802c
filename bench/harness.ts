// The bench harness: declarative cases grouped in suites of peers, run interleaved in one process.
// A 'once' case is one long operation (ingest 10 M rows): timed by a plain loop, one run per
// round, median reported. An 'ops' case is a repeatable operation (a query): measured by the
// `benchmark` package once per round, the best round reported. Peers of a suite run round-robin
// (svc, peer, svc, peer, …) so drift in the machine's state hits them alike.
import { collectGarbage } from './data.js';
import { measureOps } from './measure-ops.js';

export type Mode = 'once' | 'ops';

export interface Case<S = unknown, O = unknown> {
  /** Shown in the table; unique within its suite (ratios name their peer by it). */
  readonly name: string;
  /** Builds the state a run needs (untimed): per run for 'once', once per case for 'ops'. */
  readonly setup?: () => Promise<S> | S;
  /** The timed work. */
  readonly run: (state: S) => Promise<O> | O;
  /** Untimed cleanup after `setup`'s state is done with. */
  readonly teardown?: (state: S) => Promise<void> | void;
  /** Rows one run processes, for rows/s (a function when only known after the suite's setup). */
  readonly rows?: number | (() => number);
  /** Peers (case names in the same suite) this case is compared with, as a speed ratio. */
  readonly vs?: readonly string[];
  /** Checks one run's output (untimed); returns problems, empty when the answer is right. */
  readonly check?: (output: O, state: S) => Promise<string[]> | string[];
}

export interface Suite {
  readonly name: string;
  readonly mode: Mode;
  /** 'once': timed runs per case; 'ops': benchmark.js passes per case. */
  readonly rounds: number;
  /** Builds data shared by the suite's cases (untimed). */
  readonly setup?: () => Promise<void>;
  readonly teardown?: () => Promise<void>;
  readonly cases: readonly Case<any, any>[];
}

export interface CaseResult {
  readonly suite: string;
  readonly name: string;
  readonly mode: Mode;
  /** Milliseconds per run (once: median of rounds; ops: mean of the best round). */
  ms: number;
  minMs: number;
  maxMs: number;
  /** Relative margin of error of `ms` in percent (ops mode), or the spread of runs (once mode). */
  rme: number;
  samples: number;
  rows: number | null;
  /** This case's speed ÷ the peer's speed: > 1 means this case is faster. */
  ratios: Record<string, number>;
  check: 'ok' | 'mismatch' | 'unchecked';
  problems: string[];
  error: string | null;
}

export interface Metric {
  readonly suite: string;
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly note: string;
}

const metrics: Metric[] = [];

/** Records a figure that is not a timing (bytes per row, …) for the report. */
export function recordMetric(suite: string, name: string, value: number, unit: string, note = ''): void {
  metrics.push({ suite, name, value, unit, note });
}

export function recordedMetrics(): readonly Metric[] {
  return metrics;
}

/** Case helper keeping `setup`'s state type tied to `run`, `check` and `teardown`. */
export function defineCase<S, O>(c: Case<S, O>): Case<S, O> {
  return c;
}

/** An 'ops' case whose first run takes longer than this is timed like a 'once' case instead. */
const SLOW_OP_MS = 2000;
const OPS_MAX_TIME_S = Number(process.env.BENCH_MAX_TIME ?? 1);

export async function runSuite(suite: Suite, log: (line: string) => void): Promise<CaseResult[]> {
  const results = suite.cases.map((c) => emptyResult(suite, c));
  const times: number[][] = suite.cases.map(() => []);
  try {
    await suite.setup?.();
    if (suite.mode === 'once') await runOnce(suite, results, times, log);
    else await runOps(suite, results, times, log);
  } catch (e) {
    for (const r of results) r.error ??= `suite setup failed: ${message(e)}`;
  } finally {
    await suite.teardown?.().catch((e: unknown) => log(`  teardown of ${suite.name} failed: ${message(e)}`));
    collectGarbage();
  }
  for (let i = 0; i < results.length; i++) {
    const rows = suite.cases[i].rows;
    results[i].rows = typeof rows === 'function' ? (results[i].error === null ? rows() : null) : rows ?? null;
    summarize(results[i], times[i], suite.mode);
  }
  for (let i = 0; i < results.length; i++) {
    for (const peer of suite.cases[i].vs ?? []) {
      const p = results.find((r) => r.name === peer);
      if (p !== undefined && p.error === null && results[i].error === null) results[i].ratios[peer] = p.ms / results[i].ms;
    }
  }
  return results;
}

async function runOnce(suite: Suite, results: CaseResult[], times: number[][], log: (line: string) => void): Promise<void> {
  await interleaveRounds(suite, results, times, log, 1, (i, round) => timeOnce(suite.cases[i], round === 0 ? results[i] : null));
}

/**
 * The rounds of a suite, every case once per round in turn (peers interleaved on a noisy
 * machine): `measure` times case i, the time is kept and logged, and a throw fails the case.
 */
async function interleaveRounds(
  suite: Suite, results: CaseResult[], times: number[][], log: (line: string) => void, digits: number,
  measure: (i: number, round: number) => Promise<number>,
): Promise<void> {
  for (let round = 0; round < suite.rounds; round++) {
    for (let i = 0; i < suite.cases.length; i++) {
      const r = results[i];
      if (r.error !== null) continue;
      const name = `  ${suite.name} › ${suite.cases[i].name}`;
      try {
        times[i].push(await measure(i, round));
        log(`${name}: round ${round + 1}/${suite.rounds} ${times[i].at(-1)!.toFixed(digits)} ms`);
      } catch (e) {
        r.error = message(e);
        log(`${name}: ERROR ${r.error}`);
      }
    }
  }
}

/** One timed run with fresh state; checks the output when `checkInto` is given. */
async function timeOnce(c: Case<any, any>, checkInto: CaseResult | null): Promise<number> {
  const state = await c.setup?.();
  try {
    collectGarbage();
    const t0 = performance.now();
    const output = await c.run(state);
    const ms = performance.now() - t0;
    if (checkInto !== null) await applyCheck(c, output, state, checkInto);
    return ms;
  } finally {
    await c.teardown?.(state);
  }
}

async function runOps(suite: Suite, results: CaseResult[], times: number[][], log: (line: string) => void): Promise<void> {
  const states: unknown[] = [];
  const isSlow: boolean[] = [];
  for (let i = 0; i < suite.cases.length; i++) {
    const c = suite.cases[i];
    try {
      states[i] = await c.setup?.();
      const t0 = performance.now();
      const output = await c.run(states[i]);
      isSlow[i] = performance.now() - t0 > SLOW_OP_MS;
      await applyCheck(c, output, states[i], results[i]);
    } catch (e) {
      results[i].error = message(e);
      log(`  ${suite.name} › ${c.name}: ERROR ${results[i].error}`);
    }
  }
  await interleaveRounds(suite, results, times, log, 3, async (i) => {
    const c = suite.cases[i];
    if (isSlow[i]) {
      const t0 = performance.now();
      await c.run(states[i]);
      return performance.now() - t0;
    }
    const b = await measureOps(() => c.run(states[i]), OPS_MAX_TIME_S);
    // Keep the best round: mean, its margin of error and sample count.
    if (times[i].length === 0 || b.ms < Math.min(...times[i])) { results[i].rme = b.rme; results[i].samples = b.samples; }
    return b.ms;
  });
  for (let i = 0; i < suite.cases.length; i++) {
    if (!(i in states)) continue;
    await Promise.resolve(suite.cases[i].teardown?.(states[i])).catch((e: unknown) => log(`  teardown of ${suite.cases[i].name} failed: ${message(e)}`));
  }
}

async function applyCheck(c: Case<any, any>, output: unknown, state: unknown, r: CaseResult): Promise<void> {
  if (c.check === undefined) return;
  const problems = await c.check(output, state);
  r.check = problems.length === 0 ? 'ok' : 'mismatch';
  r.problems = problems;
}

function summarize(r: CaseResult, times: number[], mode: Mode): void {
  if (times.length === 0) {
    r.error ??= 'no timed run';
    return;
  }
  const sorted = [...times].sort((a, b) => a - b);
  r.minMs = sorted[0];
  r.maxMs = sorted[sorted.length - 1];
  if (mode === 'once' || r.samples === 0) {
    r.ms = sorted[(sorted.length - 1) >> 1];
    r.samples = sorted.length;
    r.rme = r.ms > 0 ? ((r.maxMs - r.minMs) / 2 / r.ms) * 100 : 0;
  } else {
    r.ms = sorted[0];
  }
}

function emptyResult(suite: Suite, c: Case<any, any>): CaseResult {
  return {
    suite: suite.name, name: c.name, mode: suite.mode, ms: NaN, minMs: NaN, maxMs: NaN, rme: 0, samples: 0,
    rows: null, ratios: {}, check: 'unchecked', problems: [], error: null,
  };
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
