// The bench report: one table of every case (time per run, ops/s, rows/s, speed ratios vs peers,
// answer check), the non-timing metrics, the issue targets as measured pass/fail lines, and the
// same as JSON for tools.
import { writeFile } from 'node:fs/promises';
import type { CaseResult, Metric } from './harness.js';

export interface Target {
  readonly what: string;
  readonly measured: string;
  /** null: its cases did not run; 'info': a figure shown beside the targets, not one of them. */
  readonly isMet: boolean | null | 'info';
}

export function printTable(results: readonly CaseResult[], log: (line: string) => void): void {
  const header = ['case', 'ms/run', '±%', 'n', 'ops/s', 'rows/s', 'speed ÷ peer', 'answer'];
  const rows = results.map((r) => [
    `${r.suite} › ${r.name}`,
    r.error === null ? fmt(r.ms) : 'ERROR',
    r.error === null ? r.rme.toFixed(1) : '',
    r.error === null ? String(r.samples) : '',
    r.error === null ? fmt(1000 / r.ms) : '',
    r.error === null && r.rows !== null ? rate(r.rows / (r.ms / 1000)) : '',
    Object.entries(r.ratios).map(([peer, x]) => `${x.toFixed(2)}× ${peer}`).join(', '),
    r.check === 'ok' ? 'ok' : r.check === 'mismatch' ? 'MISMATCH' : '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 || i >= 6 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  log(line(header));
  log(widths.map((w) => '-'.repeat(w)).join('  '));
  let suite = '';
  for (let i = 0; i < rows.length; i++) {
    if (results[i].suite !== suite && suite !== '') log('');
    suite = results[i].suite;
    log(line(rows[i]));
  }
  for (const r of results) {
    if (r.error !== null) log(`\nERROR ${r.suite} › ${r.name}: ${r.error}`);
    if (r.check === 'mismatch') {
      log(`\n!!!!!!!! WRONG ANSWER: ${r.suite} › ${r.name} !!!!!!!!`);
      for (const p of r.problems) log(`  ${p}`);
    }
  }
}

export function printMetrics(metrics: readonly Metric[], log: (line: string) => void): void {
  if (metrics.length === 0) return;
  log('');
  for (const m of metrics) log(`${m.suite} › ${m.name}: ${fmt(m.value)} ${m.unit}${m.note === '' ? '' : ` (${m.note})`}`);
}

export function printTargets(targets: readonly Target[], log: (line: string) => void): void {
  if (targets.length === 0) return;
  log('\nTargets (measured, not tested):');
  const mark = (t: Target) => (t.isMet === 'info' ? '··' : t.isMet === null ? ' ?' : t.isMet ? 'ok' : 'NO');
  for (const t of targets) log(`  ${mark(t)}  ${t.what}: ${t.measured}`);
}

export async function writeJson(path: string, report: unknown): Promise<void> {
  await writeFile(path, `${JSON.stringify(report, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v), 2)}\n`);
}

/** Three significant digits, thousands grouped. */
export function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Math.abs(x) >= 100) return Math.round(x).toLocaleString('en-US');
  return x.toPrecision(3);
}

/** A rate per second with a K/M/G suffix. */
export function rate(x: number): string {
  if (x >= 1e9) return `${(x / 1e9).toFixed(2)} G`;
  if (x >= 1e6) return `${(x / 1e6).toFixed(2)} M`;
  if (x >= 1e3) return `${(x / 1e3).toFixed(1)} K`;
  return x.toFixed(0);
}
