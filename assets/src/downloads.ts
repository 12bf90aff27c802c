// The console's Download menu: the result table as CSV and the chart as PNG (made in the page),
// and CSV or Parquet of the query's whole result through the server's /api/export (SPEC §16:
// streamed, any size). A server without /api/export answers 404: those two entries are then
// disabled and say why.
import { token } from './api.js';
import { el } from './dom.js';

export interface DownloadSources {
  /** The table's rows as CSV, or null without a result. */
  csv(): Blob | null;
  /** The chart as PNG, or null without a chart. */
  png(): Promise<Blob> | null;
  hasChart(): boolean;
  /** The query the last run sent (range and added columns in), or null. */
  query(): string | null;
  /** A file name without extension for this result. */
  baseName(): string;
}

export interface DownloadMenu {
  readonly root: HTMLElement;
  /** Enables what the current result allows. */
  update(): void;
}

/** Follows a link as a download (a temporary `<a download>`). */
function download(href: string, fileName: string): void {
  const a = el('a', { href, download: fileName, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
}

/** Saves a blob as a file. */
function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  download(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The export URL of a query (the token in the URL: a plain link cannot send a header). */
function exportUrl(query: string, format: 'csv' | 'parquet'): string {
  const t = token();
  return `/api/export?${new URLSearchParams({ query, format, ...(t === null ? {} : { token: t }) }).toString()}`;
}

/**
 * Whether the server serves /api/export, asked once with HEAD for the query at hand: a server with
 * the route answers its headers (HEAD encodes no body), one without it answers 404.
 */
async function probeExport(query: string): Promise<boolean> {
  const t = token();
  try {
    const r = await fetch(`/api/export?${new URLSearchParams({ query, format: 'csv' }).toString()}`, { method: 'HEAD', headers: t === null ? {} : { Authorization: `Bearer ${t}` } });
    return r.status !== 404;
  } catch {
    return false;
  }
}

export function createDownloads(sources: DownloadSources): DownloadMenu {
  const csv = el('button', { type: 'button', id: 'download-csv', title: 'The rows of the table, exact values, times in the page’s clock' }, 'CSV of the table');
  const png = el('button', { type: 'button', id: 'download-png', title: 'The chart with its legend' }, 'PNG of the chart');
  const exportCsv = el('button', { type: 'button', id: 'export-csv' }, 'CSV, all rows (server)');
  const exportParquet = el('button', { type: 'button', id: 'export-parquet' }, 'Parquet, all rows (server)');
  const menu = el('details', { className: 'menu', id: 'downloads' }, el('summary', { title: 'Download the result' }, 'Download'),
    el('div', { className: 'menu-items' }, csv, png, exportCsv, exportParquet));
  let hasExport: boolean | null = null;
  let probe: Promise<void> | null = null;

  const close = (): void => { menu.open = false; };
  csv.addEventListener('click', () => {
    const blob = sources.csv();
    if (blob !== null) saveBlob(blob, `${sources.baseName()}.csv`);
    close();
  });
  png.addEventListener('click', () => {
    void sources.png()?.then((blob) => saveBlob(blob, `${sources.baseName()}.png`));
    close();
  });
  const exportAs = (format: 'csv' | 'parquet'): void => {
    const query = sources.query();
    if (query === null) return;
    download(exportUrl(query, format), `${sources.baseName()}.${format}`);
    close();
  };
  exportCsv.addEventListener('click', () => exportAs('csv'));
  exportParquet.addEventListener('click', () => exportAs('parquet'));

  const update = (): void => {
    const noQuery = sources.query() === null;
    csv.disabled = noQuery;
    png.disabled = !sources.hasChart();
    for (const b of [exportCsv, exportParquet]) {
      b.disabled = hasExport !== true || noQuery;
      b.title = hasExport === false
        ? 'This server has no /api/export (it answered 404): export of any size needs a newer svc_rest. “CSV of the table” saves the rows shown here.'
        : 'The whole result of the query, streamed by the server (GET /api/export), whatever its size';
    }
  };
  menu.addEventListener('toggle', () => {
    const query = sources.query();
    if (menu.open && probe === null && query !== null) probe = probeExport(query).then((ok) => { hasExport = ok; update(); });
    update();
  });
  return { root: menu, update };
}
