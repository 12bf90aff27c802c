// Browsing the database: tables and materialized views (columns from SHOW, row counts, time
// bounds; a view's definition and how far its refresh is behind; a click opens the console on the
// last day), tags and the entries they hold, entries by prefix with paging, and a blob's preview
// (image, text, JSON pretty-printed, else a hex dump) with a download link.
import { aliasPath, api, apiJson, queryExp, token } from './api.js';
import { el } from './dom.js';
import type { Schema } from './query-language.js';
import { quoteName } from './query-text.js';

const PAGE = 50;
/** Tables whose figures the overview fetches (each costs a SHOW and a query). */
const OVERVIEW_MAX = 20;
const HEX_BYTES = 4096;

interface AliasPage { aliases: string[]; links: { next?: string } }
interface BlobInfo { alias: string; type: 'blob'; mime: string; size: number; expiry: number }

async function findAliases(query: string): Promise<string[]> {
  return (await apiJson<{ results: string[] }>(`/query_find?query=${encodeURIComponent(query)}`)).results;
}

/** The console's query for a table: its numeric columns averaged per hour over the last day. */
export function lastDayQuery(table: string, columns: { name: string; type: string }[]): string {
  const numeric = columns.filter((c) => c.type === 'DOUBLE' || c.type === 'INT64').map((c) => c.name);
  const selected = numeric.length > 0 ? numeric.map((c) => `avg(${quoteName(c)})`) : [`count(${quoteName(columns.find((c) => c.name !== '$timestamp')?.name ?? '$timestamp')})`];
  return `SELECT ${selected.join(', ')}\n  FROM ${quoteName(table)}\n  IN RANGE(now, -1d)\n  GROUP BY 1h`;
}

function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let o = 0; o < bytes.length; o += 16) {
    const row = bytes.subarray(o, o + 16);
    const hex = [...row].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = [...row].map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${o.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  ${ascii}`);
  }
  return lines.join('\n');
}

export interface BrowseView {
  readonly root: HTMLElement;
  refresh(): Promise<void>;
  showTag(tag: string): Promise<void>;
  showEntry(alias: string): Promise<void>;
}

/**
 * `onSchema` is called whenever the schema learned tables or columns (the console's table list,
 * completion and help examples read it).
 */
export function createBrowse(schema: Schema, openQuery: (query: string) => void, onSchema: () => void): BrowseView {
  const tablesList = el('div', { className: 'list', id: 'tables-list' });
  const overviewButton = el('button', { type: 'button', className: 'link', id: 'tables-overview-button', title: 'All tables at a glance' }, 'Tables');
  overviewButton.addEventListener('click', () => void showOverview(schema.tables));
  const tagsList = el('div', { className: 'list', id: 'tags-list' });
  const prefix = el('input', { type: 'search', id: 'prefix', placeholder: 'alias prefix', 'aria-label': 'Alias prefix' });
  const entriesList = el('div', { className: 'list', id: 'entries-list' });
  const prev = el('button', { type: 'button', disabled: true }, '‹ Previous');
  const next = el('button', { type: 'button', disabled: true }, 'Next ›');
  const pageInfo = el('span', { className: 'muted' });
  const detail = el('section', { className: 'detail', id: 'detail', 'aria-live': 'polite' });
  const root = el('section', { className: 'browse', 'aria-label': 'Browse' },
    el('div', { className: 'browse-lists' },
      el('h2', {}, overviewButton), tablesList,
      el('h2', {}, 'Tags'), tagsList,
      el('h2', {}, 'Entries'), prefix, entriesList, el('div', { className: 'pager' }, prev, pageInfo, next)),
    detail);

  let skip = 0;
  const loadEntries = async (): Promise<void> => {
    const page = await apiJson<AliasPage>(`/api/v1/entries?prefix=${encodeURIComponent(prefix.value)}&limit=${PAGE}&skip=${skip}`);
    entriesList.replaceChildren(...page.aliases.map((a) => item(a, () => void showEntry(a))));
    if (page.aliases.length === 0) entriesList.append(el('p', { className: 'muted' }, 'No entries.'));
    prev.disabled = skip === 0;
    next.disabled = page.links.next === undefined;
    pageInfo.textContent = page.aliases.length === 0 ? '' : `${skip + 1}–${skip + page.aliases.length}`;
  };
  let typing = 0;
  prefix.addEventListener('input', () => { clearTimeout(typing); typing = window.setTimeout(() => { skip = 0; void loadEntries(); }, 200); });
  prev.addEventListener('click', () => { skip = Math.max(0, skip - PAGE); void loadEntries(); });
  next.addEventListener('click', () => { skip += PAGE; void loadEntries(); });

  function item(label: string, onClick: () => void, extra?: string): HTMLElement {
    const b = el('button', { type: 'button', className: 'item', title: label }, label);
    if (extra !== undefined) b.append(el('span', { className: 'muted' }, ` ${extra}`));
    b.addEventListener('click', onClick);
    return b;
  }

  /** Every table at a glance; a click on a name opens the console on its last day. */
  async function showOverview(tables: string[]): Promise<void> {
    const body = el('tbody', {});
    detail.replaceChildren(el('h2', {}, 'Tables'), el('p', { className: 'muted' }, 'A click on a name opens the console on its last day.'),
      el('table', { className: 'kv', id: 'tables-overview' },
        el('thead', {}, el('tr', {}, ...['table', 'columns', 'rows', 'first', 'last'].map((h) => el('th', {}, h)))), body));
    for (const table of tables.slice(0, OVERVIEW_MAX)) {
      const open = el('button', { type: 'button', className: 'link' }, table);
      const cells = [el('td', {}), el('td', {}), el('td', {}), el('td', {})];
      body.append(el('tr', {}, el('td', {}, open), ...cells));
      let cols: { name: string; type: string }[] = [];
      open.addEventListener('click', () => void (cols.length > 0 ? Promise.resolve(cols) : tableColumns(table)).then((c) => openQuery(lastDayQuery(table, c))));
      void (async () => {
        cols = await tableColumns(table);
        cells[0]!.textContent = cols.filter((c) => c.name !== '$timestamp').map((c) => `${c.name} ${c.type}`).join(', ');
        const stats = await tableStats(table, cols);
        if (stats !== null) [cells[1]!.textContent, cells[2]!.textContent, cells[3]!.textContent] = stats;
      })().catch(() => undefined);
    }
  }

  /** [row count, first time, last time] of a table, counted on its first column. */
  async function tableStats(table: string, cols: { name: string; type: string }[]): Promise<[string, string, string] | null> {
    const first = cols.find((c) => c.name !== '$timestamp')?.name;
    if (first === undefined) return null;
    const stats = await queryExp(`SELECT count(${quoteName(first)}), min($timestamp), max($timestamp) FROM ${quoteName(table)}`);
    const r = stats.tables[0]?.results[0];
    return r === undefined ? ['0', '', ''] : [String(r[1]), String(r[2]), String(r[3])];
  }

  /**
   * The table's columns from SHOW, and its properties: SHOW's rows after the columns (`$ttl`,
   * `$tags`; for a view `$view`, its SELECT, and `$refresh`). A view is marked in the lists.
   */
  async function tableShow(table: string): Promise<{ cols: { name: string; type: string }[]; properties: { name: string; value: string }[] }> {
    const show = await queryExp(`SHOW ${quoteName(table)}`);
    const rows = (show.tables[0]?.results ?? []).map((r) => ({ name: String(r[1]), type: String(r[2]) }));
    const isColumn = (r: { name: string }) => r.name === '$timestamp' || !r.name.startsWith('$');
    const cols = rows.filter(isColumn);
    schema.columns.set(table, cols);
    const select = rows.find((r) => r.name === '$view')?.type;
    if (select !== undefined && !schema.views.has(table)) {
      schema.views.set(table, /\bFROM\s+("(?:[^"]|"")+"|\S+)/i.exec(select)?.[1] ?? '');
      tablesList.querySelector(`button.item[title="${CSS.escape(table)}"]`)?.append(el('span', { className: 'muted view-badge' }, ' view'));
    }
    onSchema();
    return { cols, properties: rows.filter((r) => !isColumn(r)).map((r) => ({ name: r.name.slice(1).toUpperCase(), value: r.type })) };
  }

  async function tableColumns(table: string): Promise<{ name: string; type: string }[]> {
    return (await tableShow(table)).cols;
  }

  async function showTable(table: string): Promise<void> {
    const { cols, properties } = await tableShow(table);
    const firstColumn = cols.find((c) => c.name !== '$timestamp')?.name;
    const body = el('div', {});
    detail.replaceChildren(el('h2', {}, table), body);
    const query = el('button', { type: 'button', className: 'primary' }, 'Query the last day');
    query.addEventListener('click', () => openQuery(lastDayQuery(table, cols)));
    body.append(query, el('table', { className: 'kv' },
      el('thead', {}, el('tr', {}, el('th', {}, 'column'), el('th', {}, 'type'))),
      el('tbody', {}, ...cols.map((c) => el('tr', {}, el('td', {}, c.name), el('td', {}, c.type))))));
    // TTL and tags (CREATE … WITH TAGS … TTL …, ALTER TABLE … SET TTL); a view's definition and refresh.
    for (const p of properties) {
      const label = p.name === 'VIEW' ? 'Materialized view, defined as' : p.name === 'REFRESH' ? 'Refresh' : p.name;
      body.append(el('p', { className: 'table-property' }, `${label}: `, p.name === 'VIEW' ? el('code', {}, p.value) : p.value));
    }
    if (firstColumn !== undefined) {
      try {
        const r = await tableStats(table, cols);
        body.append(el('p', { className: 'table-stats' }, r === null || r[0] === '0' ? 'No rows.' : `${r[0]} rows (non-null ${firstColumn}) from ${r[1]} to ${r[2]}`));
      } catch (e) {
        body.append(el('p', { className: 'muted' }, `Row count unavailable: ${(e as Error).message}`));
      }
    }
  }

  async function showTag(tag: string): Promise<void> {
    const page = await apiJson<AliasPage>(`/api/v1/tags/${aliasPath(tag)}/entries?limit=${PAGE}`);
    detail.replaceChildren(el('h2', {}, `Tag ${tag}`),
      el('div', { className: 'list', id: 'tag-entries' }, ...page.aliases.map((a) => item(a, () => void showEntry(a)))),
      page.links.next !== undefined ? el('p', { className: 'muted' }, `First ${PAGE} shown.`) : '');
  }

  async function showEntry(alias: string): Promise<void> {
    // /api/v1/entries/:alias redirects to the blob's or the tag's description; tables answer directly.
    const info = await apiJson<{ alias: string; type: string; mime?: string; size?: number; expiry?: number }>(`/api/v1/entries/${aliasPath(alias)}`);
    if (info.type === 'ts') return showTable(alias);
    if (info.type === 'tag') return showTag(alias);
    return showBlob(info as BlobInfo);
  }

  async function showBlob(info: BlobInfo): Promise<void> {
    const contentPath = `/api/v1/blobs/${aliasPath(info.alias)}/content`;
    const t = token();
    const download = el('a', { className: 'button', href: `${contentPath}?download${t === null ? '' : `&token=${encodeURIComponent(t)}`}`, download: info.alias.split('/').pop() ?? 'blob' }, 'Download');
    const preview = el('div', { className: 'preview', id: 'blob-preview' });
    detail.replaceChildren(el('h2', {}, info.alias),
      el('p', { className: 'muted' }, `${info.mime} · ${info.size.toLocaleString('en')} bytes${info.expiry > 0 ? ` · expires ${new Date(info.expiry * 1000).toISOString()}` : ''}`),
      download, preview);
    const bytes = new Uint8Array(await (await api(contentPath)).arrayBuffer());
    if (info.mime.startsWith('image/')) {
      const img = el('img', { alt: info.alias, src: URL.createObjectURL(new Blob([bytes], { type: info.mime })) });
      preview.dataset['kind'] = 'image';
      preview.append(img);
      return;
    }
    const text = info.mime.startsWith('text/') || info.mime === 'application/json' || info.mime.endsWith('xml') ? new TextDecoder().decode(bytes) : null;
    if (text !== null && info.mime === 'application/json') {
      let pretty = text;
      try { pretty = JSON.stringify(JSON.parse(text), null, 2); } catch { /* shown as it is */ }
      preview.dataset['kind'] = 'json';
      preview.append(el('pre', {}, pretty));
    } else if (text !== null) {
      preview.dataset['kind'] = 'text';
      preview.append(el('pre', {}, text));
    } else {
      preview.dataset['kind'] = 'hex';
      preview.append(el('pre', {}, hexDump(bytes.subarray(0, HEX_BYTES)) + (bytes.length > HEX_BYTES ? `\n… ${bytes.length - HEX_BYTES} more bytes` : '')));
    }
  }

  return {
    root,
    async refresh() {
      const [tables, tags] = await Promise.all([findAliases('find(type=ts)'), findAliases('find(type=tag)')]);
      schema.tables = tables;
      onSchema();
      tablesList.replaceChildren(...tables.map((t) => item(t, () => void showTable(t))));
      if (tables.length === 0) tablesList.append(el('p', { className: 'muted' }, 'No tables.'));
      tagsList.replaceChildren(...tags.map((t) => item(t, () => void showTag(t))));
      if (tags.length === 0) tagsList.append(el('p', { className: 'muted' }, 'No tags.'));
      await loadEntries();
      // The overview stays unless the person is looking at something else.
      if (detail.childElementCount === 0 || detail.querySelector('#tables-overview') !== null) await showOverview(tables);
      // Column names for completion, fetched quietly in the background.
      for (const t of tables.slice(OVERVIEW_MAX, 50)) void tableColumns(t).catch(() => undefined);
    },
    showTag,
    showEntry,
  };
}
