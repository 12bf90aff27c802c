// CREATE TABLE, ALTER TABLE … ADD COLUMN | SET TTL | DROP TTL, DROP TABLE and CREATE | DROP
// MATERIALIZED VIEW through the catalog's write path, durable when the promise resolves. Column
// names must be unique and may not start with `$` (reserved for `$timestamp` and `$table`);
// SHARD_SIZE must be a fixed duration of at least a second (shards are fixed time slices); a TTL
// must be a positive duration (months allowed: the cutoff follows the calendar). WITH TAGS
// attaches the tags in the same write as the create. A view's SELECT is checked here with the
// offsets of the statement (plan/plan-view.ts); the write carries its text.
import type { AlterTable, AlterTtl, CreateTable, CreateView, DropTable, DropView, Duration } from '../../../grammar/index.js';
import { viewShape } from '../plan/plan-view.js';
import type { ColumnDef, TimeToLive } from '../../types.js';
import { isSvcError, SvcError } from '../../errors.js';
import { shardSizeProblem } from '../../input-checks.js';
import type { QueryCatalog } from '../catalog.js';
import { semanticError } from '../query-errors.js';
import type { QueryResult } from '../result.js';

const OK: QueryResult = { kind: 'ok', tables: [], scannedRowsCount: 0 };

export async function runCreate(ast: CreateTable, catalog: QueryCatalog): Promise<QueryResult> {
  const columns: ColumnDef[] = [];
  for (const c of ast.columns) {
    if (c.name.startsWith('$')) throw semanticError(`column name '${c.name}' is reserved`, c.offset);
    if (columns.some((d) => d.name === c.name)) throw semanticError(`column '${c.name}' is listed twice`, c.offset);
    columns.push({ name: c.name, type: c.type });
  }
  let shardSize: bigint | undefined;
  if (ast.shardSize !== null) {
    const d = ast.shardSize;
    if (d.months !== 0 || d.nanos <= 0n) throw semanticError('SHARD_SIZE must be a positive duration without months or years', d.offset);
    const problem = shardSizeProblem(d.nanos);
    if (problem !== null) throw semanticError(`SHARD_SIZE: ${problem}`, d.offset);
    shardSize = d.nanos;
  }
  const ttl = ast.ttl === null ? undefined : timeToLive(ast.ttl);
  const tags = ast.tags.length === 0 ? undefined : [...new Set(ast.tags)];
  await atName(ast.nameOffset, catalog.write([{ kind: 'createTable', name: ast.name, columns, shardSize, ifNotExists: ast.hasIfNotExists, ttl, tags }]));
  return OK;
}

/** ALTER TABLE … SET TTL d | DROP TTL: rows already there follow the new cutoff at once. */
export async function runAlterTtl(ast: AlterTtl, catalog: QueryCatalog): Promise<QueryResult> {
  await atName(ast.nameOffset, catalog.write([{ kind: 'setTtl', table: ast.name, ttl: ast.ttl === null ? null : timeToLive(ast.ttl) }]));
  return OK;
}

/** A TTL duration: positive (a zero or negative one would hide every row, or none). */
function timeToLive(d: Duration): TimeToLive {
  if (d.months < 0 || d.nanos < 0n || (d.months === 0 && d.nanos === 0n)) throw semanticError('TTL must be a positive duration', d.offset);
  return { months: d.months, nanos: d.nanos };
}

/** ALTER TABLE … ADD COLUMN: a column the table already has is an error (at its name). */
export async function runAlter(ast: AlterTable, catalog: QueryCatalog): Promise<QueryResult> {
  const columns: ColumnDef[] = [];
  for (const c of ast.columns) {
    if (columns.some((d) => d.name === c.name)) throw semanticError(`column '${c.name}' is listed twice`, c.offset);
    columns.push({ name: c.name, type: c.type });
  }
  await atName(ast.nameOffset, catalog.write([{ kind: 'addColumns', table: ast.name, columns }]));
  return OK;
}

export async function runDrop(ast: DropTable, catalog: QueryCatalog): Promise<QueryResult> {
  await atName(ast.nameOffset, catalog.write([{ kind: 'dropTable', name: ast.name, ifExists: ast.hasIfExists }]));
  return OK;
}

export async function runCreateView(ast: CreateView, catalog: QueryCatalog, text: string): Promise<QueryResult> {
  const { source } = viewShape(ast.select, (name) => catalog.table(name));
  const ttl = ast.ttl === null ? undefined : timeToLive(ast.ttl);
  const select = text.slice(ast.select.offset).trim().replace(/;$/, '').trimEnd();
  await atName(ast.nameOffset, catalog.write([{ kind: 'createView', name: ast.name, source, select, ifNotExists: ast.hasIfNotExists, ttl }]));
  return OK;
}

export async function runDropView(ast: DropView, catalog: QueryCatalog): Promise<QueryResult> {
  await atName(ast.nameOffset, catalog.write([{ kind: 'dropView', name: ast.name, ifExists: ast.hasIfExists }]));
  return OK;
}

/** The catalog's errors (alias exists, no such table) point at the table name in the query. */
async function atName<T>(offset: number, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (isSvcError(e) && e.position === undefined) throw new SvcError(e.code, e.message, { position: offset, cause: e });
    throw e;
  }
}
