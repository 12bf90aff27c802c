// The console's view in the page's URL, so a reload restores it and a link shares it: the query,
// the time range and the refresh interval, in the fragment (`#q=…&range=1h&refresh=10s`), which
// never reaches the server (a long query makes no long request line).
import { decodeRange, encodeRange } from './time-range.js';
import type { TimeRange } from './time-range.js';

export interface ViewState {
  readonly query: string;
  readonly range: TimeRange;
  /** Seconds between refreshes; 0 = off. */
  readonly refresh: number;
}

/** The view the URL names, or null when it names none. */
export function readViewState(hash: string = location.hash): ViewState | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const query = params.get('q');
  if (query === null || query.trim() === '') return null;
  const refresh = Number(params.get('refresh')?.replace(/s$/, '') ?? 0);
  return { query, range: decodeRange(params.get('range')), refresh: Number.isFinite(refresh) && refresh > 0 ? refresh : 0 };
}

export function viewStateHash(state: ViewState): string {
  const params = new URLSearchParams({ q: state.query });
  const range = encodeRange(state.range);
  if (range !== '') params.set('range', range);
  if (state.refresh > 0) params.set('refresh', `${state.refresh}s`);
  return `#${params.toString()}`;
}

/** Puts the view in the URL without a new history entry (each run would add one). */
export function writeViewState(state: ViewState): void {
  const hash = viewStateHash(state);
  if (hash !== location.hash) history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
}
