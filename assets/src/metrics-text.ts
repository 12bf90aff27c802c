// Reading the server's /metrics (Prometheus text exposition) in the page: samples by metric name,
// and rates between two readings of a counter. The Cluster view computes svc's own figures from
// it (ingest rows/s, queries/s, memory budget use, replication lag) without a route of its own.

export interface Sample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export type Metrics = ReadonlyMap<string, readonly Sample[]>;

const LINE = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([A-Za-z_]\w*)="((?:[^"\\]|\\.)*)"/g;

/** The samples of an exposition text, by metric name (comments and malformed lines skipped). */
export function parseMetrics(text: string): Metrics {
  const out = new Map<string, Sample[]>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (m === null) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    const value = Number(m[3]);
    if (Number.isNaN(value) && m[3] !== 'NaN') continue;
    const list = out.get(m[1]!) ?? [];
    list.push({ labels, value });
    out.set(m[1]!, list);
  }
  return out;
}

/** The sum of a metric's samples (all label sets), or null when it is absent. */
export function total(metrics: Metrics, name: string): number | null {
  const samples = metrics.get(name);
  return samples === undefined ? null : samples.reduce((s, x) => s + x.value, 0);
}

/**
 * The per-second rate of a counter between two readings `seconds` apart; null when either lacks
 * it, and 0 after a restart (the counter went back).
 */
export function rate(before: Metrics, after: Metrics, name: string, seconds: number): number | null {
  const a = total(before, name);
  const b = total(after, name);
  if (a === null || b === null || seconds <= 0) return null;
  return b >= a ? (b - a) / seconds : 0;
}
