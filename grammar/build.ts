// AST builders called by the grammar's one-line postprocessors. Each takes nearley's data array
// for one rule alternative (tokens for terminals, built nodes for rules) and returns a node.
// Checks that need a token's content (a valid year, a whole LIMIT) throw QuerySyntaxError here:
// the grammar itself never uses `reject`.
import type {
  AlterTable, AlterTtl, AsofJoin, Delete, Duplicate, Binary, BooleanLiteral, BinaryOperator, Call, CalendarFilter, Fill, TimeOfDay, InList, Logical, Statement,
  ColumnDefinition, ColumnRef, ColumnType, CreateTable, CreateView, DropTable, DropView,
  Duration, Expr, Find, FindCondition, FindTag, FindType, GroupItem, Insert, InsertValue,
  NullLiteral, NumberLiteral, OrderItem, Range, RelativeTimeBase, Select, SelectColumn, Show, Star,
  StringLiteral, TableRef, TimePoint, Unary,
} from './ast.js';
import type { Token } from './lexer.js';
import { QuerySyntaxError } from './errors.js';
import { formatExpr } from './format-expr.js';
import { extendList, listItems, startList, type ListView } from './list-builder.js';
import { parseDurationText, unitDuration as unitValue, unitOf } from './duration.js';
import { INT64_MAX, parseTimeLiteral, parseTimeOfDay, REPRESENTABLE_TIMES, yearStartNs } from './time.js';

type Maybe<T> = T | null;

// ---------------------------------------------------------------------------------------------
// Generic list and selection helpers

export const list = <T>([item]: [T]): ListView<T> => startList(item);
export const append = <T>([items, , item]: [ListView<T>, Token, T]): ListView<T> => extendList(items, item);
export const first = <T>(d: [T, ...unknown[]]): T => d[0];
export const second = <T>(d: [unknown, T, ...unknown[]]): T => d[1];
export const third = <T>(d: [unknown, unknown, T, ...unknown[]]): T => d[2];

// ---------------------------------------------------------------------------------------------
// Names and literals

/** The name a token spells: a plain identifier as written, a quoted one unquoted. */
export function nameOf(t: Token): string {
  if (t.type !== 'qident') return t.text;
  const name = t.text.slice(1, -1).replaceAll('""', '"');
  if (name === '') throw new QuerySyntaxError(t.offset, ['a name'], `empty quoted name at offset ${t.offset}`);
  return name;
}

export const column = ([t]: [Token]): ColumnRef => ({ kind: 'Column', offset: t.offset, name: nameOf(t) });

export const string = ([t]: [Token]): StringLiteral =>
  ({ kind: 'String', offset: t.offset, value: t.text.slice(1, -1).replaceAll("''", "'") });

export const nullLiteral = ([t]: [Token]): NullLiteral => ({ kind: 'Null', offset: t.offset });
export const booleanLiteral = ([t]: [Token]): BooleanLiteral => ({ kind: 'Boolean', offset: t.offset, value: t.type === 'TRUE' });

/** A number token: digits only → exact integer; with a fraction or exponent → double. */
export function number([t]: [Token]): NumberLiteral {
  if (/^\d+$/.test(t.text)) return { kind: 'Number', offset: t.offset, isInteger: true, value: BigInt(t.text), text: t.text };
  const value = Number(t.text);
  if (!Number.isFinite(value)) throw new QuerySyntaxError(t.offset, [], `number '${t.text}' at offset ${t.offset} is too large`);
  return { kind: 'Number', offset: t.offset, isInteger: false, value, text: t.text };
}

export const negativeNumber = ([minus, t]: [Token, Token]): NumberLiteral => negateNumber(number([t]), minus.offset);
export const positiveNumber = ([plus, t]: [Token, Token]): NumberLiteral => ({ ...number([t]), offset: plus.offset });

function negateNumber(n: NumberLiteral, offset: number): NumberLiteral {
  const text = n.text.startsWith('-') ? n.text.slice(1) : `-${n.text}`;
  return n.isInteger ? { ...n, offset, value: -n.value, text } : { ...n, offset, value: -n.value, text };
}

// ---------------------------------------------------------------------------------------------
// Time points and durations

const TIME_WORDS: Readonly<Record<string, RelativeTimeBase | bigint>> = {
  NOW: 'now', TODAY: 'today', YESTERDAY: 'yesterday', TOMORROW: 'tomorrow', EPOCH: 0n, END_OF_TIME: INT64_MAX,
};

/** now/today/yesterday/tomorrow stay relative; epoch and end_of_time are fixed instants. */
export function timeWord([t]: [Token]): TimePoint {
  const base = TIME_WORDS[t.type ?? ''];
  if (base === undefined) throw new Error(`grammar bug: ${t.type} is not a time word`);
  return typeof base === 'bigint' ? { kind: 'TimePoint', offset: t.offset, base: 'absolute', ns: base } : { kind: 'TimePoint', offset: t.offset, base };
}

/** A time literal token; the lexer has already checked it, so parsing cannot fail here. */
export function absoluteTime([t]: [Token]): TimePoint {
  const ns = parseTimeLiteral(t.text);
  if (ns === null) throw new QuerySyntaxError(t.offset, [], `invalid time '${t.text}' at offset ${t.offset}`);
  return { kind: 'TimePoint', offset: t.offset, base: 'absolute', ns };
}

/** A bare integer where a time point is required: the start of that year, UTC. */
export function year([t]: [Token]): TimePoint {
  const isYear = /^\d+$/.test(t.text);
  const ns = isYear ? yearStartNs(Number(t.text)) : null;
  if (ns === null && isYear) {
    throw new QuerySyntaxError(t.offset, [], `year ${t.text} at offset ${t.offset} is outside the representable range: ${REPRESENTABLE_TIMES}`);
  }
  if (ns === null) {
    throw new QuerySyntaxError(t.offset, ['a time'], `expected a time (a year such as 2017, a date such as 2017-01-01, or now) at offset ${t.offset}, found '${t.text}'`);
  }
  return { kind: 'TimePoint', offset: t.offset, base: 'absolute', ns };
}

/** A duration token (`1h30min`); the lexer has already checked its units. */
export function duration([t]: [Token]): Duration {
  const d = parseDurationText(t.text);
  if ('message' in d) throw new QuerySyntaxError(t.offset + d.index, [], d.message);
  return { kind: 'Duration', offset: t.offset, ...d };
}

/** A bare unit word (`day`): one of that unit. */
export function unitDuration([t]: [Token]): Duration {
  const unit = unitOf(t.text);
  if (unit === undefined) throw new Error(`grammar bug: ${t.text} is not a unit`);
  return { kind: 'Duration', offset: t.offset, ...unitValue(unit) };
}

export const negateDuration = ([minus, d]: [Token, Duration]): Duration => negatedDuration(d, minus.offset);
export const positiveDuration = ([plus, d]: [Token, Duration]): Duration => ({ ...d, offset: plus.offset });

function negatedDuration(d: Duration, offset: number): Duration {
  return { ...d, offset, months: d.months === 0 ? 0 : -d.months, nanos: -d.nanos };
}

export const range = ([t, , start, , end]: [Token, Token, TimePoint, Token, TimePoint | Duration]): Range =>
  ({ kind: 'Range', offset: t.offset, start, end });


// ---------------------------------------------------------------------------------------------
// Expressions

/** Deepest expression nesting accepted. Later stages walk trees recursively; a 1 MiB query of
 * `x+x+…` would otherwise overflow their stacks instead of failing as a syntax error. An AND/OR
 * chain is one node however long (see `logical`), so `a OR b OR …` adds one level, not one per term. */
export const MAX_EXPRESSION_DEPTH = 256;
const depths = new WeakMap<Expr, number>();

function depthOf(e: Expr | Star): number {
  return (e.kind === 'Logical' ? pendingChain(e)?.depth : depths.get(e as Expr)) ?? 0;
}

/** Records the depth of `node`, refusing it past MAX_EXPRESSION_DEPTH (at the token `at`). */
function atDepth<T extends Expr>(node: T, at: Token, depth: number): T {
  if (depth > MAX_EXPRESSION_DEPTH) throw tooDeep(at);
  depths.set(node, depth);
  return node;
}

function tooDeep(at: Token): QuerySyntaxError {
  return new QuerySyntaxError(at.offset, [], `expression nested more than ${MAX_EXPRESSION_DEPTH} levels deep at offset ${at.offset}`);
}

/** One level above its deepest child (a loop, not a spread: a call may have 100,000 arguments). */
function nested<T extends Expr>(node: T, at: Token, children: readonly (Expr | Star)[]): T {
  let deepest = 0;
  for (const c of children) deepest = Math.max(deepest, depthOf(c));
  return atDepth(node, at, 1 + deepest);
}

export const binary = ([left, op, right]: [Expr, Token, Expr]): Binary =>
  nested({ kind: 'Binary', offset: left.offset, op: op.text as BinaryOperator, left, right }, op, [left, right]);

/**
 * An AND/OR chain while parsing: its operands as an immutable list, newest first, kept in the
 * node's `operands` field until `finishStatement` replaces it with the array. The Earley parser
 * completes `orExpr OR andExpr` once per candidate right operand, so copying the operands at
 * each step would cost O(n²) for n terms; extending this list costs O(1). (A WeakMap from node
 * to list cost more: its entries for the many dead candidates made every GC slow.)
 */
class Chain {
  constructor(readonly prev: Chain | null, readonly item: Expr, readonly length: number, readonly depth: number) {}
}

function pendingChain(e: Expr): Chain | null {
  return e.kind === 'Logical' && (e.operands as unknown) instanceof Chain ? (e.operands as unknown as Chain) : null;
}

/** `a OR b` / `a AND b`; a left operand that is a chain of the same operator is extended. */
export function logical([left, op, right]: [Expr, Token, Expr]): Logical {
  const operator = op.type === 'AND' ? 'AND' : 'OR';
  const base = left.kind === 'Logical' && left.op === operator ? pendingChain(left) : null;
  // Extending a chain keeps its level; only a new chain, or a deeper right operand, adds one.
  const depth = Math.max(base === null ? 1 + depthOf(left) : base.depth, 1 + depthOf(right));
  if (depth > MAX_EXPRESSION_DEPTH) throw tooDeep(op);
  const prefix = base ?? new Chain(null, left, 1, depth);
  const chain = new Chain(prefix, right, prefix.length + 1, depth);
  return { kind: 'Logical', offset: left.offset, op: operator, operands: chain as unknown as Expr[] };
}

/** `x IN (v, …)`. */
export const inList = ([operand, t, , values]: [Expr, Token, Token, ListView<Expr>]): InList =>
  inNode(operand, t, listItems(values), false);

/** `x NOT IN (v, …)`. */
export const notInList = ([operand, t, , , values]: [Expr, Token, Token, Token, ListView<Expr>]): InList =>
  inNode(operand, t, listItems(values), true);

function inNode(operand: Expr, t: Token, values: Expr[], isNegated: boolean): InList {
  return nested({ kind: 'InList', offset: operand.offset, operand, values, isNegated }, t, [operand, ...values]);
}

export const unary = ([t, operand]: [Token, Expr]): Unary =>
  nested({ kind: 'Unary', offset: t.offset, op: 'NOT', operand }, t, [operand]);

/** Unary minus; folded into number and duration literals so `-5` is the literal -5. */
export function negate([t, operand]: [Token, Expr]): Expr {
  if (operand.kind === 'Number') return negateNumber(operand, t.offset);
  if (operand.kind === 'Duration') return negatedDuration(operand, t.offset);
  return nested({ kind: 'Unary', offset: t.offset, op: '-', operand }, t, [operand]);
}

/** f() or f(a, …): the function name is lowercased (aggregates are case-insensitive). */
export function call(d: [Token, Token, ListView<Expr> | Token, ...Token[]]): Call {
  const [t, , list] = d;
  const args = 'array' in list ? listItems(list) : [];
  return nested({ kind: 'Call', offset: t.offset, name: t.text.toLowerCase(), args }, t, args);
}

export const callStar = ([t, , star]: [Token, Token, Token]): Call =>
  ({ kind: 'Call', offset: t.offset, name: t.text.toLowerCase(), args: [{ kind: 'Star', offset: star.offset }] });

// ---------------------------------------------------------------------------------------------
// SELECT

export const star = ([t]: [Token]): Star => ({ kind: 'Star', offset: t.offset });

/** `text` and `name` are filled in by `finishStatement`, once the parse is known. */
export const selectColumn = ([expr]: [Expr]): SelectColumn =>
  ({ kind: 'SelectColumn', offset: expr.offset, expr, alias: null, text: '', name: '' });

export const selectColumnAs = ([expr, , alias]: [Expr, Token, Token]): SelectColumn =>
  ({ kind: 'SelectColumn', offset: expr.offset, expr, alias: nameOf(alias), text: '', name: '' });

export const tableRef = ([t]: [Token]): TableRef => ({ kind: 'TableRef', offset: t.offset, name: nameOf(t) });

/** A plain name in GROUP BY: a unit word (`day`, `hour`) is a one-unit bucket, else a column. */
export function groupName([t]: [Token]): GroupItem {
  return unitOf(t.text) === undefined ? column([t]) : unitDuration([t]);
}

export const orderItem = ([expr, dir]: [Expr, Token?]): OrderItem =>
  ({ kind: 'OrderItem', offset: expr.offset, expr, isDescending: dir?.type === 'DESC' });

/** The number of LIMIT / OFFSET: a whole, non-negative, safe integer. */
export function count([, t]: [Token, Token]): number {
  const n = Number(t.text);
  if (!/^\d+$/.test(t.text) || !Number.isSafeInteger(n)) {
    throw new QuerySyntaxError(t.offset, ['a whole number'], `expected a whole number at offset ${t.offset}, found '${t.text}'`);
  }
  return n;
}

/** `[LEFT | RIGHT | FULL] ASOF JOIN sources`. */
export const asofJoin = ([kind, asof, , sources]: [Maybe<Token>, Token, Token, ListView<TableRef | Find>]): AsofJoin =>
  ({ kind: 'AsofJoin', offset: (kind ?? asof).offset, type: (kind?.text.toLowerCase() ?? 'inner') as AsofJoin['type'], sources: listItems(sources) });

/** The IN clause: its ranges and the calendar filters after them. */
interface InClause {
  readonly ranges: Range[];
  readonly calendar: CalendarFilter[];
}

type Filters = [Maybe<CalendarFilter>, Maybe<CalendarFilter>, Maybe<CalendarFilter>];

const presentFilters = (filters: Filters): CalendarFilter[] => filters.filter((f): f is CalendarFilter => f !== null);

/** `IN RANGE(…) [WITH …]`. */
export const inRange = ([, r, ...filters]: [Token, Range, ...Filters]): InClause => ({ ranges: [r], calendar: presentFilters(filters) });

/** `IN [RANGE(…), …] [WITH …]`. */
export const inRangeList = ([, , list, , ...filters]: [Token, Token, ListView<Range>, Token, ...Filters]): InClause =>
  ({ ranges: listItems(list), calendar: presentFilters(filters) });

const CALENDAR_UNITS: Readonly<Record<string, CalendarFilter['unit']>> = { months: 'month', days: 'weekday', time: 'time' };

/** `WITH MONTHS|DAYS|TIME IN (from, to)`. */
export const calendarFilter = ([t, unit, , , from, , to]: [Token, Token, Token, Token, NumberLiteral | TimeOfDay, Token, NumberLiteral | TimeOfDay]): CalendarFilter =>
  ({ kind: 'CalendarFilter', offset: t.offset, unit: CALENDAR_UNITS[unit.text.toLowerCase()]!, from, to });

/** A time-of-day token; the lexer has already checked it. */
export function timeOfDay([t]: [Token]): TimeOfDay {
  const ns = parseTimeOfDay(t.text);
  if (ns === null) throw new QuerySyntaxError(t.offset, [], `invalid time of day '${t.text}' at offset ${t.offset}`);
  return { kind: 'TimeOfDay', offset: t.offset, ns };
}

/** GROUP BY items and the FILL after them. */
interface GroupByClause {
  readonly items: GroupItem[];
  readonly fill: Fill | null;
}

export const groupBy = ([, , items, fill]: [Token, Token, ListView<GroupItem>, Maybe<Fill>]): GroupByClause => ({ items: listItems(items), fill });

/** `FILL(NULL | PREV | LINEAR)`. */
export const fillMode = ([t, , mode]: [Token, Token, Token]): Fill =>
  ({ kind: 'Fill', offset: t.offset, mode: mode.type === 'NULL' ? 'null' : (mode.text.toLowerCase() as 'prev' | 'linear'), value: null });

/** `FILL(number)`. */
export const fillValue = ([t, , value]: [Token, Token, NumberLiteral]): Fill => ({ kind: 'Fill', offset: t.offset, mode: 'value', value });

type SelectData = [
  Token, ListView<SelectColumn | Star>, Token, ListView<TableRef | Find>, Maybe<AsofJoin>, Maybe<InClause>, Maybe<Expr>,
  Maybe<GroupByClause>, Maybe<Expr>, Maybe<ListView<OrderItem>>, Maybe<number>, Maybe<number>,
];

export function select([t, columns, , sources, join, inClause, where, groupBy, having, orderBy, limit, rowOffset]: SelectData): Select {
  return {
    kind: 'Select', offset: t.offset, columns: listItems(columns), sources: listItems(sources), join,
    ranges: inClause?.ranges ?? [], calendar: inClause?.calendar ?? [], where, groupBy: groupBy?.items ?? [],
    fill: groupBy?.fill ?? null, having, orderBy: orderBy === null ? [] : listItems(orderBy), limit, rowOffset,
  };
}

// ---------------------------------------------------------------------------------------------
// FIND

export const find = ([t, , conditions]: [Token, Token, ListView<FindCondition>]): Find =>
  ({ kind: 'Find', offset: t.offset, conditions: listItems(conditions) });

export const findTag = ([t, , tag]: [Token, Token, Token]): FindTag =>
  ({ kind: 'FindTag', offset: t.offset, tag: string([tag]).value, isNegated: false });

export const findNotTag = ([t, , , tag]: [Token, Token, Token, Token]): FindTag =>
  ({ kind: 'FindTag', offset: t.offset, tag: string([tag]).value, isNegated: true });

export const findType = ([t, , type]: [Token, Token, Token]): FindType =>
  ({ kind: 'FindType', offset: t.offset, type: type.text.toLowerCase() as FindType['type'] });

// ---------------------------------------------------------------------------------------------
// CREATE, DROP, INSERT, SHOW

export const columnDefinition = ([name, type]: [Token, Token]): ColumnDefinition =>
  ({ kind: 'ColumnDefinition', offset: name.offset, name: nameOf(name), type: type.text.toUpperCase() as ColumnType });

type CreateData = [Token, Token, Maybe<Token>, Token, Token, ListView<ColumnDefinition>, Token, Maybe<Duration>, Maybe<string[]>, Maybe<Duration>];

/** A leading `$timestamp TIMESTAMP` is dropped (the index is implicit); elsewhere it is an error. */
export function createTable([t, , ifNotExists, name, , list, , shardSize, tags, ttl]: CreateData): CreateTable {
  const definitions = listItems(list);
  const [head] = definitions;
  const hasTimestampColumn = head?.name === '$timestamp';
  if (hasTimestampColumn && head.type !== 'TIMESTAMP') {
    throw new QuerySyntaxError(head.offset, ['TIMESTAMP'], `$timestamp must have type TIMESTAMP (at offset ${head.offset})`);
  }
  const columns = hasTimestampColumn ? definitions.slice(1) : definitions;
  const misplaced = columns.find((c) => c.name === '$timestamp');
  if (misplaced !== undefined) {
    throw new QuerySyntaxError(misplaced.offset, [], `$timestamp may only be the first column (at offset ${misplaced.offset})`);
  }
  return {
    kind: 'CreateTable', offset: t.offset, name: nameOf(name), nameOffset: name.offset, hasIfNotExists: ifNotExists !== null, columns,
    hasTimestampColumn, shardSize, tags: tags ?? [], ttl,
  };
}

/** `WITH TAGS = [a, 'b', "c"]`: the tag names. */
export const tagList = ([, , , , list]: [Token, Token, Token, Token, ListView<Token>]): string[] =>
  listItems(list).map((t) => (t.type === 'string' ? unquoteString(t.text) : nameOf(t)));

/**
 * `WITH TAGS = '[a, b]'`, as QuasarDB's documentation writes it: the string holds a bracketed
 * list of names, each plain or quoted.
 */
export function tagListText([, , , t]: [Token, Token, Token, Token]): string[] {
  const text = unquoteString(t.text).trim();
  const fail = (why: string) => new QuerySyntaxError(t.offset, [], `WITH TAGS: ${why} (at offset ${t.offset})`);
  if (!text.startsWith('[') || !text.endsWith(']')) throw fail(`expected a bracketed list of tags such as '[ops, prod]', got ${t.text}`);
  const inner = text.slice(1, -1).trim();
  if (inner === '') throw fail('the list of tags is empty');
  return inner.split(',').map((part) => {
    const tag = part.trim().replace(/^(["'])(.*)\1$/, '$2');
    if (tag === '') throw fail('a tag name is empty');
    return tag;
  });
}

/** The text of a single-quoted string token without its quotes (`''` is one quote). */
function unquoteString(text: string): string {
  return text.slice(1, -1).replaceAll("''", "'");
}

export const dropTable = ([t, , ifExists, name]: [Token, Token, Maybe<Token>, Token]): DropTable =>
  ({ kind: 'DropTable', offset: t.offset, name: nameOf(name), nameOffset: name.offset, hasIfExists: ifExists !== null });

export const createView = ([t, , , ifNotExists, name, ttl, , select]: [Token, Token, Token, Maybe<Token>, Token, Maybe<Duration>, Token, Select]): CreateView =>
  ({ kind: 'CreateView', offset: t.offset, name: nameOf(name), nameOffset: name.offset, hasIfNotExists: ifNotExists !== null, ttl, select });

export const dropView = ([t, , , ifExists, name]: [Token, Token, Token, Maybe<Token>, Token]): DropView =>
  ({ kind: 'DropView', offset: t.offset, name: nameOf(name), nameOffset: name.offset, hasIfExists: ifExists !== null });

export const addFirst = ([, column]: [Token, ColumnDefinition]): ListView<ColumnDefinition> => startList(column);
export const addNext = ([columns, , , column]: [ListView<ColumnDefinition>, Token, Maybe<Token>, ColumnDefinition]): ListView<ColumnDefinition> =>
  extendList(columns, column);

export function alterTable([t, , name, list]: [Token, Token, Token, ListView<ColumnDefinition>]): AlterTable {
  const columns = listItems(list);
  const reserved = columns.find((c) => c.name.startsWith('$'));
  if (reserved !== undefined) throw new QuerySyntaxError(reserved.offset, [], `column name '${reserved.name}' is reserved (at offset ${reserved.offset})`);
  return { kind: 'AlterTable', offset: t.offset, name: nameOf(name), nameOffset: name.offset, columns };
}

export const setTtl = ([t, , name, , ttl]: [Token, Token, Token, Token, Duration]): AlterTtl =>
  ({ kind: 'AlterTtl', offset: t.offset, name: nameOf(name), nameOffset: name.offset, ttl });

export const dropTtl = ([t, , name]: [Token, Token, Token]): AlterTtl =>
  ({ kind: 'AlterTtl', offset: t.offset, name: nameOf(name), nameOffset: name.offset, ttl: null });

// ---------------------------------------------------------------------------------------------
// DELETE

export function deleteRows([t, , sources, inClause, where]: [Token, Token, ListView<TableRef | Find>, InClause, Maybe<Expr>]): Delete {
  return { kind: 'Delete', offset: t.offset, sources: listItems(sources), ranges: inClause.ranges, calendar: inClause.calendar, where: where === null ? null : duplicateOf(where) ?? where };
}

/**
 * `WHERE DUPLICATE` or `WHERE DUPLICATE(a, b)`, which parse as a column and a call: the
 * DUPLICATE clause they stand for, or null for an ordinary condition.
 */
function duplicateOf(e: Expr): Duplicate | null {
  if (e.kind === 'Column' && e.name.toLowerCase() === 'duplicate') return { kind: 'Duplicate', offset: e.offset, columns: null };
  if (e.kind !== 'Call' || e.name.toLowerCase() !== 'duplicate') return null;
  const columns = e.args.map((a) => {
    if (a.kind !== 'Column') throw new QuerySyntaxError(a.offset, ['a column'], `DUPLICATE takes column names (at offset ${a.offset})`);
    return a;
  });
  return { kind: 'Duplicate', offset: e.offset, columns: columns.length === 0 ? null : columns };
}

type InsertData = [Token, Token, Token, Token, ListView<Token>, Token, Token, ListView<InsertValue[]>];

export const insert = ([t, , table, , names, , , rows]: InsertData): Insert =>
  ({ kind: 'Insert', offset: t.offset, table: nameOf(table), tableOffset: table.offset, columns: listItems(names).map((n) => column([n])), rows: listItems(rows) });

/** One VALUES tuple: `( values )`. */
export const row = ([, values]: [Token, ListView<InsertValue>]): InsertValue[] => listItems(values);

export const show = ([t, name]: [Token, Token]): Show => ({ kind: 'Show', offset: t.offset, table: nameOf(name), tableOffset: name.offset });

// ---------------------------------------------------------------------------------------------
// After the parse

/**
 * Completes the one parse that survived, in one pass over its expressions: AND/OR chains become
 * operand arrays and select items get their normalized text. Doing this per completion instead
 * would cost O(n²) for long chains (see `Chain`). The walk recurses only as deep as the real
 * nesting, which MAX_EXPRESSION_DEPTH bounds.
 */
export function finishStatement(s: Statement): Statement {
  if (s.kind === 'Delete' && s.where !== null && s.where.kind !== 'Duplicate') finishExpr(s.where);
  if (s.kind === 'CreateView') finishStatement(s.select);
  if (s.kind !== 'Select') return s;
  for (const c of s.columns) {
    if (c.kind !== 'SelectColumn') continue;
    finishExpr(c.expr);
    const text = formatExpr(c.expr);
    Object.assign(c, { text, name: c.alias ?? text });
  }
  for (const e of [s.where, s.having, ...s.orderBy.map((o) => o.expr)]) if (e !== null) finishExpr(e);
  return s;
}

function finishExpr(e: Expr | Star): void {
  switch (e.kind) {
    case 'Logical': {
      const chain = pendingChain(e);
      if (chain !== null) {
        const operands = new Array<Expr>(chain.length);
        for (let c: Chain | null = chain; c !== null; c = c.prev) operands[c.length - 1] = c.item;
        Object.assign(e, { operands });
      }
      for (const o of e.operands) finishExpr(o);
      return;
    }
    case 'Binary': finishExpr(e.left); finishExpr(e.right); return;
    case 'Unary': finishExpr(e.operand); return;
    case 'Call': for (const a of e.args) finishExpr(a); return;
    case 'InList': finishExpr(e.operand); for (const v of e.values) finishExpr(v); return;
    default: return;
  }
}
