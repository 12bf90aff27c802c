// The result table, virtualized: only the rows in view (plus a margin) exist in the DOM, so a
// 100,000-row result scrolls as smoothly as a 10-row one. Rows of every source table follow one
// another; with more than one table a first column names the table.
import type { ResultTable } from './result.js';

const ROW_HEIGHT = 24;
const OVERSCAN = 10;

export function renderGrid(host: HTMLElement, tables: readonly ResultTable[]): void {
  host.replaceChildren();
  const withSource = tables.length > 1;
  const names = tables[0]?.columns.map((c) => c.name) ?? [];
  const sameShape = tables.every((t) => t.columns.length === names.length && t.columns.every((c, i) => c.name === names[i]));
  const header = [...(withSource ? ['$table'] : []), ...(sameShape ? names : ['columns…'])];
  const offsets: number[] = [];
  let total = 0;
  for (const t of tables) { offsets.push(total); total += t.rowCount; }

  const scroller = document.createElement('div');
  scroller.className = 'grid';
  scroller.tabIndex = 0;
  scroller.setAttribute('role', 'table');
  scroller.setAttribute('aria-rowcount', String(total));
  const head = document.createElement('div');
  head.className = 'grid-row grid-head';
  head.setAttribute('role', 'row');
  for (const h of header) {
    const cell = document.createElement('div');
    cell.className = 'grid-cell';
    cell.setAttribute('role', 'columnheader');
    cell.textContent = h;
    head.append(cell);
  }
  const spacer = document.createElement('div');
  spacer.style.height = `${total * ROW_HEIGHT}px`;
  spacer.style.position = 'relative';
  const body = document.createElement('div');
  body.className = 'grid-body';
  spacer.append(body);
  scroller.append(head, spacer);
  host.append(scroller);
  const columns = Math.max(header.length, 1);
  scroller.style.setProperty('--grid-columns', String(columns));

  const locate = (row: number): [ResultTable, number] => {
    let t = tables.length - 1;
    while (t > 0 && offsets[t]! > row) t--;
    return [tables[t]!, row - offsets[t]!];
  };

  let drawn = '';
  const draw = (): void => {
    const first = Math.max(0, Math.floor(scroller.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(total, Math.ceil((scroller.scrollTop + scroller.clientHeight) / ROW_HEIGHT) + OVERSCAN);
    const key = `${first}:${last}`;
    if (key === drawn) return;
    drawn = key;
    const frag = document.createDocumentFragment();
    for (let r = first; r < last; r++) {
      const [table, i] = locate(r);
      const row = document.createElement('div');
      row.className = 'grid-row';
      row.setAttribute('role', 'row');
      row.setAttribute('aria-rowindex', String(r + 1));
      row.style.transform = `translateY(${r * ROW_HEIGHT}px)`;
      const cells = [...(withSource ? [table.name] : []), ...table.columns.map((c) => c.cell(i))];
      for (const text of cells) {
        const cell = document.createElement('div');
        cell.className = 'grid-cell';
        cell.setAttribute('role', 'cell');
        cell.textContent = text;
        cell.title = text;
        row.append(cell);
      }
      frag.append(row);
    }
    body.replaceChildren(frag);
  };
  let pending = false;
  scroller.addEventListener('scroll', () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; draw(); });
  });
  new ResizeObserver(() => { drawn = ''; draw(); }).observe(scroller);
  draw();
}
