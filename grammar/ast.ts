// The abstract syntax tree of the svc query language (SPEC §6): one union of nodes tagged by
// `readonly kind` (PascalCase). Every node carries `offset`, the character offset of its first
// token in the query text, so later stages (the executor) can report errors at the right place.
// Absent optional parts are `null` (never `undefined`), so nodes are easy to build and compare.

/** A column type of CREATE TABLE (SPEC §2). `SYMBOL(name)` is accepted; the name is ignored. */
export type ColumnType = 'DOUBLE' | 'INT64' | 'TIMESTAMP' | 'STRING' | 'BLOB' | 'SYMBOL';

/** Bases of time points that depend on the moment the query runs; resolved at execution. */
export type RelativeTimeBase = 'now' | 'today' | 'yesterday' | 'tomorrow';

/** Units of durations that follow the calendar when grouping (`d` and `w` align to UTC days and
 * Monday-start weeks; `mon` and `y` also have variable length). */
export type CalendarUnit = 'd' | 'w' | 'mon' | 'y';

// ---------------------------------------------------------------------------------------------
// Time

/**
 * A point in time fixed at parse time: `2017`, `2017-01-01T10:00:35.5Z`, `epoch`,
 * `end_of_time` (= int64 max). `ns` is nanoseconds since the UNIX epoch, UTC.
 */
export interface AbsoluteTimePoint {
  readonly kind: 'TimePoint';
  readonly offset: number;
  readonly base: 'absolute';
  readonly ns: bigint;
}

/** `now`, `today`, `yesterday`, `tomorrow`: resolved with `resolveTimePoint(tp, nowNs)`. */
export interface RelativeTimePoint {
  readonly kind: 'TimePoint';
  readonly offset: number;
  readonly base: RelativeTimeBase;
}

export type TimePoint = AbsoluteTimePoint | RelativeTimePoint;

/**
 * A duration such as `1h30min`, `1y 2mon`, `-1s` or a bare unit (`day`).
 * `months` counts calendar months (`mon` = 1, `y` = 12); `nanos` the fixed part (`d` = 24 h,
 * `w` = 7 d: UTC has no daylight saving). Both carry the sign (`-1y 2mon` → months = -14).
 * `calendarUnit` is the largest unit written when it is `d`, `w`, `mon` or `y` (else null); it
 * tells `bucketStart` to align buckets to calendar boundaries (weeks start on Monday).
 */
export interface Duration {
  readonly kind: 'Duration';
  readonly offset: number;
  readonly months: number;
  readonly nanos: bigint;
  readonly calendarUnit: CalendarUnit | null;
}

/**
 * `RANGE(start, end)`: start-inclusive, end-exclusive. `end` is either a time point or an offset
 * from `start`; a negative offset goes back (`RANGE(2017, -1s)` = the last second of 2016).
 * Use `resolveRange(range, nowNs)` to get `[startNs, endNs)`.
 */
export interface Range {
  readonly kind: 'Range';
  readonly offset: number;
  readonly start: TimePoint;
  readonly end: TimePoint | Duration;
}

/** `hh:mm[:ss[.fraction]]` of `WITH TIME IN`: nanoseconds since midnight UTC (`24:00` allowed). */
export interface TimeOfDay {
  readonly kind: 'TimeOfDay';
  readonly offset: number;
  readonly ns: bigint;
}

/**
 * `WITH MONTHS IN (m1, m2)` (months 1–12), `WITH DAYS IN (d1, d2)` (ISO weekdays, 1 = Monday) or
 * `WITH TIME IN (t1, t2)`: inside each range, keeps the times from the first value (inclusive)
 * to the second (exclusive); a reversed pair wraps around (`(22:00, 06:00)` = the night). The
 * planner checks the numbers (whole, in range).
 */
export interface CalendarFilter {
  readonly kind: 'CalendarFilter';
  readonly offset: number;
  readonly unit: 'month' | 'weekday' | 'time';
  readonly from: NumberLiteral | TimeOfDay;
  readonly to: NumberLiteral | TimeOfDay;
}

// ---------------------------------------------------------------------------------------------
// Expressions

/** A column reference, including the pseudo-columns `$timestamp` and `$table`. */
export interface ColumnRef {
  readonly kind: 'Column';
  readonly offset: number;
  readonly name: string;
}

/** An integer literal: exact, as written (int64 range is checked by the executor). */
export interface IntegerLiteral {
  readonly kind: 'Number';
  readonly offset: number;
  readonly isInteger: true;
  readonly value: bigint;
  /** The literal as written (with a leading '-' when negated), used in output names. */
  readonly text: string;
}

/** A literal with a fraction or an exponent: a double. */
export interface DoubleLiteral {
  readonly kind: 'Number';
  readonly offset: number;
  readonly isInteger: false;
  readonly value: number;
  readonly text: string;
}

export type NumberLiteral = IntegerLiteral | DoubleLiteral;

/** A single-quoted string, unescaped (`'it''s'` → `it's`). */
export interface StringLiteral {
  readonly kind: 'String';
  readonly offset: number;
  readonly value: string;
}

/** `NULL`. */
export interface NullLiteral {
  readonly kind: 'Null';
  readonly offset: number;
}

/** `TRUE` or `FALSE` (a BOOLEAN value). */
export interface BooleanLiteral {
  readonly kind: 'Boolean';
  readonly offset: number;
  readonly value: boolean;
}

export type BinaryOperator =
  | '+' | '-' | '*' | '/'
  | '=' | '!=' | '<' | '<=' | '>' | '>='
  | '~' | '!~' | '~*' | '!~*';

export interface Binary {
  readonly kind: 'Binary';
  readonly offset: number;
  readonly op: BinaryOperator;
  readonly left: Expr;
  readonly right: Expr;
}

/** `NOT x` or `-x`. A minus applied directly to a number or duration literal is folded into
 * the literal (`-5` is the Number -5, `-1h` a negative Duration), so no Unary wraps literals. */
export interface Unary {
  readonly kind: 'Unary';
  readonly offset: number;
  readonly op: 'NOT' | '-';
  readonly operand: Expr;
}

/** `*`: a select-list item (all columns) or the argument of `count(*)`. */
export interface Star {
  readonly kind: 'Star';
  readonly offset: number;
}

/** A function call, in practice an aggregate: `sum(close)`, `count(*)`. `name` is lowercased. */
export interface Call {
  readonly kind: 'Call';
  readonly offset: number;
  readonly name: string;
  readonly args: readonly (Expr | Star)[];
}

/**
 * `a AND b AND …` or `a OR b OR …`: two or more operands of one logical operator. A chain is one
 * node however long (`a OR b OR c` and `(a OR b) OR c` alike: AND and OR are associative), so a
 * WHERE of 10,000 terms is a wide node, not a tree 10,000 levels deep.
 */
export interface Logical {
  readonly kind: 'Logical';
  readonly offset: number;
  readonly op: 'AND' | 'OR';
  readonly operands: readonly Expr[];
}

/**
 * `x IN (v, …)` or `x NOT IN (v, …)`: `x IN (a, b)` means `x = a OR x = b` and `x NOT IN (a, b)`
 * means `x != a AND x != b`, so a null `x` satisfies neither (SPEC §6: comparisons with null are
 * false), and a NULL in the list never matches.
 */
export interface InList {
  readonly kind: 'InList';
  readonly offset: number;
  readonly operand: Expr;
  readonly values: readonly Expr[];
  readonly isNegated: boolean;
}

/** Any expression. Durations appear in expressions only as operands (`now - 1h`). */
export type Expr =
  | ColumnRef
  | NumberLiteral
  | StringLiteral
  | NullLiteral
  | BooleanLiteral
  | TimePoint
  | Duration
  | Binary
  | Logical
  | InList
  | Unary
  | Call;

// ---------------------------------------------------------------------------------------------
// SELECT

/** One `expr [AS name]` of the select list. */
export interface SelectColumn {
  readonly kind: 'SelectColumn';
  readonly offset: number;
  readonly expr: Expr;
  /** The `AS` name, or null. */
  readonly alias: string | null;
  /** The expression's normalized text (SPEC §6): `sum(close)`, `(sum(x)/count(x))`; function
   * names lowercased, no spaces, one pair of parentheses per binary operation, AND/OR chain,
   * IN list and NOT. */
  readonly text: string;
  /** The output column name: `alias ?? text`. */
  readonly name: string;
}

/** A table named in FROM. */
export interface TableRef {
  readonly kind: 'TableRef';
  readonly offset: number;
  readonly name: string;
}

/** One `expr [ASC|DESC]` of ORDER BY. */
export interface OrderItem {
  readonly kind: 'OrderItem';
  readonly offset: number;
  readonly expr: Expr;
  readonly isDescending: boolean;
}

/**
 * `GROUP BY` item: a duration (bucket), or a column (`$table` groups by source table).
 * A bare unit word (`day`, `hour`, `min`, `y`, …) is a duration; quote it (`"day"`) for a column.
 * The executor should reject durations for which `isBucketDuration` is false (`1mon 1d`, `0s`).
 */
export type GroupItem = Duration | ColumnRef;

/**
 * `[LEFT | RIGHT | FULL] ASOF JOIN sources`: each source of FROM is joined, as of its rows'
 * times, with these (the last row at or before each time). `type` is 'inner' without a word.
 */
export interface AsofJoin {
  readonly kind: 'AsofJoin';
  readonly offset: number;
  readonly type: 'inner' | 'left' | 'right' | 'full';
  readonly sources: readonly (TableRef | Find)[];
}

/**
 * `FILL(NULL | PREV | LINEAR | number)` after `GROUP BY duration`: every bucket of the range is
 * emitted, the empty ones filled. `value` is the number of `mode` 'value', else null.
 */
export interface Fill {
  readonly kind: 'Fill';
  readonly offset: number;
  readonly mode: 'null' | 'prev' | 'linear' | 'value';
  readonly value: NumberLiteral | null;
}

export interface Select {
  readonly kind: 'Select';
  readonly offset: number;
  readonly columns: readonly (SelectColumn | Star)[];
  readonly sources: readonly (TableRef | Find)[];
  /** The ASOF JOIN clause, or null. */
  readonly join: AsofJoin | null;
  /** `IN RANGE(…)` or `IN [RANGE(…), …]`; empty = all rows. */
  readonly ranges: readonly Range[];
  /** The `WITH … IN` filters of the IN clause, in the order written (months, days, time). */
  readonly calendar: readonly CalendarFilter[];
  readonly where: Expr | null;
  readonly groupBy: readonly GroupItem[];
  /** `FILL(…)` after GROUP BY, or null. */
  readonly fill: Fill | null;
  readonly having: Expr | null;
  readonly orderBy: readonly OrderItem[];
  readonly limit: number | null;
  /** `OFFSET n` (named so it does not clash with the node's source `offset`). */
  readonly rowOffset: number | null;
}

// ---------------------------------------------------------------------------------------------
// FIND

/** `tag='t'` or `NOT tag='t'`. */
export interface FindTag {
  readonly kind: 'FindTag';
  readonly offset: number;
  readonly tag: string;
  readonly isNegated: boolean;
}

/** `type=blob|tag|ts`. */
export interface FindType {
  readonly kind: 'FindType';
  readonly offset: number;
  readonly type: 'blob' | 'tag' | 'ts';
}

export type FindCondition = FindTag | FindType;

/** `FIND(cond AND cond …)`: a statement of its own, or a source of SELECT. */
export interface Find {
  readonly kind: 'Find';
  readonly offset: number;
  readonly conditions: readonly FindCondition[];
}

// ---------------------------------------------------------------------------------------------
// Other statements

/** One `name TYPE` of CREATE TABLE. */
export interface ColumnDefinition {
  readonly kind: 'ColumnDefinition';
  readonly offset: number;
  readonly name: string;
  readonly type: ColumnType;
}

export interface CreateTable {
  readonly kind: 'CreateTable';
  readonly offset: number;
  readonly name: string;
  /** Offset of the table name, where errors about the table point. */
  readonly nameOffset: number;
  readonly hasIfNotExists: boolean;
  /** The table's columns, without the implicit `$timestamp`. */
  readonly columns: readonly ColumnDefinition[];
  /** True when the column list started with an explicit `$timestamp TIMESTAMP` (dropped). */
  readonly hasTimestampColumn: boolean;
  /** `SHARD_SIZE [=] duration`, or null for the default (1 day). */
  readonly shardSize: Duration | null;
  /** `WITH TAGS=[t, …]` (or QuasarDB's `WITH TAGS='[t, …]'`): tags attached to the new table. */
  readonly tags: readonly string[];
  /** `TTL duration`: rows older than now − ttl are gone (SPEC §14); null keeps rows forever. */
  readonly ttl: Duration | null;
}

export interface DropTable {
  readonly kind: 'DropTable';
  readonly offset: number;
  readonly name: string;
  /** Offset of the table name, where errors about the table point. */
  readonly nameOffset: number;
  readonly hasIfExists: boolean;
}

/** A value of INSERT … VALUES: a literal (negative numbers folded), a time point or NULL. */
export type InsertValue = NumberLiteral | StringLiteral | NullLiteral | BooleanLiteral | TimePoint;

export interface Insert {
  readonly kind: 'Insert';
  readonly offset: number;
  readonly table: string;
  /** Offset of the table name, where errors about the table point. */
  readonly tableOffset: number;
  /** Column names as listed (usually starting with `$timestamp`). */
  readonly columns: readonly ColumnRef[];
  /** One array per `(…)` tuple; the parser does not check tuple lengths. */
  readonly rows: readonly (readonly InsertValue[])[];
}

/** `SHOW name`: the table's columns and types. */
export interface Show {
  readonly kind: 'Show';
  readonly offset: number;
  readonly table: string;
  /** Offset of the table name, where errors about the table point. */
  readonly tableOffset: number;
}

/** ALTER TABLE name ADD COLUMN c TYPE [, …]: columns appended to the table's schema. */
export interface AlterTable {
  readonly kind: 'AlterTable';
  readonly offset: number;
  readonly name: string;
  /** Offset of the table name, where errors about the table point. */
  readonly nameOffset: number;
  readonly columns: readonly ColumnDefinition[];
}

/** ALTER TABLE name SET TTL duration | DROP TTL (svc's extension): the table's time to live. */
export interface AlterTtl {
  readonly kind: 'AlterTtl';
  readonly offset: number;
  readonly name: string;
  /** Offset of the table name, where errors about the table point. */
  readonly nameOffset: number;
  /** The new TTL, or null for DROP TTL (rows are kept forever). */
  readonly ttl: Duration | null;
}

/** `WHERE DUPLICATE [(cols)]` of DELETE: every row but the first of each set equal on `columns`. */
export interface Duplicate {
  readonly kind: 'Duplicate';
  readonly offset: number;
  /** The columns compared (`$timestamp` among them); null: every column. */
  readonly columns: readonly ColumnRef[] | null;
}

/**
 * DELETE FROM sources IN ranges [WITH … IN …] [WHERE condition | DUPLICATE[(cols)]] (QuasarDB):
 * the rows of each source table inside the ranges and calendar filters that match.
 */
export interface Delete {
  readonly kind: 'Delete';
  readonly offset: number;
  readonly sources: readonly (TableRef | Find)[];
  /** The ranges (at least one: DELETE needs IN). */
  readonly ranges: readonly Range[];
  readonly calendar: readonly CalendarFilter[];
  /** A row condition, DUPLICATE, or null for every row of the ranges. */
  readonly where: Expr | Duplicate | null;
}

/**
 * CREATE MATERIALIZED VIEW [IF NOT EXISTS] name [TTL d] AS select (svc, SPEC §15): a table-like
 * entry whose rows are kept equal to what `select` answers over its one source table.
 */
export interface CreateView {
  readonly kind: 'CreateView';
  readonly offset: number;
  readonly name: string;
  /** Offset of the view name, where errors about the view point. */
  readonly nameOffset: number;
  readonly hasIfNotExists: boolean;
  /** The view's own time to live (SPEC §14): its rows older than now − ttl are gone; null keeps them. */
  readonly ttl: Duration | null;
  /** The definition; `select.offset` is where its text starts in the statement. */
  readonly select: Select;
}

/** DROP MATERIALIZED VIEW [IF EXISTS] name. */
export interface DropView {
  readonly kind: 'DropView';
  readonly offset: number;
  readonly name: string;
  /** Offset of the view name, where errors about the view point. */
  readonly nameOffset: number;
  readonly hasIfExists: boolean;
}

export type Statement = Select | Find | CreateTable | DropTable | CreateView | DropView | AlterTable | AlterTtl | Insert | Show | Delete;

/** Every node of the tree. */
export type Node =
  | Statement
  | Expr
  | Star
  | Range
  | TimeOfDay
  | CalendarFilter
  | AsofJoin
  | Fill
  | SelectColumn
  | TableRef
  | OrderItem
  | FindCondition
  | ColumnDefinition
  | Duplicate;

export type NodeKind = Node['kind'];
