// The Cluster panel: svc's own figures, refreshed every few seconds with a sparkline of each —
// ingest (rows/s) and queries (per second, mean time), computed in the page from two readings of
// /metrics' counters; the memory budget's use (/metrics); the data directory's free disk
// (/api/cluster); in a cluster, each log's lag on this node. Then the status, nodes, liveness,
// readiness and the machine's own figures (/api/cluster, /api/nodes/:id). A server without
// /metrics (--no-metrics) shows what it has and says what is missing.
import { api, apiJson } from './api.js';
import { el } from './dom.js';
import { parseMetrics, rate, total } from './metrics-text.js';
import type { Metrics } from './metrics-text.js';

const REFRESH_MS = 5000;
const HISTORY = 60;

interface NodeInfo { cpuTotal: number; cpuUsed: number; os: string; svcVersion: string }
interface Cluster { memoryTotal: number; memoryUsed: number; diskTotal: number; diskUsed: number; nodes: string[]; status: string }

function percent(used: number, total: number): string {
  return total > 0 ? `${((used / total) * 100).toFixed(0)}%` : '?';
}

function gib(n: number): string {
  return `${(n / 1073741824).toFixed(2)} GiB`;
}

function perSecond(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en') : n.toFixed(n >= 10 ? 1 : 2);
}

/**
 * The samples so far across the whole width, scaled between their own low and high so small
 * changes show (a flat history is a line through the middle; the figure above gives the level).
 */
function sparkline(canvas: HTMLCanvasElement, samples: readonly number[]): void {
  const ctx = canvas.getContext('2d');
  if (ctx === null) return;
  const w = canvas.width;
  const h = canvas.height;
  ctx.clearRect(0, 0, w, h);
  if (samples.length === 0) return;
  const values = samples.length === 1 ? [samples[0]!, samples[0]!] : samples;
  const lo = Math.min(...values);
  const range = Math.max(...values) - lo;
  ctx.strokeStyle = getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() || '#2f7ed8';
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  values.forEach((v, i) => {
    const x = (i / (values.length - 1)) * w;
    const y = range === 0 ? h / 2 : h - 3 - ((v - lo) / range) * (h - 6);
    if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
  });
  ctx.stroke();
}

/** One figure of the panel: a title, the value, a line of detail and a sparkline. */
function figureCard(id: string, title: string): { root: HTMLElement; show(value: string, detail: string, sample: number | null): void } {
  const value = el('div', { className: 'figure-value', id });
  const detail = el('div', { className: 'muted figure-detail' });
  const canvas = el('canvas', { width: 220, height: 36, 'aria-label': `${title} history` });
  const history: number[] = [];
  return {
    root: el('div', { className: 'figure' }, el('h3', {}, title), value, detail, canvas),
    show(text, more, sample) {
      value.textContent = text;
      detail.textContent = more;
      if (sample === null) return;
      history.push(sample);
      if (history.length > HISTORY) history.shift();
      sparkline(canvas, history);
    },
  };
}

export interface ClusterView {
  readonly root: HTMLElement;
  start(): void;
  stop(): void;
}

export function createCluster(): ClusterView {
  const statusLine = el('p', { id: 'cluster-status' }, 'Loading…');
  const probes = el('p', { id: 'probes' });
  const nodeLine = el('p', { id: 'node-info', className: 'muted' });
  const metricsNote = el('p', { className: 'muted', id: 'metrics-note', hidden: true });
  const ingest = figureCard('ingest-rate', 'Ingest');
  const queries = figureCard('query-rate', 'Queries');
  const budget = figureCard('memory-budget', 'Memory budget');
  const disk = figureCard('disk-free', 'Disk free (data directory)');
  const machine = figureCard('machine-memory', 'Machine memory');
  const lagBody = el('tbody', {});
  const replication = el('section', { id: 'replication', hidden: true },
    el('h2', {}, 'Replication'),
    el('p', { className: 'muted' }, 'Messages of each log not yet applied on the node serving this page (its lag). Other nodes report theirs on their own /metrics.'),
    el('table', { className: 'kv' }, el('thead', {}, el('tr', {}, ...['log', 'pending messages', 'applied sequence'].map((h) => el('th', {}, h)))), lagBody));
  const root = el('section', { className: 'cluster', 'aria-label': 'Cluster' },
    el('h2', {}, 'svc'), metricsNote,
    el('div', { className: 'figures' }, ingest.root, queries.root, budget.root, disk.root, machine.root),
    replication,
    el('h2', {}, 'Nodes'), statusLine, probes, nodeLine);
  let timer = 0;
  let lastCpu: NodeInfo | null = null;
  let previous: { metrics: Metrics; at: number } | null = null;

  const probe = async (path: string): Promise<string> => {
    try {
      const r = await fetch(path);
      return r.ok ? 'up' : `${r.status}`;
    } catch {
      return 'unreachable';
    }
  };

  /** svc's own figures from /metrics: rates need the reading before (the first tick has none). */
  const showMetrics = async (): Promise<void> => {
    const r = await fetch('/metrics').catch(() => null);
    if (r === null || !r.ok) {
      metricsNote.hidden = false;
      metricsNote.textContent = `/metrics answered ${r === null ? 'nothing' : r.status} (a server started with --no-metrics): ingest and query rates are not available.`;
      const ready = await fetch('/api/status/readiness').then((x) => x.json() as Promise<{ memory?: { limit: number; used: number } }>).catch(() => null);
      if (ready?.memory !== undefined) budget.show(percent(ready.memory.used, ready.memory.limit), `${gib(ready.memory.used)} of ${gib(ready.memory.limit)}`, ready.memory.used);
      return;
    }
    metricsNote.hidden = true;
    const metrics = parseMetrics(await r.text());
    const at = performance.now();
    if (previous !== null) {
      const seconds = (at - previous.at) / 1000;
      const rows = rate(previous.metrics, metrics, 'svc_rows_ingested_total', seconds);
      const count = rate(previous.metrics, metrics, 'svc_queries_total', seconds);
      const busy = rate(previous.metrics, metrics, 'svc_query_seconds_total', seconds);
      if (rows !== null) ingest.show(`${perSecond(rows)} rows/s`, `${(total(metrics, 'svc_rows_ingested_total') ?? 0).toLocaleString('en')} rows since start`, rows);
      if (count !== null) queries.show(`${perSecond(count)} /s`, count > 0 && busy !== null ? `mean ${((busy / count) * 1000).toFixed(1)} ms` : 'none in the last interval', count);
    } else {
      ingest.show('measuring…', '', null);
      queries.show('measuring…', '', null);
    }
    previous = { metrics, at };
    const used = total(metrics, 'svc_memory_used_bytes');
    const limit = total(metrics, 'svc_memory_limit_bytes');
    if (used !== null && limit !== null) budget.show(percent(used, limit), `${gib(used)} of ${gib(limit)} (--memory-limit)`, used);
    const pending = metrics.get('svc_cluster_pending_messages') ?? [];
    replication.hidden = pending.length === 0;
    const applied = new Map((metrics.get('svc_cluster_applied_sequence') ?? []).map((s) => [s.labels['log'] ?? '', s.value]));
    lagBody.replaceChildren(...pending.map((s) => el('tr', {}, el('td', {}, s.labels['log'] ?? ''), el('td', {}, s.value.toLocaleString('en')), el('td', {}, applied.get(s.labels['log'] ?? '')?.toLocaleString('en') ?? ''))));
  };

  const tick = async (): Promise<void> => {
    const [live, ready] = await Promise.all([probe('/api/status/liveness'), probe('/api/status/readiness'), showMetrics()]);
    probes.textContent = `liveness: ${live} · readiness: ${ready}`;
    try {
      const c = await apiJson<Cluster>('/api/cluster');
      statusLine.textContent = `status: ${c.status} · nodes: ${c.nodes.join(', ')}`;
      const free = c.diskTotal - c.diskUsed;
      disk.show(gib(free), `${percent(free, c.diskTotal)} of ${gib(c.diskTotal)}${c.nodes.length > 1 ? `, summed over ${c.nodes.length} nodes` : ''}`, free);
      machine.show(percent(c.memoryUsed, c.memoryTotal), `${gib(c.memoryUsed)} of ${gib(c.memoryTotal)} used on the machine${c.nodes.length > 1 ? 's' : ''}`, c.memoryUsed);
      const id = c.nodes[0];
      if (id !== undefined) {
        const n = await apiJson<NodeInfo>(`/api/nodes/${encodeURIComponent(id)}`).catch(() => null);
        if (n !== null) {
          // cpuUsed/cpuTotal are cumulative: the share since the last refresh is the live figure.
          const busy = lastCpu === null || n.cpuTotal === lastCpu.cpuTotal ? null : (n.cpuUsed - lastCpu.cpuUsed) / (n.cpuTotal - lastCpu.cpuTotal);
          nodeLine.textContent = `${id}: ${n.os} · svc ${n.svcVersion}${busy === null ? '' : ` · machine CPU ${(busy * 100).toFixed(0)}%`}`;
          lastCpu = n;
        }
      }
    } catch (e) {
      statusLine.textContent = `/api/cluster is not available on this server (${(e as Error).message}); liveness and readiness shown.`;
      const p = await api('/api/option/parallelism').then((r) => r.text()).catch(() => '?');
      nodeLine.textContent = `parallelism: ${p}`;
    }
  };

  return {
    root,
    start() {
      if (timer !== 0) return;
      void tick();
      // A second reading soon after the first: rates show within a second, not a whole interval.
      setTimeout(() => { if (timer !== 0) void showMetrics(); }, 1000);
      timer = window.setInterval(() => void tick(), REFRESH_MS);
    },
    stop() {
      clearInterval(timer);
      timer = 0;
    },
  };
}
