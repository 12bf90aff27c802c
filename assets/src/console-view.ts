// The query console: the tables beside the editor, Run (Ctrl+Enter), the time range the query
// follows (written into its IN RANGE clause at each run, so the editor shows exactly what is
// sent), auto-refresh, the UTC/local clock, history and saved queries, help with examples on the
// person's tables, downloads, the answer's figures, the error with its position marked, and the
// result as a chart (a series per numeric column and group) above a sortable virtualized table.
// The query, range and refresh live in the URL: a reload or a shared link shows the same view.
import { api, ApiError, queryExp } from './api.js';
import { clockMode, onClockChange, setClockMode, zoneLabel } from './clock.js';
import type { ClockMode } from './clock.js';
import { chartData, DEFAULT_CHART_OPTIONS } from './chart-data.js';
import type { ChartData } from './chart-data.js';
import { createDownloads } from './downloads.js';
import { createEditor } from './editor.js';
import type { QueryEditor } from './editor.js';
import { el } from './dom.js';
import { createHelp } from './help.js';
import { pickExampleTables } from './help-examples.js';
import type { ExampleData } from './help-examples.js';
import { createAutoRefresh } from './auto-refresh.js';
import type { Schema } from './query-language.js';
import { quoteName, rangeEdit, rangeText, selectShape, withGroupColumns } from './query-text.js';
import { createRangePicker } from './range-picker.js';
import { readArrow, readJson } from './result.js';
import type { QueryOutcome } from './result.js';
import { renderChart } from './result-chart.js';
import type { ChartHandle } from './result-chart.js';
import { renderGrid } from './result-grid.js';
import type { GridHandle } from './result-grid.js';
import { ResultRows } from './result-rows.js';
import { createQueryPickers } from './saved-queries.js';
import { createSettings } from './settings-menu.js';
import { createTableList } from './table-list.js';
import { bounds, decodeRange, encodeRange, QUERY_RANGE, rangeClause } from './time-range.js';
import type { TimeRange } from './time-range.js';
import { readViewState, writeViewState } from './view-state.js';

const ARROW = 'application/vnd.apache.arrow.stream';

/** What the last run did, for people (the status line) and for tests and the bench (window). */
export interface RunRecord {
  readonly id: number;
  readonly format: 'arrow' | 'json';
  readonly ok: boolean;
  /** The query text sent (with the picker's range and any GROUP BY columns added). */
  readonly query: string;
  /** Ctrl+Enter (or Run) to the answer read, and to the chart drawn (null: no chart). */
  readonly readMs: number;
  drawnMs: number | null;
  readonly rows: number;
  /** Series drawn, and series the result has (more when capped). */
  seriesCount: number;
  totalSeries: number;
}

declare global {
  interface Window { svcLastRun?: RunRecord }
}

export interface ConsoleView {
  readonly root: HTMLElement;
  readonly editor: QueryEditor;
  /** Puts a query in the editor (its own range) and runs it. */
  open(query: string): void;
  /** The view the URL names, if any, shown and run; false when the URL names none. */
  restoreFromUrl(): boolean;
  /** The catalog changed (tables, columns): table list, completion and help follow. */
  schemaChanged(): void;
}

function formatBytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1048576).toFixed(1)} MiB`;
}

/** A dragged span as a range: whole seconds unless it is shorter than a minute. */
function zoomRange(from: number, to: number): TimeRange {
  const unit = to - from >= 60_000 ? 1000 : 1;
  return { kind: 'between', from: Math.floor(from / unit) * unit, to: Math.ceil(to / unit) * unit };
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

export function createConsole(schema: Schema): ConsoleView {
  const runButton = el('button', { className: 'primary', type: 'button', id: 'run', title: 'Run (Ctrl+Enter)' }, 'Run');
  const status = el('div', { className: 'run-status', role: 'status', 'aria-live': 'polite' });
  const errorBox = el('div', { className: 'run-error', role: 'alert', hidden: true });
  const chartNote = el('p', { className: 'chart-note muted', hidden: true });
  const chartHost = el('div', { className: 'chart', hidden: true });
  const gridHost = el('div', { className: 'grid-host' });
  const editorHost = el('div', { className: 'editor' });
  const helpButton = el('button', { type: 'button', id: 'help-toggle', title: 'Clauses and functions, with examples on your tables', 'aria-expanded': 'false' }, 'Help');
  const utcButton = el('button', { type: 'button', id: 'clock-utc', title: 'Show times in UTC (the database’s zone)' }, 'UTC');
  const localButton = el('button', { type: 'button', id: 'clock-local', title: `Show times in this browser’s zone: ${zoneLabel('local')}` }, 'Local');
  const clockSwitch = el('span', { className: 'segmented', role: 'group', 'aria-label': 'Clock' }, utcButton, localButton);
  const settings = createSettings();

  let runId = 0;
  let controller: AbortController | null = null;
  let isRunning = false;
  /** The editor's text as the last run left it (a refresh waits while the person changes it). */
  let lastRunText: string | null = null;
  /** The range clause the picker wrote last: a different one in the editor is the person's own. */
  let writtenClause: string | null = null;
  /**
   * The last answer shown; `bounds` is the picker's range the query was sent with (the chart's x
   * axis spans it, so a FILL before the data shows as such), null when it ran on its own range.
   */
  let last: { query: string; outcome: QueryOutcome; rows: ResultRows; chart: ChartData | null; bounds: { from: number; to: number } | null } | null = null;
  let chart: ChartHandle | null = null;
  let grid: GridHandle | null = null;

  const help = createHelp((query) => load(query, null, /^\s*select\b/i.test(query)), (query) => load(query, null, false));
  const picker = createRangePicker(() => { writtenClause = null; void run(); });
  const refresh = createAutoRefresh({
    waitReason: () => (root.hidden ? 'the console is not shown' : isRunning ? 'a run is still going' : lastRunText !== null && editor.text() !== lastRunText ? 'the query is being edited' : null),
    refresh: () => void run(),
    onChange: () => saveView(),
  });
  const pickers = createQueryPickers((query, range) => load(query, range === null ? null : decodeRange(range), true), () => ({ query: editor.text(), range: encodeRange(picker.range) }));
  const downloads = createDownloads({
    csv: () => last?.rows.csv() ?? null,
    png: () => chart?.png() ?? null,
    hasChart: () => chart !== null,
    query: () => last?.query ?? null,
    baseName: () => `svc-${(last?.outcome.tables[0]?.name || 'result').replace(/[^\w.-]+/g, '_')}-${new Date().toISOString().slice(0, 19).replace(/[:]/g, '')}`,
  });
  const tableList = createTableList(schema, (text) => editor.insertAtCursor(text));

  helpButton.addEventListener('click', () => {
    help.root.hidden = !help.root.hidden;
    helpButton.setAttribute('aria-expanded', String(!help.root.hidden));
    if (!help.root.hidden) void updateHelp();
  });
  const root = el('section', { className: 'console', 'aria-label': 'Query console' },
    el('div', { className: 'console-top' }, tableList.root,
      el('div', { className: 'console-main' }, editorHost,
        el('div', { className: 'toolbar' }, runButton, ...picker.controls, ...refresh.controls, el('span', { className: 'clock-label muted' }, 'Times'), clockSwitch,
          ...pickers.controls, helpButton, downloads.root, settings.root),
        status)),
    help.root, errorBox, chartNote, chartHost, gridHost);

  // ---- the clock: the chart, the table and the picker follow it together
  const showClock = (mode: ClockMode): void => {
    utcButton.setAttribute('aria-pressed', String(mode === 'utc'));
    localButton.setAttribute('aria-pressed', String(mode === 'local'));
    document.body.dataset['clock'] = mode;
  };
  showClock(clockMode());
  utcButton.addEventListener('click', () => setClockMode('utc'));
  localButton.addEventListener('click', () => setClockMode('local'));
  onClockChange((mode) => {
    showClock(mode);
    picker.redrawClock();
    if (last === null) return;
    last.rows.clock = mode;
    grid?.redraw();
    drawChart(last.chart, null);
  });

  // ---- help examples on the person's own tables
  let exampleData: ExampleData | null = null;
  const updateHelp = async (): Promise<void> => {
    const catalog = schema.tables.flatMap((name) => { const columns = schema.columns.get(name); return columns === undefined ? [] : [{ name, columns }]; });
    const picked = pickExampleTables(catalog);
    if (picked === null) { help.setData(null); return; }
    if (exampleData !== null && exampleData.table === picked.table && exampleData.other?.table === picked.other?.table) return;
    try {
      const answer = await queryExp(`SELECT max($timestamp) FROM ${quoteName(picked.table)}`);
      const lastTime = answer.tables[0]?.results[0]?.[1];
      if (typeof lastTime !== 'string') return;
      exampleData = { ...picked, lastMs: Date.parse(lastTime) };
      help.setData(exampleData);
    } catch {
      help.setData(null);
    }
  };

  // ---- the view in the URL
  const saveView = (): void => {
    if (editor.text().trim() === '') return;
    writeViewState({ query: editor.text(), range: picker.range, refresh: refresh.seconds });
  };

  /** A query from elsewhere (help, history, saved, browse, the URL): its range, and run. */
  const load = (query: string, range: TimeRange | null, runIt: boolean): void => {
    editor.setText(query);
    picker.set(range ?? QUERY_RANGE);
    writtenClause = null;
    if (runIt) void run();
    else editor.view.focus();
  };

  /**
   * The picker's range written into the editor's SELECT (replacing its range clause or added
   * after its sources), unless the person wrote their own clause since the picker's last one.
   * Returns the range's bounds when the query now carries it.
   */
  const applyRange = (now: number): { from: number; to: number } | null => {
    const clause = rangeClause(picker.range, now);
    if (clause === null) return null;
    const text = editor.text();
    const current = rangeText(text);
    if (writtenClause !== null && current !== null && current !== writtenClause) {
      // The person edited the clause: their range wins, the picker shows so.
      picker.set(QUERY_RANGE);
      writtenClause = null;
      return null;
    }
    const edit = rangeEdit(text, clause);
    if (edit === null) return null;
    editor.replace(edit.from, edit.to, edit.insert);
    writtenClause = clause;
    return bounds(picker.range, now);
  };

  const clearResult = (): void => {
    chart?.destroy();
    chart = null;
    chartHost.hidden = true;
    chartNote.hidden = true;
    gridHost.replaceChildren();
    grid = null;
    last = null;
  };

  const drawChart = (data: ChartData | null, onFirstDraw: (() => void) | null): void => {
    chart?.destroy();
    chart = null;
    if (data === null) { chartHost.hidden = true; chartHost.replaceChildren(); return; }
    chartHost.hidden = false;
    let isFirst = true;
    chart = renderChart(chartHost, data, {
      clock: clockMode(),
      range: last?.bounds ?? null,
      onDrawn: () => { if (isFirst) { isFirst = false; onFirstDraw?.(); } },
      onZoom: (from, to) => picker.zoomTo(zoomRange(from, to)),
      onZoomOut: () => { picker.zoomOut(); },
    });
  };

  const run = async (): Promise<void> => {
    const started = performance.now();
    if (editor.text().trim() === '') return;
    const sentBounds = applyRange(Date.now());
    const text = editor.text().trim();
    const { query, added, toText } = withGroupColumns(text);
    const id = ++runId;
    controller?.abort();
    controller = new AbortController();
    const fmt = settings.format();
    lastRunText = editor.text();
    pickers.remember(text);
    saveView();
    editor.clearError();
    errorBox.hidden = true;
    status.textContent = 'Running…';
    runButton.disabled = true;
    isRunning = true;
    let outcome: QueryOutcome;
    try {
      const res = await api('/query_exp', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(fmt === 'arrow' ? { Accept: ARROW } : {}) },
        body: JSON.stringify({ query, date_format: 'js' }),
        signal: controller.signal,
      });
      if (fmt === 'arrow') {
        const scanned = res.headers.get('X-Scanned-Rows-Count');
        outcome = readArrow(new Uint8Array(await res.arrayBuffer()), scanned === null ? null : Number(scanned));
      } else {
        outcome = readJson(await res.text());
      }
    } catch (e) {
      if (id !== runId) return;
      runButton.disabled = false;
      isRunning = false;
      if ((e as Error).name === 'AbortError') return;
      const body = e instanceof ApiError ? e.body : { code: 0, message: (e as Error).message };
      status.textContent = `Failed after ${(performance.now() - started).toFixed(0)} ms`;
      // A failed run leaves no stale answer on screen next to its error.
      clearResult();
      errorBox.hidden = false;
      errorBox.textContent = `${body.error ?? 'Error'}: ${body.message}`;
      // The position is in the query sent: columns the console put in front shift it.
      if (typeof body.position === 'number') {
        const position = toText(body.position);
        errorBox.dataset['position'] = String(position);
        editor.markError(position + (editor.text().length - editor.text().trimStart().length));
      } else {
        delete errorBox.dataset['position'];
      }
      window.svcLastRun = { id, format: fmt, ok: false, query, readMs: performance.now() - started, drawnMs: null, rows: 0, seriesCount: 0, totalSeries: 0 };
      return;
    }
    if (id !== runId) return;
    runButton.disabled = false;
    isRunning = false;
    const readMs = performance.now() - started;
    const rowCount = outcome.tables.reduce((n, t) => n + t.rowCount, 0);
    status.textContent = [
      `${readMs.toFixed(0)} ms`,
      `${outcome.scannedRows?.toLocaleString('en') ?? '?'} scanned`,
      `${plural(rowCount, 'row')} in ${plural(outcome.tables.length, 'table')}`,
      formatBytes(outcome.bytes),
      fmt === 'arrow' ? 'Arrow' : 'JSON',
    ].join(' · ');
    const record: RunRecord = { id, format: fmt, ok: true, query, readMs, drawnMs: null, rows: rowCount, seriesCount: 0, totalSeries: 0 };
    window.svcLastRun = record;
    const addedSet = new Set(added);
    const data = chartData(outcome.tables, { ...DEFAULT_CHART_OPTIONS, keyColumns: new Set(selectShape(text)?.groupColumns.map((c) => c.name)), gridPoints: Math.max(2048, 4 * chartHost.clientWidth) });
    const rows = new ResultRows(outcome.tables, clockMode());
    last = { query, outcome, rows, chart: data, bounds: sentBounds };
    record.seriesCount = data?.series.length ?? 0;
    record.totalSeries = data?.total ?? 0;
    drawChart(data, () => {
      record.drawnMs = performance.now() - started;
      chartHost.dataset['drawn'] = String(id);
    });
    const notes = [
      added.length > 0 ? `${added.join(', ')} added to the query's columns: one series per value.` : '',
      data !== null && data.total > data.series.length ? `Showing ${data.series.length} of ${data.total} series: those with the highest maximum. Narrow the query (WHERE …) to see others.` : '',
      data?.alignment === 'grid' ? 'The series have different times: each is drawn through its low and high value per step of a fine grid (the table has every value).' : '',
    ].filter((n) => n !== '');
    chartNote.textContent = notes.join(' ');
    chartNote.hidden = notes.length === 0;
    grid = renderGrid(gridHost, rows, { added: addedSet });
    downloads.update();
    root.dataset['run'] = String(id);
  };

  const editor = createEditor(editorHost, schema, () => void run());
  runButton.addEventListener('click', () => void run());
  return {
    root,
    editor,
    open: (query) => load(query, null, true),
    restoreFromUrl() {
      const state = readViewState();
      if (state === null) return false;
      refresh.set(state.refresh);
      load(state.query, state.range, true);
      return true;
    },
    schemaChanged() {
      tableList.refresh();
      if (!help.root.hidden) void updateHelp();
    },
  };
}
