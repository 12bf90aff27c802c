// Validation of one write: its operations, in order, become WAL records or fail, each checked
// against the catalog as the earlier operations of the same write leave it (a table created by
// one op takes the rows of the next). Nothing here changes the catalog: the records are applied
// only after they are logged, and their apply cannot fail — every check happens here, once
// (InfluxDB 3's validator: "steps following this should be infallible").
import type { EntryStore } from '../catalog/entry-store.js';
import { isExpired } from '../catalog/expiry.js';
import type { WalRecord } from '../durability/wal/records.js';
import { SvcError } from '../errors.js';
import { checkAlias, checkColumns, incompatible, shardSizeProblem } from '../input-checks.js';
import type { NormalizedBatch } from '../storage/batch-input.js';
import { nullColumn } from '../storage/column-values.js';
import type { ColumnValues } from '../storage/column-values.js';
import { DAY_NS } from '../storage/table.js';
import type { ColumnDef, TimeToLive } from '../types.js';
import type { TableRows, WriteOp, WriteOpKind } from './write-ops.js';

type Validator<K extends WriteOpKind> = (v: Validation, op: Extract<WriteOp, { kind: K }>) => boolean;

/** An entry as the write sees it: the store's, or what an earlier op of the write made it. */
type Staged =
  | { readonly type: 'blob'; readonly expiry: number }
  | { readonly type: 'tag' }
  /** `source`: a materialized view over that table (its rows are computed, never written). */
  | { readonly type: 'ts'; readonly columns: readonly ColumnDef[]; readonly source?: string };

export interface ValidatedWrite {
  readonly records: WalRecord[];
  /** Per op: whether it changes anything (false: an existing table kept, a tag already attached, …). */
  readonly changes: boolean[];
}

/** A TTL must be a positive duration (a zero or negative one would hide every row, or none). */
function checkTtl(ttl: TimeToLive): void {
  const isWhole = Number.isSafeInteger(ttl.months) && typeof ttl.nanos === 'bigint';
  if (!isWhole || ttl.months < 0 || ttl.nanos < 0n || (ttl.months === 0 && ttl.nanos === 0n)) {
    throw new SvcError('InvalidArgument', 'a TTL must be a positive duration');
  }
}

/** The records of `ops` against `store` at `now` (UNIX seconds), or the first op's error. */
export function validateOps(store: EntryStore, ops: readonly WriteOp[], now: number): ValidatedWrite {
  const v = new Validation(store, now);
  const changes = ops.map((op) => v.op(op));
  return { records: v.records, changes };
}

/**
 * Memory an op's data takes once applied, as the budget admits it (before validation): 8 bytes
 * per number and its null mask, 32 per string or symbol value, blob bytes.
 */
export function opBytes(op: WriteOp): number {
  if (op.kind === 'putBlob') return op.data?.length ?? 0;
  if (op.kind !== 'insert') return 0;
  let bytes = op.rows?.ts?.byteLength ?? 0;
  for (const col of Object.values(op.rows?.columns ?? {})) {
    if (typeof col !== 'object' || col === null || !Array.isArray(col.values) && !ArrayBuffer.isView(col.values)) continue;
    if (col.type === 'BLOB') for (const v of col.values) bytes += 32 + (v?.byteLength ?? 0);
    else if ('nulls' in col) bytes += col.values.byteLength + (col.nulls?.byteLength ?? 0);
    else bytes += col.values.length * 32;
  }
  return bytes;
}

class Validation {
  readonly records: WalRecord[] = [];
  /** Entries the write created (a Staged) or removed (null). */
  private readonly entries = new Map<string, Staged | null>();
  /** Tag attachments the write changed, by `alias\0tag`. */
  private readonly links = new Map<string, boolean>();

  constructor(private readonly store: EntryStore, private readonly now: number) {}

  op(op: WriteOp): boolean {
    // The types rule out an unknown kind, but a JavaScript caller of Database.write is not checked.
    if (!Object.hasOwn(Validation.OPS, op.kind)) throw new Error(`unexpected write op ${JSON.stringify(op)}`);
    return (Validation.OPS[op.kind] as Validator<WriteOpKind>)(this, op);
  }

  /**
   * One validator per op kind, in a table the compiler proves complete: a new kind of write gets
   * its own check or does not build. Each returns whether its op changes anything.
   */
  private static readonly OPS: { readonly [K in WriteOpKind]: Validator<K> } = {
    createTable: (v, op) => v.createTable(op.name, op.columns, op.shardSize ?? DAY_NS, op.ifNotExists === true, op.ttl ?? null, op.tags ?? []),
    setTtl: (v, op) => {
      v.table(op.table);
      if (op.ttl !== null) checkTtl(op.ttl);
      v.records.push({ kind: 'TableSetTtl', name: op.table, ttl: op.ttl });
      return true;
    },
    deleteRows: (v, op) => {
      v.writable(op.table, 'DELETE from');
      v.records.push({ kind: 'RowsDelete', name: op.table, statement: op.statement, nowNs: op.nowNs, id: op.id });
      return true;
    },
    dropShards: (v, op) => {
      v.table(op.table);
      v.records.push({ kind: 'ShardsDrop', name: op.table, before: op.before });
      return true;
    },
    dropTable: (v, op) => v.dropTable(op.name, op.ifExists === true),
    createView: (v, op) => v.createView(op.name, op.source, op.select, op.ifNotExists === true, op.ttl ?? null),
    dropView: (v, op) => v.dropView(op.name, op.ifExists === true),
    addColumns: (v, op) => v.addColumns(op.table, op.columns, op.ifMissing === true),
    insert: (v, op) => v.insert(op.table, op.rows),
    putBlob: (v, op) => v.putBlob(op.alias, op.data, op.mime, op.expiry, op.create),
    remove: (v, op) => {
      v.entry(op.alias);
      v.checkNoViews(op.alias);
      v.remove(op.alias);
      return true;
    },
    setExpiry: (v, op) => v.setExpiry(op.alias, op.expiry),
    attachTag: (v, op) => v.attachTag(op.alias, op.tag),
    detachTag: (v, op) => v.detachTag(op.alias, op.tag),
    sweep: (v, op) => v.sweep(op.aliases),
  };

  private createTable(name: string, columns: readonly ColumnDef[], shardSize: bigint, ifNotExists: boolean, ttl: TimeToLive | null, tags: readonly string[]): boolean {
    checkAlias(name);
    const problem = shardSizeProblem(shardSize);
    if (problem !== null) throw new SvcError('InvalidArgument', problem);
    checkColumns(columns);
    if (ttl !== null) checkTtl(ttl);
    const existing = this.claim(name);
    if (existing !== undefined) {
      if (ifNotExists && existing.type === 'ts') return false;
      throw new SvcError('AliasAlreadyExists', `alias '${name}' already exists`);
    }
    const defs = columns.map((c) => ({ name: c.name, type: c.type }));
    this.entries.set(name, { type: 'ts', columns: defs });
    this.records.push({ kind: 'TableCreate', name, columns: defs, shardSize, ...(ttl === null ? {} : { ttl }) });
    // WITH TAGS: attached in the same write, so a table never exists without its tags.
    for (const tag of tags) this.attachTag(name, tag);
    return true;
  }

  /** The live table `name` (TableNotFound, or IncompatibleType for another entry). */
  table(name: string): Staged & { type: 'ts' } {
    const e = this.live(name);
    if (e === undefined) throw new SvcError('TableNotFound', `table '${name}' does not exist`);
    if (e.type !== 'ts') throw incompatible(name, e.type, 'ts');
    return e;
  }

  /** The live table `name` whose rows a write changes: a materialized view is refused (its rows are computed). */
  writable(name: string, what: string): Staged & { type: 'ts' } {
    const e = this.table(name);
    if (e.source !== undefined) {
      throw new SvcError('IncompatibleType', `'${name}' is a materialized view: its rows are computed from table '${e.source}'; ${what} '${e.source}' instead`);
    }
    return e;
  }

  /** Refuses to remove a table that materialized views still read (those removed by this write aside). */
  checkNoViews(name: string): void {
    const views = this.store.viewsOf(name).map((view) => view.name).filter((view) => this.entries.get(view) !== null);
    if (views.length === 0) return;
    throw new SvcError('InvalidArgument', `table '${name}' is the source of materialized view${views.length > 1 ? 's' : ''} ${views.map((view) => `'${view}'`).join(', ')}: drop ${views.length > 1 ? 'them' : 'it'} first (DROP MATERIALIZED VIEW ${views[0]})`);
  }

  private dropTable(name: string, ifExists: boolean): boolean {
    const e = this.live(name);
    if (e === undefined) {
      if (ifExists) return false;
      throw new SvcError('TableNotFound', `table '${name}' does not exist`);
    }
    if (e.type !== 'ts') throw incompatible(name, e.type, 'ts');
    if (e.source !== undefined) throw new SvcError('IncompatibleType', `'${name}' is a materialized view: drop it with DROP MATERIALIZED VIEW ${name}`);
    this.checkNoViews(name);
    this.remove(name);
    return true;
  }

  /**
   * A view over the live table `source`: its columns come from its SELECT planned against the
   * source (the store's view shaper, which refuses a SELECT that cannot define a view).
   */
  private createView(name: string, source: string, select: string, ifNotExists: boolean, ttl: TimeToLive | null): boolean {
    checkAlias(name);
    if (ttl !== null) checkTtl(ttl);
    if (typeof select !== 'string') throw new SvcError('InvalidArgument', 'a view needs its SELECT as a string');
    const from = this.table(source);
    if (from.source !== undefined) throw new SvcError('InvalidArgument', `'${source}' is a materialized view: a view's source must be a table`);
    const existing = this.claim(name);
    if (existing !== undefined) {
      if (ifNotExists && existing.type === 'ts' && existing.source !== undefined) return false;
      throw new SvcError('AliasAlreadyExists', `alias '${name}' already exists`);
    }
    const stored = this.store.entries.get(source);
    if (this.entries.has(source) || stored?.type !== 'ts') throw new SvcError('InvalidArgument', `table '${source}' must be created, and its columns added, before a view over it`);
    const { columns, shardSize } = this.store.viewHooks.shape(select, stored.table);
    this.entries.set(name, { type: 'ts', columns, source });
    this.records.push({ kind: 'ViewCreate', name, source, select, columns, shardSize, ttl });
    return true;
  }

  private dropView(name: string, ifExists: boolean): boolean {
    const e = this.live(name);
    if (e === undefined) {
      if (ifExists) return false;
      throw new SvcError('TableNotFound', `materialized view '${name}' does not exist`);
    }
    if (e.type !== 'ts' || e.source === undefined) {
      throw new SvcError('IncompatibleType', `'${name}' is not a materialized view${e.type === 'ts' ? ': drop a table with DROP TABLE' : ''}`);
    }
    this.remove(name);
    return true;
  }

  private addColumns(name: string, columns: readonly ColumnDef[], ifMissing: boolean): boolean {
    const e = this.writable(name, 'add columns to');
    checkColumns(columns);
    const added: ColumnDef[] = [];
    for (const c of columns) {
      const had = e.columns.find((d) => d.name === c.name);
      if (had === undefined) added.push({ name: c.name, type: c.type });
      else if (!ifMissing) throw new SvcError('InvalidArgument', `table '${name}' already has a column '${c.name}'`);
      else if (had.type !== c.type) throw new SvcError('InvalidArgument', `column '${c.name}' of table '${name}' is ${had.type}, not ${c.type}`);
    }
    if (added.length === 0) return false;
    this.entries.set(name, { type: 'ts', columns: [...e.columns, ...added] });
    this.records.push({ kind: 'TableAddColumns', name, columns: added });
    return true;
  }

  private insert(name: string, rows: TableRows): boolean {
    const e = this.writable(name, 'write into');
    const batch = normalizeRows(name, e.columns, rows);
    if (batch.ts.length === 0) return false;
    this.records.push({ kind: 'TableInsert', name, batch });
    return true;
  }

  private putBlob(alias: string, data: Uint8Array, mime: string, expiry: number | undefined, create: boolean): boolean {
    const checked = create ? this.checkExpiry(expiry ?? 0) : undefined;
    checkAlias(alias);
    const e = this.claim(alias);
    if (create && e !== undefined) throw new SvcError('AliasAlreadyExists', `alias '${alias}' already exists`);
    if (e !== undefined && e.type !== 'blob') throw incompatible(alias, e.type, 'blob');
    const kept = checked ?? (expiry === undefined ? (e?.type === 'blob' ? e.expiry : 0) : this.checkExpiry(expiry));
    this.entries.set(alias, { type: 'blob', expiry: kept });
    this.records.push({ kind: 'BlobPut', alias, data, mime, expiry: kept });
    return true;
  }

  private setExpiry(alias: string, expiry: number): boolean {
    const e = this.entry(alias);
    if (e.type !== 'blob') throw new SvcError('ExpiryNotSupported', `entries of type ${e.type} do not expire`);
    const checked = this.checkExpiry(expiry);
    this.entries.set(alias, { type: 'blob', expiry: checked });
    this.records.push({ kind: 'ExpirySet', alias, expiry: checked });
    return true;
  }

  /** Removes those of `aliases` expired now (and not taken by an earlier op of the write). */
  private sweep(aliases: readonly string[]): boolean {
    let isChanged = false;
    for (const alias of aliases) {
      if (this.entries.has(alias)) continue;
      const e = this.store.entries.get(alias);
      if (e === undefined || !isExpired(e, this.now)) continue;
      this.remove(alias);
      isChanged = true;
    }
    return isChanged;
  }

  private attachTag(alias: string, tag: string): boolean {
    this.entry(alias);
    checkAlias(tag);
    const t = this.claim(tag);
    if (t !== undefined && t.type !== 'tag') throw incompatible(tag, t.type, 'tag');
    if (this.isLinked(alias, tag)) return false;
    if (t === undefined) this.entries.set(tag, { type: 'tag' });
    this.links.set(`${alias}\0${tag}`, true);
    this.records.push({ kind: 'TagAttach', alias, tag });
    return true;
  }

  private detachTag(alias: string, tag: string): boolean {
    this.entry(alias);
    const t = this.live(tag);
    if (t !== undefined && t.type !== 'tag') throw incompatible(tag, t.type, 'tag');
    if (!this.isLinked(alias, tag)) return false;
    this.links.set(`${alias}\0${tag}`, false);
    this.records.push({ kind: 'TagDetach', alias, tag });
    return true;
  }

  /** The live entry `alias` (expired entries count as absent), as this write leaves it. */
  private live(alias: string): Staged | undefined {
    const staged = this.entries.get(alias);
    if (staged !== undefined) return staged ?? undefined;
    const e = this.store.entries.get(alias);
    if (e === undefined || isExpired(e, this.now)) return undefined;
    const view = this.store.views.get(alias);
    if (e.type === 'ts') return view === undefined ? { type: 'ts', columns: e.table.columns } : { type: 'ts', columns: e.table.columns, source: view.source };
    return e.type === 'blob' ? { type: 'blob', expiry: e.expiry } : { type: 'tag' };
  }

  private entry(alias: string): Staged {
    const e = this.live(alias);
    if (e === undefined) throw new SvcError('AliasNotFound', `alias '${alias}' does not exist`);
    return e;
  }

  /** The live entry `alias`, for a write that takes the alias: an expired one is removed first. */
  private claim(alias: string): Staged | undefined {
    if (!this.entries.has(alias)) {
      const e = this.store.entries.get(alias);
      if (e !== undefined && isExpired(e, this.now)) this.remove(alias);
    }
    return this.live(alias);
  }

  private remove(alias: string): void {
    this.entries.set(alias, null);
    for (const key of this.links.keys()) {
      const [a, t] = key.split('\0');
      if (a === alias || t === alias) this.links.delete(key);
    }
    this.records.push({ kind: 'Remove', alias });
  }

  private isLinked(alias: string, tag: string): boolean {
    const changed = this.links.get(`${alias}\0${tag}`);
    if (changed !== undefined) return changed;
    // A removal in this write detached everything from the alias and the tag.
    if (this.entries.get(alias) === null || this.entries.get(tag) === null) return false;
    return this.store.tagsOf.get(alias)?.has(tag) === true;
  }

  private checkExpiry(expiry: number): number {
    if (!Number.isSafeInteger(expiry) || expiry < 0) throw new SvcError('InvalidArgument', `expiry must be an integer number of UNIX seconds >= 0, got ${expiry}`);
    if (expiry !== 0 && expiry <= this.now) throw new SvcError('ExpiryInPast', `expiry ${expiry} is in the past`);
    return expiry;
  }
}

/** `rows` in the order of `schema`, absent columns null; InvalidArgument when a column does not fit. */
function normalizeRows(table: string, schema: readonly ColumnDef[], rows: TableRows): NormalizedBatch {
  if (typeof rows !== 'object' || rows === null || !(rows.ts instanceof BigInt64Array)) {
    throw new SvcError('InvalidArgument', `rows for table '${table}' need $timestamp as a BigInt64Array`);
  }
  const n = rows.ts.length;
  for (const name of Object.keys(rows.columns)) {
    if (!schema.some((c) => c.name === name)) throw new SvcError('ColumnNotFound', `table '${table}' has no column '${name}'`);
  }
  const columns = schema.map((def): ColumnValues => {
    if (!Object.hasOwn(rows.columns, def.name)) return nullColumn(def.type, n);
    const col = rows.columns[def.name];
    if (col.type !== def.type) throw new SvcError('InvalidArgument', `column '${def.name}' is ${def.type}, not ${col.type}`);
    if (col.values.length !== n) throw new SvcError('InvalidArgument', `column '${def.name}' has ${col.values.length} values but $timestamp has ${n}`);
    if ('nulls' in col && col.nulls !== null && col.nulls.length !== n) {
      throw new SvcError('InvalidArgument', `column '${def.name}' has a null mask of ${col.nulls.length} rows for ${n} values`);
    }
    return col;
  });
  return { ts: rows.ts, columns };
}

