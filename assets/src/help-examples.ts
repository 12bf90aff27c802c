// Help's examples on the person's own data. The examples (the engine's function registry and the
// clauses in help.ts) are written over a table `t` with a DOUBLE column `v`, an INT64 `n`, a
// SYMBOL `sym`, and a second table `u` with a numeric `w`; here the catalog's tables stand in for
// them, and ranges and calendar filters are rewritten to the last hour of the table's data, so
// every Try returns rows. Rewriting goes token by token (the engine's lexer): names inside strings
// or longer names are never touched.
import { closing, quoteName, tokensOf } from './query-text.js';
import { timeLiteral } from './time-range.js';

export interface CatalogColumn {
  readonly name: string;
  /** As SHOW gives it: DOUBLE, INT64, SYMBOL, STRING, BOOLEAN, … */
  readonly type: string;
}

export interface CatalogTable {
  readonly name: string;
  readonly columns: readonly CatalogColumn[];
}

/** What the examples run on. */
export interface ExampleData {
  readonly table: string;
  /** A DOUBLE column (else an INT64 one). */
  readonly value: string;
  /** An INT64 column (else `value`). */
  readonly integer: string;
  /** A SYMBOL or STRING column; null when the table has none (`$table` stands in). */
  readonly symbol: string | null;
  /** A second table with a numeric column, for joins; null when there is none. */
  readonly other: { readonly table: string; readonly value: string } | null;
  /** The time of the table's last row (ms): examples look at the hour before it. */
  readonly lastMs: number;
}

const HOUR = 3_600_000;

const firstOfType = (t: CatalogTable, ...types: string[]): string | undefined => types.map((type) => t.columns.find((c) => c.type === type)?.name).find((n) => n !== undefined);

/** How well a table fits the examples: a DOUBLE, an INT64 and a SYMBOL column each help. */
function fit(t: CatalogTable): number {
  return (firstOfType(t, 'DOUBLE') ? 4 : 0) + (firstOfType(t, 'INT64') ? 2 : 0) + (firstOfType(t, 'SYMBOL', 'STRING') ? 1 : 0);
}

/**
 * The table the examples use (the one with the most of a DOUBLE, an INT64 and a SYMBOL column)
 * and a second numeric table for joins; null when no table has a numeric column.
 */
export function pickExampleTables(tables: readonly CatalogTable[]): Omit<ExampleData, 'lastMs'> | null {
  const numeric = tables.filter((t) => firstOfType(t, 'DOUBLE', 'INT64') !== undefined);
  if (numeric.length === 0) return null;
  const main = [...numeric].sort((a, b) => fit(b) - fit(a))[0]!;
  const value = firstOfType(main, 'DOUBLE', 'INT64')!;
  const second = numeric.find((t) => t !== main);
  return {
    table: main.name,
    value,
    integer: firstOfType(main, 'INT64') ?? value,
    symbol: firstOfType(main, 'SYMBOL', 'STRING') ?? null,
    other: second === undefined ? null : { table: second.name, value: firstOfType(second, 'DOUBLE', 'INT64')! },
  };
}

const pad = (n: number): string => String(n).padStart(2, '0');

/**
 * The example over the person's data, or null when it needs what the data lacks (a join needs
 * a second table). Text that does not lex is returned as it is.
 */
export function fillExample(example: string, data: ExampleData): string | null {
  const tokens = tokensOf(example);
  if (tokens === null) return example;
  const names: Record<string, string | null> = {
    t: data.table, v: data.value, n: data.integer, sym: data.symbol ?? '$table',
    u: data.other?.table ?? null, w: data.other?.value ?? null,
  };
  const tables: Record<string, string | null> = { t: data.table, u: data.other?.table ?? null };
  const end = Math.floor(data.lastMs / 60_000) * 60_000 + 60_000;
  const last = new Date(data.lastMs);
  const filters: Record<string, [string, string]> = {
    months: [String(last.getUTCMonth() + 1), String(((last.getUTCMonth() + 1) % 12) + 1)],
    days: [String(last.getUTCDay() || 7), String(((last.getUTCDay() || 7) % 7) + 1)],
    time: [`${pad(last.getUTCHours())}:00`, `${pad(last.getUTCHours() + 1)}:00`],
  };
  let out = '';
  let at = 0;
  const replace = (from: number, to: number, text: string): void => { out += example.slice(at, from) + text; at = to; };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === 'IN' && (tokens[i + 1]?.type === 'RANGE' || tokens[i + 1]?.text === '[')) {
      const close = closing(tokens, tokens[i + 1]!.type === 'RANGE' ? i + 2 : i + 1);
      replace(t.offset, tokens[close]!.offset + 1, `IN RANGE(${timeLiteral(end - HOUR)}, +1h)`);
      i = close;
      continue;
    }
    const filter = t.type === 'ident' && t.text.toLowerCase() === 'with' ? filters[tokens[i + 1]?.text.toLowerCase() ?? ''] : undefined;
    if (filter !== undefined && tokens[i + 3]?.text === '(' && tokens[i + 7]?.text === ')') {
      replace(tokens[i + 4]!.offset, tokens[i + 6]!.offset + tokens[i + 6]!.text.length, `${filter[0]}, ${filter[1]}`);
      i += 7;
      continue;
    }
    if (t.type !== 'ident') continue;
    const [head, tail, ...rest] = t.text.split('.');
    if (tail !== undefined && rest.length === 0 && head! in tables && tail in names) {
      const table = tables[head!];
      const column = names[tail];
      if (table === null || column === null || column === undefined) return null;
      replace(t.offset, t.offset + t.text.length, quoteName(`${table}.${column}`));
    } else if (Object.hasOwn(names, t.text)) {
      const name = names[t.text];
      if (name === null || name === undefined) return null;
      replace(t.offset, t.offset + t.text.length, name === '$table' ? name : quoteName(name));
    }
  }
  return out + example.slice(at);
}
