// The tables beside the query editor: each table with its columns and their types (opened on a
// click of the arrow), materialized views marked as such; a click on a name puts it in the query
// at the cursor, quoted when it must be. Filled from the same catalog as completion (find(type=ts)
// and SHOW).
import { el } from './dom.js';
import { quoteName } from './query-text.js';
import type { Schema } from './query-language.js';

export interface TableList {
  readonly root: HTMLElement;
  /** Lists the tables the schema knows now. */
  refresh(): void;
}

export function createTableList(schema: Schema, insert: (text: string) => void): TableList {
  const list = el('div', { className: 'table-list-items' });
  const root = el('aside', { className: 'table-list', 'aria-label': 'Tables' }, el('h2', {}, 'Tables'), list);
  const nameButton = (name: string, title: string, className: string): HTMLButtonElement => {
    const b = el('button', { type: 'button', className, title }, name);
    b.addEventListener('click', (e) => { e.preventDefault(); insert(quoteName(name)); });
    return b;
  };
  return {
    root,
    refresh() {
      if (schema.tables.length === 0) {
        list.replaceChildren(el('p', { className: 'muted' }, 'No tables yet.'));
        return;
      }
      list.replaceChildren(...schema.tables.map((table) => {
        const columns = schema.columns.get(table) ?? [];
        const source = schema.views.get(table);
        const summary = el('summary', {}, nameButton(table, `Insert ${table}`, 'table-name'),
          ...(source === undefined ? [] : [el('span', { className: 'muted view-badge', title: `a materialized view of ${source}` }, ' view')]));
        return el('details', { className: 'table-entry', 'data-table': table }, summary,
          el('ul', {}, ...columns.filter((c) => c.name !== '$timestamp').map((c) => el('li', {},
            nameButton(c.name, `Insert ${c.name}`, 'column-name'), el('span', { className: 'muted' }, ` ${c.type}`)))));
      }));
    },
  };
}
