// The result table, virtualized: only the rows in view (plus a margin) exist in the DOM, so a
// 100,000-row result scrolls as smoothly as a 10-row one. A click on a column header sorts by it
// (ascending, descending, then the answer's order again); a cell shows its value to the column's
// precision and its exact value on hover; numbers are right-aligned, nulls dimmed. An answer with
// no rows says so.
import type { ResultRows } from './result-rows.js';

const ROW_HEIGHT = 24;
const OVERSCAN = 10;

export interface GridHandle {
  /** Draws the rows again (after a sort or a change of clock). */
  redraw(): void;
}

export interface GridOptions {
  /** Columns the console added to the query (GROUP BY columns it did not select). */
  readonly added?: ReadonlySet<string>;
}

export function renderGrid(host: HTMLElement, rows: ResultRows, options: GridOptions = {}): GridHandle {
  host.replaceChildren();
  if (rows.rowCount === 0) {
    const empty = document.createElement('div');
    empty.className = 'grid-empty';
    empty.setAttribute('role', 'status');
    empty.textContent = 'No rows: the query matched nothing. Widen the time range or loosen the WHERE condition.';
    host.append(empty);
    return { redraw: () => undefined };
  }
  const total = rows.rowCount;
  const scroller = document.createElement('div');
  scroller.className = 'grid';
  scroller.tabIndex = 0;
  scroller.setAttribute('role', 'table');
  scroller.setAttribute('aria-rowcount', String(total));
  const head = document.createElement('div');
  head.className = 'grid-row grid-head';
  head.setAttribute('role', 'row');
  const headers = rows.columns.map((column, i) => {
    const cell = document.createElement('button');
    cell.type = 'button';
    cell.className = `grid-cell ${column.kind}`;
    cell.setAttribute('role', 'columnheader');
    cell.dataset['column'] = column.name;
    cell.textContent = column.name;
    const isAdded = options.added?.has(column.name) === true;
    if (isAdded) cell.classList.add('added');
    cell.title = `${isAdded ? 'Added to the query by the dashboard: a GROUP BY column, one chart series per value. ' : ''}Sort by ${column.name}`;
    cell.addEventListener('click', () => {
      const s = rows.sorted;
      const next = s === null || s.column !== i ? 'asc' : s.direction === 'asc' ? 'desc' : null;
      rows.sort(next === null ? null : i, next ?? 'asc');
      markSort();
      redraw();
    });
    head.append(cell);
    return cell;
  });
  const markSort = (): void => headers.forEach((h, i) => {
    const s = rows.sorted;
    h.setAttribute('aria-sort', s !== null && s.column === i ? (s.direction === 'asc' ? 'ascending' : 'descending') : 'none');
  });
  markSort();
  const spacer = document.createElement('div');
  spacer.style.height = `${total * ROW_HEIGHT}px`;
  spacer.style.position = 'relative';
  const body = document.createElement('div');
  body.className = 'grid-body';
  spacer.append(body);
  scroller.append(head, spacer);
  host.append(scroller);
  scroller.style.setProperty('--grid-columns', String(Math.max(rows.columns.length, 1)));

  let drawn = '';
  const draw = (): void => {
    const first = Math.max(0, Math.floor(scroller.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(total, Math.ceil((scroller.scrollTop + scroller.clientHeight) / ROW_HEIGHT) + OVERSCAN);
    const key = `${first}:${last}`;
    if (key === drawn) return;
    drawn = key;
    const frag = document.createDocumentFragment();
    for (let r = first; r < last; r++) {
      const row = document.createElement('div');
      row.className = 'grid-row';
      row.setAttribute('role', 'row');
      row.setAttribute('aria-rowindex', String(r + 1));
      row.style.transform = `translateY(${r * ROW_HEIGHT}px)`;
      rows.columns.forEach((column, c) => {
        const cell = document.createElement('div');
        cell.className = `grid-cell ${column.kind}`;
        cell.setAttribute('role', 'cell');
        if (rows.isNull(r, c)) cell.classList.add('null');
        cell.textContent = rows.text(r, c);
        cell.title = rows.exact(r, c);
        row.append(cell);
      });
      frag.append(row);
    }
    body.replaceChildren(frag);
  };
  const redraw = (): void => { drawn = ''; draw(); };
  let pending = false;
  scroller.addEventListener('scroll', () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; draw(); });
  });
  new ResizeObserver(redraw).observe(scroller);
  draw();
  return { redraw };
}
