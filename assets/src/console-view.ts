// The query console: the editor, Run (Ctrl+Enter), history, help (clauses and functions with
// examples), the answer's figures (query time, scanned rows, rows, bytes), the error with its
// position marked, and the result as a chart
// (when rows have times) above a virtualized table. Results come as Arrow IPC by default; JSON
// is kept as a choice, for comparison (the bench drives both).
import { api, ApiError } from './api.js';
import { createEditor } from './editor.js';
import type { QueryEditor } from './editor.js';
import type { Schema } from './query-language.js';
import { readArrow, readJson } from './result.js';
import type { QueryOutcome } from './result.js';
import { isChartable, renderChart } from './result-chart.js';
import type { ChartHandle } from './result-chart.js';
import { renderGrid } from './result-grid.js';
import { el } from './dom.js';
import { createHelp } from './help.js';

const HISTORY_KEY = 'svc.history';
const HISTORY_MAX = 50;
const ARROW = 'application/vnd.apache.arrow.stream';

/** What the last run did, for people (the status line) and for tests and the bench (window). */
export interface RunRecord {
  readonly id: number;
  readonly format: 'arrow' | 'json';
  readonly ok: boolean;
  /** Ctrl+Enter (or Run) to the answer read, and to the chart drawn (null: no chart). */
  readonly readMs: number;
  drawnMs: number | null;
  readonly rows: number;
  seriesCount: number;
}

declare global {
  interface Window { svcLastRun?: RunRecord }
}

export interface ConsoleView {
  readonly root: HTMLElement;
  readonly editor: QueryEditor;
  /** Puts a query in the editor and runs it. */
  open(query: string): void;
}

function loadHistory(): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(HISTORY_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((q): q is string => typeof q === 'string') : [];
  } catch {
    return [];
  }
}

function formatBytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1048576).toFixed(1)} MiB`;
}

export function createConsole(schema: Schema): ConsoleView {
  const runButton = el('button', { className: 'primary', type: 'button', title: 'Run (Ctrl+Enter)' }, 'Run');
  const format = el('select', { id: 'result-format', title: 'Result format' },
    el('option', { value: 'arrow' }, 'Arrow IPC'), el('option', { value: 'json' }, 'JSON'));
  const historySelect = el('select', { id: 'history', title: 'History' });
  const status = el('div', { className: 'run-status', role: 'status', 'aria-live': 'polite' });
  const errorBox = el('div', { className: 'run-error', role: 'alert', hidden: true });
  const chartHost = el('div', { className: 'chart', hidden: true });
  const gridHost = el('div', { className: 'grid-host' });
  const editorHost = el('div', { className: 'editor' });
  const helpButton = el('button', { type: 'button', id: 'help-toggle', title: 'Clauses and functions, with examples', 'aria-expanded': 'false' }, 'Help');
  const help = createHelp((query) => {
    editor.setText(query);
    editor.view.focus();
  });
  helpButton.addEventListener('click', () => {
    help.hidden = !help.hidden;
    helpButton.setAttribute('aria-expanded', String(!help.hidden));
  });
  const root = el('section', { className: 'console', 'aria-label': 'Query console' },
    editorHost,
    el('div', { className: 'toolbar' }, runButton, el('label', {}, 'Format ', format), el('label', {}, 'History ', historySelect), helpButton, status),
    help, errorBox, chartHost, gridHost);

  let history = loadHistory();
  const fillHistory = (): void => {
    historySelect.replaceChildren(el('option', { value: '' }, history.length === 0 ? '(empty)' : `${history.length} queries`),
      ...history.map((q, i) => el('option', { value: String(i) }, q.length > 80 ? `${q.slice(0, 80)}…` : q)));
  };
  fillHistory();
  historySelect.addEventListener('change', () => {
    const q = history[Number(historySelect.value)];
    if (historySelect.value !== '' && q !== undefined) editor.setText(q);
    historySelect.value = '';
    editor.view.focus();
  });

  let chart: ChartHandle | null = null;
  let runId = 0;
  let controller: AbortController | null = null;

  const run = async (): Promise<void> => {
    const started = performance.now();
    const query = editor.text().trim();
    if (query === '') return;
    const id = ++runId;
    controller?.abort();
    controller = new AbortController();
    const fmt = format.value === 'json' ? 'json' : 'arrow';
    history = [query, ...history.filter((q) => q !== query)].slice(0, HISTORY_MAX);
    localStorage.setItem(HISTORY_KEY, JSON.stringify(history));
    fillHistory();
    editor.clearError();
    errorBox.hidden = true;
    status.textContent = 'Running…';
    runButton.disabled = true;
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
      if ((e as Error).name === 'AbortError') return;
      const body = e instanceof ApiError ? e.body : { code: 0, message: (e as Error).message };
      status.textContent = `Failed after ${(performance.now() - started).toFixed(0)} ms`;
      // A failed run leaves no stale answer on screen next to its error.
      chart?.destroy();
      chart = null;
      chartHost.hidden = true;
      gridHost.replaceChildren();
      errorBox.hidden = false;
      errorBox.textContent = `${body.error ?? 'Error'}: ${body.message}`;
      if (typeof body.position === 'number') {
        errorBox.dataset['position'] = String(body.position);
        editor.markError(body.position);
      } else {
        delete errorBox.dataset['position'];
      }
      window.svcLastRun = { id, format: fmt, ok: false, readMs: performance.now() - started, drawnMs: null, rows: 0, seriesCount: 0 };
      return;
    }
    if (id !== runId) return;
    runButton.disabled = false;
    const readMs = performance.now() - started;
    const rows = outcome.tables.reduce((n, t) => n + t.rowCount, 0);
    status.textContent = [
      `${readMs.toFixed(0)} ms`,
      `${outcome.scannedRows?.toLocaleString('en') ?? '?'} scanned`,
      `${rows.toLocaleString('en')} rows in ${outcome.tables.length} table${outcome.tables.length === 1 ? '' : 's'}`,
      formatBytes(outcome.bytes),
      fmt === 'arrow' ? 'Arrow' : 'JSON',
    ].join(' · ');
    chart?.destroy();
    chart = null;
    const record: RunRecord = { id, format: fmt, ok: true, readMs, drawnMs: null, rows, seriesCount: 0 };
    window.svcLastRun = record;
    if (isChartable(outcome.tables)) {
      chartHost.hidden = false;
      let first = true;
      chart = renderChart(chartHost, outcome.tables, () => {
        if (!first) return;
        first = false;
        record.drawnMs = performance.now() - started;
        chartHost.dataset['drawn'] = String(id);
      });
      if (chart !== null) record.seriesCount = chart.seriesCount;
    } else {
      chartHost.hidden = true;
      chartHost.replaceChildren();
    }
    renderGrid(gridHost, outcome.tables);
    root.dataset['run'] = String(id);
  };

  const editor = createEditor(editorHost, schema, () => void run());
  runButton.addEventListener('click', () => void run());
  return {
    root,
    editor,
    open(query) {
      editor.setText(query);
      void run();
    },
  };
}
