// The line chart of a result with row times: one uPlot series per numeric column and per source
// table, x in seconds (uPlot's time scale), booleans as steps. Dragging across the plot zooms in, a double click
// zooms out; the legend shows each series' value under the cursor. Several tables are put on one
// x axis with uPlot.join (each keeps its own points, gaps elsewhere).
import uPlot from 'uplot';
import type { AlignedData, Options } from 'uplot';
import type { ResultTable } from './result.js';

const stepped = uPlot.paths.stepped!({ align: 1 });

const PALETTE = ['#2f7ed8', '#e4572e', '#29a36a', '#a05cc5', '#f2a900', '#17becf', '#d62780', '#7f7f7f'];

export interface ChartHandle {
  readonly plot: uPlot;
  readonly seriesCount: number;
  destroy(): void;
}

/** Seconds as uPlot wants them, from milliseconds (NaN stays NaN: a gap). */
function seconds(ms: Float64Array): Float64Array {
  const out = new Float64Array(ms.length);
  for (let i = 0; i < ms.length; i++) out[i] = ms[i]! / 1000;
  return out;
}

/** True when the result can be drawn: some table has row times and a numeric column. */
export function isChartable(tables: readonly ResultTable[]): boolean {
  return tables.some((t) => t.time !== null && t.rowCount > 0 && t.columns.some((c) => c.numbers !== null));
}

export function renderChart(host: HTMLElement, tables: readonly ResultTable[], onDrawn: () => void): ChartHandle | null {
  host.replaceChildren();
  const drawable = tables.filter((t) => t.time !== null && t.rowCount > 0 && t.columns.some((c) => c.numbers !== null));
  if (drawable.length === 0) return null;
  const series: uPlot.Series[] = [{ label: 'time' }];
  const parts: AlignedData[] = [];
  for (const t of drawable) {
    const ys = t.columns.filter((c) => c.numbers !== null);
    parts.push([seconds(t.time!), ...ys.map((c) => c.numbers!)] as unknown as AlignedData);
    for (const c of ys) {
      const color = PALETTE[(series.length - 1) % PALETTE.length]!;
      // A boolean holds its value until the next row: drawn as steps, not slopes between 0 and 1.
      const paths = c.type === 'boolean' ? stepped : undefined;
      series.push({ label: drawable.length > 1 ? `${t.name}: ${c.name}` : c.name, stroke: color, width: 1.5, spanGaps: true, points: { show: false }, paths });
    }
  }
  const data = parts.length === 1 ? parts[0]! : uPlot.join(parts);
  const style = getComputedStyle(document.documentElement);
  const axis = { stroke: style.getPropertyValue('--fg-muted').trim() || '#666', grid: { stroke: style.getPropertyValue('--grid').trim() || '#ddd', width: 1 }, ticks: { stroke: style.getPropertyValue('--grid').trim() || '#ddd' } };
  const width = Math.max(300, host.clientWidth);
  const opts: Options = {
    width,
    height: Math.max(180, Math.min(320, host.clientHeight || 260)),
    series,
    scales: { x: { time: true } },
    // The y axis grows with its longest label (uPlot's default width clips "100,000").
    axes: [axis, { ...axis, size: (_u, values) => Math.max(40, 12 + 7.5 * Math.max(0, ...(values ?? []).map((v) => String(v).length))) }],
    cursor: { drag: { x: true, y: false, setScale: true } },
    legend: { live: true },
    hooks: {
      draw: [() => onDrawn()],
      // The visible x range, on the host, for people's tools and for tests (zoom changes it).
      setScale: [(u, key) => { if (key === 'x') host.dataset['xRange'] = `${u.scales.x!.min}..${u.scales.x!.max}`; }],
    },
  };
  const plot = new uPlot(opts, data, host);
  const observer = new ResizeObserver(() => {
    const w = Math.max(300, host.clientWidth);
    if (Math.abs(w - plot.width) > 2) plot.setSize({ width: w, height: plot.height });
  });
  observer.observe(host);
  return { plot, seriesCount: series.length - 1, destroy: () => { observer.disconnect(); plot.destroy(); } };
}
