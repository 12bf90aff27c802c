// The console's help: the clauses beyond the core, each with its syntax and an example, and every
// function of the language, grouped by kind, from the engine's own list (engine/query/plan/
// functions.ts, bundled in), so the help and the completions name exactly what the engine runs.
// Examples are shown and run on the person's own tables (help-examples.ts); "Try" puts one in the
// editor and runs it.
import { FUNCTION_DOCS } from '../../engine/query/plan/functions.js';
import type { FunctionKind } from '../../engine/query/plan/functions.js';
import { el } from './dom.js';
import { fillExample } from './help-examples.js';
import type { ExampleData } from './help-examples.js';

interface ClauseHelp {
  readonly title: string;
  readonly syntax: string;
  /** Over the registry's placeholders: table `t` (DOUBLE `v`, INT64 `n`, SYMBOL `sym`), table `u` (`w`). */
  readonly example: string;
}

export const CLAUSES: readonly ClauseHelp[] = [
  {
    title: 'GROUP BY a column',
    syntax: 'GROUP BY duration, column [, …]',
    example: 'SELECT sym, avg(v) FROM t IN RANGE(2021, +1d) GROUP BY 5min, sym',
  },
  {
    title: 'ASOF JOIN',
    syntax: 'FROM t [LEFT | RIGHT | FULL] ASOF JOIN u [, …]',
    example: 'SELECT t.v, u.w FROM t LEFT ASOF JOIN u IN RANGE(2021, +1d)',
  },
  {
    title: 'Calendar filters',
    syntax: 'IN RANGE(…) [WITH MONTHS IN (m1, m2)] [WITH DAYS IN (d1, d2)] [WITH TIME IN (hh:mm, hh:mm)]',
    example: 'SELECT avg(v) FROM t IN RANGE(2021, 2022) WITH DAYS IN (1, 6) WITH TIME IN (08:00, 18:00) GROUP BY day',
  },
  {
    title: 'FILL',
    syntax: 'GROUP BY duration [, column …] FILL(NULL | PREV | LINEAR | number)',
    example: 'SELECT avg(v) FROM t IN RANGE(2021-03-01, +1d) GROUP BY 1min FILL(LINEAR)',
  },
  {
    title: 'Sequence functions over aggregates',
    syntax: 'sequence(aggregate(x)) … GROUP BY duration',
    example: 'SELECT derivative(max(n), 1min) FROM t IN RANGE(now, -1h) GROUP BY 1min',
  },
];

/**
 * Statements that change data (docs/lifecycle.md): shown with their syntax and an example the
 * person can put in the editor, never run from the help.
 */
export const WRITE_CLAUSES: readonly ClauseHelp[] = [
  {
    title: 'Time to live and tags',
    syntax: 'CREATE TABLE … [WITH TAGS=[tag, …]] [TTL duration] · ALTER TABLE t SET TTL duration | DROP TTL',
    example: 'ALTER TABLE t SET TTL 90d',
  },
  {
    title: 'DELETE',
    syntax: 'DELETE FROM t IN RANGE(…) [WITH … IN (…)] [WHERE condition | WHERE DUPLICATE(cols)]',
    example: 'DELETE FROM t IN RANGE(2021-03-01, +1h) WHERE DUPLICATE($timestamp, v)',
  },
  {
    title: 'Materialized views (rollups)',
    syntax: 'CREATE MATERIALIZED VIEW [IF NOT EXISTS] v [TTL duration] AS SELECT aggregates FROM t [WHERE …] GROUP BY duration [, columns] · DROP MATERIALIZED VIEW v',
    example: 'CREATE MATERIALIZED VIEW hourly AS SELECT avg(v), max(v), count(v) FROM t GROUP BY 1h',
  },
];

const KIND_TITLES: Readonly<Record<FunctionKind, string>> = {
  aggregate: 'Aggregates',
  scalar: 'Scalar functions',
  sequence: 'Row-sequence functions (in time order; per GROUP BY column; over aggregates under GROUP BY duration)',
};

export interface HelpPanel {
  readonly root: HTMLElement;
  /** Shows the examples on these tables (null: on the placeholders, with a note). */
  setData(data: ExampleData | null): void;
}

/** The help panel; `onTry` receives an example query to run, `onEdit` one to put in the editor only. */
export function createHelp(onTry: (query: string) => void, onEdit: (query: string) => void): HelpPanel {
  const note = el('p', { className: 'muted help-note' });
  const body = el('div', {});
  const root = el('aside', { className: 'help', 'aria-label': 'Query language help', hidden: true }, note, body);

  const example = (template: string, data: ExampleData | null): HTMLElement => {
    const query = data === null ? template : fillExample(template, data);
    const button = el('button', { type: 'button', className: 'try', title: query ?? 'needs two tables with numeric columns' }, 'Try');
    if (query === null) button.disabled = true;
    else button.addEventListener('click', () => onTry(query));
    return el('span', { className: 'help-example' }, el('code', {}, query ?? template), button);
  };

  const render = (data: ExampleData | null): void => {
    note.textContent = data === null
      ? 'Examples use a table t with a DOUBLE column v, an INT64 n and a SYMBOL sym; with a table holding numbers, they use yours.'
      : `Examples run on your table ${data.table} (${[data.value, data.integer, data.symbol].filter((c, i, a) => c !== null && a.indexOf(c) === i).join(', ')}), over the last hour of its data.`;
    const clauses = CLAUSES.map((c) => el('div', { className: 'help-clause' },
      el('h3', {}, c.title), el('code', {}, c.syntax), el('div', {}, example(c.example, data))));
    const kinds: FunctionKind[] = ['aggregate', 'scalar', 'sequence'];
    const functions = kinds.map((kind) => el('div', { className: 'help-functions' },
      el('h3', {}, KIND_TITLES[kind]),
      el('table', {}, ...FUNCTION_DOCS.filter((f) => f.kind === kind).map((f) => el('tr', { 'data-function': f.name },
        el('td', {}, el('code', {}, f.signature)), el('td', {}, f.summary), el('td', {}, example(f.example, data)))))));
    const writes = WRITE_CLAUSES.map((c) => {
      const query = data === null ? c.example : fillExample(c.example, data) ?? c.example;
      const edit = el('button', { type: 'button', className: 'edit', title: 'put it in the editor (not run)' }, 'Edit');
      edit.addEventListener('click', () => onEdit(query));
      return el('div', { className: 'help-write' }, el('h3', {}, c.title), el('code', {}, c.syntax),
        el('div', {}, el('span', { className: 'help-example' }, el('code', {}, query), edit)));
    });
    body.replaceChildren(el('h2', {}, 'Clauses'), ...clauses, el('h2', {}, 'Functions'), ...functions, el('h2', {}, 'Changing data'), ...writes);
  };
  render(null);
  return { root, setData: render };
}
