// The console's help: the clauses beyond the core, each with its syntax and an example, and every
// function of the language, grouped by kind, from the engine's own list (engine/query/plan/
// functions.ts, bundled in), so the help and the completions name exactly what the engine runs.
// "Try" puts an example in the editor.
import { FUNCTION_DOCS } from '../../engine/query/plan/functions.js';
import type { FunctionKind } from '../../engine/query/plan/functions.js';
import { el } from './dom.js';

interface ClauseHelp {
  readonly title: string;
  readonly syntax: string;
  readonly example: string;
}

export const CLAUSES: readonly ClauseHelp[] = [
  {
    title: 'ASOF JOIN',
    syntax: 'FROM t [LEFT | RIGHT | FULL] ASOF JOIN u [, …]',
    example: 'SELECT $timestamp, trades.price, quotes.bid FROM trades LEFT ASOF JOIN quotes IN RANGE(2021, +1d)',
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
    example: 'SELECT derivative(max(counter), 1min) FROM t IN RANGE(now, -1h) GROUP BY 1min',
  },
];

const KIND_TITLES: Readonly<Record<FunctionKind, string>> = {
  aggregate: 'Aggregates',
  scalar: 'Scalar functions',
  sequence: 'Row-sequence functions (in time order; per GROUP BY column; over aggregates under GROUP BY duration)',
};

/** The help panel; `onTry` receives an example query. */
export function createHelp(onTry: (query: string) => void): HTMLElement {
  const tryButton = (query: string): HTMLButtonElement => {
    const button = el('button', { type: 'button', className: 'try', title: query }, 'Try');
    button.addEventListener('click', () => onTry(query));
    return button;
  };
  const clauses = CLAUSES.map((c) => el('div', { className: 'help-clause' },
    el('h3', {}, c.title), el('code', {}, c.syntax), el('div', { className: 'help-example' }, el('code', {}, c.example), tryButton(c.example))));
  const kinds: FunctionKind[] = ['aggregate', 'scalar', 'sequence'];
  const functions = kinds.map((kind) => el('div', { className: 'help-functions' },
    el('h3', {}, KIND_TITLES[kind]),
    el('table', {}, ...FUNCTION_DOCS.filter((f) => f.kind === kind).map((f) => el('tr', { 'data-function': f.name },
      el('td', {}, el('code', {}, f.signature)), el('td', {}, f.summary), el('td', {}, tryButton(f.example)))))));
  return el('aside', { className: 'help', 'aria-label': 'Query language help', hidden: true },
    el('h2', {}, 'Clauses'), ...clauses, el('h2', {}, 'Functions'), ...functions);
}
