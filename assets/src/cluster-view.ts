// The cluster panel: status, memory and disk of the node from GET /api/cluster, refreshed every
// few seconds with a small sparkline history, and liveness / readiness. A server without
// /api/cluster (older builds) still shows what it has.
import { api, apiJson } from './api.js';
import { el } from './dom.js';

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

/**
 * The samples so far across the whole width, scaled between their own low and high so small
 * changes show (a flat history is a line through the middle; the meter above gives the level).
 */
function sparkline(canvas: HTMLCanvasElement, samples: number[]): void {
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

export interface ClusterView {
  readonly root: HTMLElement;
  start(): void;
  stop(): void;
}

export function createCluster(): ClusterView {
  const statusLine = el('p', { id: 'cluster-status' }, 'Loading…');
  const probes = el('p', { id: 'probes' });
  const nodeLine = el('p', { id: 'node-info', className: 'muted' });
  const memory = el('div', { className: 'meter' });
  const disk = el('div', { className: 'meter' });
  const memCanvas = el('canvas', { width: 240, height: 40, 'aria-label': 'memory history' });
  const diskCanvas = el('canvas', { width: 240, height: 40, 'aria-label': 'disk history' });
  const root = el('section', { className: 'cluster', 'aria-label': 'Cluster' },
    el('h2', {}, 'Node'), statusLine, probes, nodeLine,
    el('div', { className: 'meters' },
      el('div', {}, el('h3', {}, 'Memory'), memory, memCanvas),
      el('div', {}, el('h3', {}, 'Disk (data directory)'), disk, diskCanvas)));
  const mem: number[] = [];
  const dsk: number[] = [];
  let timer = 0;
  let lastCpu: NodeInfo | null = null;

  const probe = async (path: string): Promise<string> => {
    try {
      const r = await fetch(path);
      return r.ok ? 'up' : `${r.status}`;
    } catch {
      return 'unreachable';
    }
  };

  const tick = async (): Promise<void> => {
    const [live, ready] = await Promise.all([probe('/api/status/liveness'), probe('/api/status/readiness')]);
    probes.textContent = `liveness: ${live} · readiness: ${ready}`;
    try {
      const c = await apiJson<Cluster>('/api/cluster');
      statusLine.textContent = `status: ${c.status} · nodes: ${c.nodes.join(', ')}`;
      memory.textContent = `${gib(c.memoryUsed)} of ${gib(c.memoryTotal)} (${percent(c.memoryUsed, c.memoryTotal)})`;
      disk.textContent = `${gib(c.diskUsed)} of ${gib(c.diskTotal)} (${percent(c.diskUsed, c.diskTotal)})`;
      mem.push(c.memoryUsed); dsk.push(c.diskUsed);
      if (mem.length > HISTORY) mem.shift();
      if (dsk.length > HISTORY) dsk.shift();
      sparkline(memCanvas, mem);
      sparkline(diskCanvas, dsk);
      const id = c.nodes[0];
      if (id !== undefined) {
        const n = await apiJson<NodeInfo>(`/api/nodes/${encodeURIComponent(id)}`).catch(() => null);
        if (n !== null) {
          // cpuUsed/cpuTotal are cumulative: the share since the last refresh is the live figure.
          const busy = lastCpu === null || n.cpuTotal === lastCpu.cpuTotal ? null : (n.cpuUsed - lastCpu.cpuUsed) / (n.cpuTotal - lastCpu.cpuTotal);
          nodeLine.textContent = `${n.os} · svc ${n.svcVersion}${busy === null ? '' : ` · CPU ${(busy * 100).toFixed(0)}%`}`;
          lastCpu = n;
        }
      }
    } catch (e) {
      statusLine.textContent = `/api/cluster is not available on this server (${(e as Error).message}); liveness and readiness shown.`;
      const p = await api('/api/option/parallelism').then((r) => r.text()).catch(() => '?');
      memory.textContent = `parallelism: ${p}`;
      disk.textContent = '';
    }
  };

  return {
    root,
    start() {
      if (timer !== 0) return;
      void tick();
      timer = window.setInterval(() => void tick(), REFRESH_MS);
    },
    stop() {
      clearInterval(timer);
      timer = 0;
    },
  };
}
