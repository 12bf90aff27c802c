// The time-range picker of the console's toolbar: the query's own range, the last 15 minutes to 7
// days, or custom bounds typed in the page's clock (a zoom on the chart sets those too, and "Zoom
// out" goes back through the ranges zoomed from). Picking calls `onPick`; the console puts the
// range in the query and runs it.
import { clockMode, parseWallTime, wallTimeText, zoneLabel } from './clock.js';
import { el } from './dom.js';
import { LAST_SPANS, QUERY_RANGE, sameRange } from './time-range.js';
import type { TimeRange } from './time-range.js';

export interface RangePicker {
  readonly controls: readonly HTMLElement[];
  readonly range: TimeRange;
  /** Shows `range` (from the URL, a saved query, a zoom) without calling `onPick`. */
  set(range: TimeRange): void;
  /** A zoom on the chart: remembers the current range for "Zoom out", then picks `range`. */
  zoomTo(range: TimeRange): void;
  /** Back to the range before the last zoom; false when there was none. */
  zoomOut(): boolean;
  /** The clock changed: custom bounds are shown in it. */
  redrawClock(): void;
}

export function createRangePicker(onPick: (range: TimeRange) => void): RangePicker {
  const select = el('select', { id: 'range', title: 'Time range of the query: written into its IN RANGE clause at each run' },
    el('option', { value: '' }, 'Query’s own range'),
    ...LAST_SPANS.map((s) => el('option', { value: s.span }, s.label)),
    el('option', { value: 'custom' }, 'Custom…'));
  // Text fields, not datetime-local: those show the browser's locale (12-hour in en-US), not the page's clock.
  const field = (id: string, label: string) => el('input', { type: 'text', id, size: 19, placeholder: 'YYYY-MM-DD HH:mm:ss', 'aria-label': label, spellcheck: false });
  const from = field('range-from', 'From (inclusive)');
  const to = field('range-to', 'To (exclusive)');
  const zone = el('span', { className: 'muted' });
  const apply = el('button', { type: 'button', id: 'range-apply' }, 'Apply');
  const custom = el('span', { className: 'range-custom', hidden: true }, from, '–', to, zone, apply);
  const zoomOutButton = el('button', { type: 'button', id: 'zoom-out', title: 'Back to the range before the last zoom (or double-click the chart)', hidden: true }, 'Zoom out');
  let range: TimeRange = QUERY_RANGE;
  const zoomStack: TimeRange[] = [];

  const show = (): void => {
    select.value = range.kind === 'query' ? '' : range.kind === 'last' ? range.span : 'custom';
    custom.hidden = range.kind !== 'between' && select.value !== 'custom';
    const mode = clockMode();
    zone.textContent = zoneLabel(mode);
    if (range.kind === 'between') { from.value = wallTimeText(range.from, mode); to.value = wallTimeText(range.to, mode); }
    zoomOutButton.hidden = zoomStack.length === 0;
  };
  const pick = (next: TimeRange): void => {
    range = next;
    show();
    onPick(next);
  };
  select.addEventListener('change', () => {
    zoomStack.length = 0;
    if (select.value === 'custom') {
      // Custom starts from what is shown now: the last hour when nothing is.
      if (range.kind !== 'between') {
        const now = Date.now();
        const mode = clockMode();
        from.value = wallTimeText(now - 3_600_000, mode);
        to.value = wallTimeText(now, mode);
      }
      custom.hidden = false;
      from.focus();
      return;
    }
    const last = LAST_SPANS.find((s) => s.span === select.value);
    pick(last === undefined ? QUERY_RANGE : { kind: 'last', span: last.span });
  });
  apply.addEventListener('click', () => {
    const a = parseWallTime(from.value, clockMode());
    const b = parseWallTime(to.value, clockMode());
    from.setCustomValidity(Number.isNaN(a) ? 'Write YYYY-MM-DD HH:mm[:ss]' : '');
    to.setCustomValidity(Number.isNaN(b) ? 'Write YYYY-MM-DD HH:mm[:ss]' : !(a < b) ? 'The end must come after the start' : '');
    if (!from.reportValidity() || !to.reportValidity()) return;
    pick({ kind: 'between', from: a, to: b });
  });
  const zoomOut = (): boolean => {
    const previous = zoomStack.pop();
    if (previous === undefined) return false;
    pick(previous);
    return true;
  };
  zoomOutButton.addEventListener('click', () => void zoomOut());
  show();
  return {
    controls: [el('label', {}, 'Range ', select), custom, zoomOutButton],
    get range() { return range; },
    set(next) { range = next; zoomStack.length = 0; show(); },
    zoomTo(next) {
      if (sameRange(next, range)) return;
      zoomStack.push(range);
      pick(next);
    },
    zoomOut,
    redrawClock: show,
  };
}
