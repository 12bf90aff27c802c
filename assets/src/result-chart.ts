// The line chart of a result with row times (chart-data.ts builds what it draws): uPlot, x in
// seconds, one series per numeric column per group, booleans as steps, nulls as gaps. The axis and
// the legend follow the page's clock with ISO-like 24-hour labels (UTC by default: uPlot's own
// ticks are local-time, so UTC gets its own ticks). A click on a legend entry hides or shows its
// series. Dragging across the plot asks for that time range (`onZoom`: the query runs again over
// it), a double click for the one before (`onZoomOut`).
import uPlot from 'uplot';
import type { AlignedData, Axis, Options } from 'uplot';
import { clockText, dateText, fieldsAt, zoneLabel } from './clock.js';
import type { ClockMode } from './clock.js';
import type { ChartData } from './chart-data.js';

const stepped = uPlot.paths.stepped!({ align: 1 });

const PALETTE = ['#2f7ed8', '#e4572e', '#29a36a', '#a05cc5', '#f2a900', '#17becf', '#d62780', '#7f7f7f'];

/** The colour of series i: the palette, then hues spread by the golden angle. */
export function seriesColor(i: number): string {
  return i < PALETTE.length ? PALETTE[i]! : `hsl(${Math.round((i * 137.508) % 360)} 65% 48%)`;
}

export interface ChartHandle {
  readonly plot: uPlot;
  /** The chart as a PNG (plot, axes and the legend's names), on the page's background. */
  png(): Promise<Blob>;
  destroy(): void;
}

export interface ChartView {
  readonly clock: ClockMode;
  /** The x range to show in ms (the query's time range), or null for the data's span. */
  readonly range: { readonly from: number; readonly to: number } | null;
  onDrawn(): void;
  onZoom(from: number, to: number): void;
  onZoomOut(): void;
}

/** Up to this many series, sparse ones get uPlot's point marks. */
const MARKED_SERIES = 8;
const MINUTE = 60;
const DAY = 86_400;

/** Tick positions (seconds) at whole UTC units: uPlot's own follow the browser's zone. */
function utcSplits(_u: uPlot, _axis: number, min: number, max: number, incr: number): number[] {
  const out: number[] = [];
  if (incr < 28 * DAY) {
    for (let t = Math.ceil(min / incr) * incr; t <= max; t = Math.round((t + incr) * 1000) / 1000) out.push(t);
    return out;
  }
  const d = new Date(min * 1000);
  const isYears = incr >= 365 * DAY;
  const step = Math.max(1, Math.round(incr / (isYears ? 365 * DAY : 30 * DAY)));
  let y = d.getUTCFullYear();
  let m = isYears ? 0 : d.getUTCMonth();
  for (let i = 0; i < 10_000; i++) {
    const t = Date.UTC(y, m, 1) / 1000;
    if (t > max) break;
    if (t >= min && (isYears ? y % step === 0 : m % step === 0)) out.push(t);
    if (isYears) y++; else if (++m === 12) { m = 0; y++; }
  }
  return out;
}

/** Tick labels: 24-hour times with the date on the first tick and where the day changes. */
function timeLabels(mode: ClockMode, host: HTMLElement) {
  return (_u: uPlot, splits: number[], _axis: number, _space: number, incr: number): string[] => {
    let previousDate = '';
    const labels = splits.map((s, i) => {
      const f = fieldsAt(s * 1000, mode);
      const date = dateText(f);
      const isNewDate = date !== previousDate;
      const isNewYear = i === 0 || date.slice(0, 4) !== previousDate.slice(0, 4);
      previousDate = date;
      if (incr >= 365 * DAY) return String(f.year);
      if (incr >= 28 * DAY) return date.slice(0, 7);
      if (incr >= DAY) return isNewYear ? date : date.slice(5);
      const time = clockText(f, incr >= MINUTE ? 'minute' : incr >= 1 ? 'second' : 'ms');
      return isNewDate ? `${time}\n${date}` : time;
    });
    // The labels drawn, for people's tools and tests (the axis itself is canvas).
    host.dataset['xTicks'] = labels.map((l) => l.replace('\n', ' ')).join('|');
    return labels;
  };
}

/** The legend's time: date and 24-hour time, milliseconds when the value has some. */
function legendTime(mode: ClockMode) {
  return (_u: uPlot, v: number | null): string => {
    if (v === null || v === undefined) return '—';
    const f = fieldsAt(v * 1000, mode);
    return `${dateText(f)} ${clockText(f, f.ms === 0 ? 'second' : 'ms')}`;
  };
}

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

export function renderChart(host: HTMLElement, chart: ChartData, view: ChartView): ChartHandle {
  host.replaceChildren();
  const series: uPlot.Series[] = [
    { label: zoneLabel(view.clock), value: legendTime(view.clock) },
    ...chart.series.map((s, i): uPlot.Series => ({
      label: s.label, stroke: seriesColor(i), width: 1.5, spanGaps: false, paths: s.isStep ? stepped : undefined,
      // uPlot marks the points of a sparse series; over many series the marks hide the lines.
      ...(chart.series.length > MARKED_SERIES ? { points: { show: false } } : {}),
    })),
  ];
  const grid = cssVar('--grid', '#ddd');
  const axis: Axis = { stroke: cssVar('--fg-muted', '#666'), grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
  const range = view.range;
  const opts: Options = {
    width: Math.max(300, host.clientWidth),
    height: Math.max(180, Math.min(320, host.clientHeight || 260)),
    series,
    scales: { x: { time: true, ...(range === null ? {} : { range: () => [range.from / 1000, range.to / 1000] as uPlot.Range.MinMax }) } },
    axes: [
      { ...axis, splits: view.clock === 'utc' ? utcSplits : undefined, values: timeLabels(view.clock, host), space: 60 },
      // The y axis grows with its longest label (uPlot's default width clips "100,000").
      { ...axis, size: (_u, values) => Math.max(40, 12 + 7.5 * Math.max(0, ...(values ?? []).map((v) => String(v).length))) },
    ],
    cursor: {
      drag: { x: true, y: false, setScale: false },
      bind: { dblclick: () => () => { view.onZoomOut(); return null; } },
    },
    legend: { live: true },
    hooks: {
      draw: [() => view.onDrawn()],
      setSelect: [(u) => {
        const { left, width } = u.select;
        if (width > 2) view.onZoom(u.posToVal(left, 'x') * 1000, u.posToVal(left + width, 'x') * 1000);
        u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
      }],
      // The visible x range, on the host, for people's tools and for tests.
      setScale: [(u, key) => { if (key === 'x') host.dataset['xRange'] = `${u.scales.x!.min}..${u.scales.x!.max}`; }],
    },
  };
  const plot = new uPlot(opts, chart.data as unknown as AlignedData, host);
  const observer = new ResizeObserver(() => {
    const w = Math.max(300, host.clientWidth);
    if (Math.abs(w - plot.width) > 2) plot.setSize({ width: w, height: plot.height });
  });
  observer.observe(host);
  return {
    plot,
    png: () => chartPng(plot, chart),
    destroy: () => { observer.disconnect(); plot.destroy(); },
  };
}

/** The plot's canvas on the page's background, the visible series' names and colours below it. */
function chartPng(plot: uPlot, chart: ChartData): Promise<Blob> {
  const source = plot.ctx.canvas;
  const scale = source.width / plot.width;
  const font = 12 * scale;
  const shown = chart.series.map((s, i) => ({ label: s.label, color: seriesColor(i), isShown: plot.series[i + 1]?.show !== false })).filter((s) => s.isShown);
  const measure = document.createElement('canvas').getContext('2d')!;
  measure.font = `${font}px system-ui, sans-serif`;
  // Legend entries flow in rows under the plot.
  const pad = 8 * scale;
  const rows: { x: number; label: string; color: string }[][] = [[]];
  let x = pad;
  for (const s of shown) {
    const w = 2 * font + measure.measureText(s.label).width + pad;
    if (x + w > source.width && rows[rows.length - 1]!.length > 0) { rows.push([]); x = pad; }
    rows[rows.length - 1]!.push({ x, label: s.label, color: s.color });
    x += w;
  }
  const lineHeight = font * 1.6;
  const out = document.createElement('canvas');
  out.width = source.width;
  out.height = source.height + pad + rows.length * lineHeight;
  const ctx = out.getContext('2d')!;
  ctx.fillStyle = cssVar('--bg', '#ffffff');
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(source, 0, 0);
  ctx.font = measure.font;
  ctx.textBaseline = 'middle';
  rows.forEach((row, r) => {
    const y = source.height + pad + r * lineHeight + lineHeight / 2;
    for (const e of row) {
      ctx.fillStyle = e.color;
      ctx.fillRect(e.x, y - font / 2, font, font);
      ctx.fillStyle = cssVar('--fg', '#000000');
      ctx.fillText(e.label, e.x + 1.5 * font, y);
    }
  });
  return new Promise((resolve, reject) => out.toBlob((b) => (b === null ? reject(new Error('the browser made no PNG')) : resolve(b)), 'image/png'));
}
