// The time range the console's query follows: the query's own (nothing added), the last N
// minutes/hours/days up to now, or fixed bounds (a custom pick or a zoom on the chart). Each run
// turns it into an `IN RANGE(…)` clause with absolute UTC times, so the text in the editor is
// exactly what the server receives and a refresh moves the window. In the URL it is `1h` or
// `2026-11-28T14:00:00Z..2026-11-28T15:00:00Z`.
export type TimeRange =
  | { readonly kind: 'query' }
  | { readonly kind: 'last'; readonly span: LastSpan }
  | { readonly kind: 'between'; readonly from: number; readonly to: number };

export type LastSpan = '15min' | '1h' | '6h' | '24h' | '7d';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const LAST_SPANS: readonly { readonly span: LastSpan; readonly label: string; readonly ms: number }[] = [
  { span: '15min', label: 'Last 15 minutes', ms: 15 * MINUTE },
  { span: '1h', label: 'Last hour', ms: HOUR },
  { span: '6h', label: 'Last 6 hours', ms: 6 * HOUR },
  { span: '24h', label: 'Last 24 hours', ms: 24 * HOUR },
  { span: '7d', label: 'Last 7 days', ms: 7 * 24 * HOUR },
];

export const QUERY_RANGE: TimeRange = { kind: 'query' };

/** [from, to) in ms for a range at `now`, or null for the query's own. */
export function bounds(range: TimeRange, now: number): { from: number; to: number } | null {
  if (range.kind === 'query') return null;
  if (range.kind === 'between') return { from: range.from, to: range.to };
  const span = LAST_SPANS.find((s) => s.span === range.span)!;
  // The window ends at the next whole second: the clause stays short and holds `now`.
  const to = Math.floor(now / 1000) * 1000 + 1000;
  return { from: to - span.ms, to };
}

/** An instant as a query time literal: ISO in UTC, milliseconds only when there are some. */
export function timeLiteral(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** The clause a run puts in its SELECT, or null for the query's own range. */
export function rangeClause(range: TimeRange, now: number): string | null {
  const b = bounds(range, now);
  if (b === null) return null;
  return range.kind === 'last' ? `IN RANGE(${timeLiteral(b.from)}, +${range.span})` : `IN RANGE(${timeLiteral(b.from)}, ${timeLiteral(b.to)})`;
}

export function encodeRange(range: TimeRange): string {
  if (range.kind === 'query') return '';
  if (range.kind === 'last') return range.span;
  return `${timeLiteral(range.from)}..${timeLiteral(range.to)}`;
}

/** The range a URL names, or the query's own for anything else. */
export function decodeRange(text: string | null): TimeRange {
  if (text === null || text === '') return QUERY_RANGE;
  const last = LAST_SPANS.find((s) => s.span === text);
  if (last !== undefined) return { kind: 'last', span: last.span };
  const [a, b] = text.split('..');
  const from = Date.parse(a ?? '');
  const to = Date.parse(b ?? '');
  return Number.isFinite(from) && Number.isFinite(to) && from < to ? { kind: 'between', from, to } : QUERY_RANGE;
}

export function sameRange(a: TimeRange, b: TimeRange): boolean {
  return encodeRange(a) === encodeRange(b);
}
