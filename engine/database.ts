// The embedded database: the public API of svc as a library. Writes are converted into write
// operations and handed to the write path (engine/write/), which validates them and commits them
// to the database's log; the log (engine/log/: the local WAL with its checkpoints, or a cluster's
// streams) was given at open, fed the state then, and owns durability, checkpoints, readiness and
// its figures. Reads see the in-memory state; expired entries are absent.
import { mkdir, readFile } from 'node:fs/promises';
import { backupDatabase, exportQuery, importOps } from './transfer/index.js';
import type { BackupResult, ExportOptions, ExportStream, ImportOptions, ImportResult } from './transfer/index.js';
import { page, sortAliases } from './catalog/alias-page.js';
import type { AliasPage, PageOptions } from './catalog/alias-page.js';
import { TIMESTAMP_COLUMN } from './storage/arrow-schema.js';
import { toTableRows } from './write/columnar-input.js';
import type { ColumnarBatch } from './write/columnar-input.js';
import { Checkpointer, takeSnapshot } from './durability/checkpoint/checkpoint.js';
import { checkpointsDir } from './durability/checkpoint/checkpoint-folder.js';
import { DiskGuard } from './durability/disk-guard.js';
import { storageFailure } from './durability/storage-failure.js';
import { isExpired, nowSeconds } from './catalog/expiry.js';
import { incompatible, toBytes, toNs } from './input-checks.js';
import { EntryStore } from './catalog/entry-store.js';
import { MemoryBudget } from './memory/index.js';
import type { Entry, EntryType } from './catalog/entry-store.js';
import { SvcError } from './errors.js';
import { acquireLock } from './durability/lock-file.js';
import { detectMime } from './catalog/mime.js';
import { executePart, executeQuery, QUERY_TASKS, removalOfStatement } from './query/index.js';
import { VIEW_HOOKS, ViewRefresher } from './views/index.js';
import { EngineCounters } from './figures.js';
import type { EngineFigures } from './figures.js';
import type { PartRequest, QueryOptions, QuerySignal } from './query/index.js';
import type { QueryCatalog } from './query/catalog.js';
import { resolveOpenOptions } from './open-options.js';
import type { OpenOptions, ResolvedOptions } from './open-options.js';
import type { QueryResult } from './query/result.js';
import type { Table } from './storage/table.js';
import type { ColumnDef, Durability, TimeToLive } from './types.js';
import { MemoryPressure } from './write/memory-pressure.js';
import { WritePath } from './write/write-path.js';
import type { WriteOp } from './write/write-ops.js';
import { LocalLog } from './log/local-log.js';
import type { DatabaseLog, LogState } from './log/database-log.js';
import { retentionDrops, ttlDrops } from './lifecycle/shard-retention.js';
import { WorkerPool, workerCount } from './workers/index.js';

export type { OpenOptions } from './open-options.js';

const NO_WORKERS = { threads: 0, busy: 0, jobs: 0, restarts: 0 } as const;

export interface BlobDescription {
  readonly alias: string;
  readonly type: 'blob';
  readonly size: number;
  readonly mime: string;
  /** UNIX seconds; 0 = never expires. */
  readonly expiry: number;
}

export interface TableDescription {
  readonly name: string;
  readonly columns: readonly ColumnDef[];
  readonly shardSize: bigint;
  /** Rows held, those past the TTL not yet removed included. */
  readonly rowCount: number;
  /** Rows older than now − ttl are gone (SPEC §14); null keeps them forever. */
  readonly ttl: TimeToLive | null;
}

export type ChangeResult = 'changed' | 'unchanged';

export interface ViewDescription {
  readonly name: string;
  /** The table the view's rows are computed from. */
  readonly source: string;
  /** Its definition, as written after AS. */
  readonly select: string;
  /** Time ranges its refresher has yet to compute (0: up to date), and how long the oldest has waited (ms). */
  readonly pendingRanges: number;
  readonly lagMs: number;
}

/**
 * What queries see of `db`, tables included. Engine-internal (not exported by index.ts): tests
 * drive executeQuery with it; the public API never hands out a Table, whose insert bypasses the WAL.
 */
export function catalogOf(db: Database): QueryCatalog {
  return db['catalog'];
}

/**
 * An open database.
 *
 * @example
 * const db = await Database.open({ dataDir: './data' });
 * await db.createTable('stocks', [{ name: 'price', type: 'DOUBLE' }]);
 * await db.insert('stocks', { $timestamp: new BigInt64Array([1n, 2n]), price: new Float64Array([1.5, 2.5]) });
 * const result = await db.query('SELECT avg(price) FROM stocks');
 * await db.close();
 */
export class Database {
  private readonly store: EntryStore;
  /** What queries see of this database (tables included, which the public API never hands out). */
  private readonly catalog: QueryCatalog;
  private readonly writes: WritePath;
  private isClosed = false;
  private sweepTimer: NodeJS.Timeout | null = null;
  /** A sweep is under way (the timer never starts a second one). */
  private isSweeping = false;
  private readonly counters = new EngineCounters();
  private readonly pressure: MemoryPressure;
  /** Keeps the materialized views equal to their SELECTs (engine/views/). */
  private readonly refresher: ViewRefresher;
  /**
   * The worker threads of `parallelism` (null at 1: everything runs here). Scans use them; the
   * server gives them its protocol parsers (WorkerPool.load).
   */
  readonly workers: WorkerPool | null;

  private constructor(
    readonly dataDir: string,
    readonly durability: Durability,
    /** Where records go and come from: the local WAL, or a cluster's streams (engine/log/). */
    private readonly log: DatabaseLog,
    store: EntryStore,
    private readonly releaseLock: () => Promise<void>,
    private readonly options: ResolvedOptions,
    private readonly checkpointer: Checkpointer,
    /** The data directory's free space against its floor (docs/disk.md). */
    private readonly disk: DiskGuard,
  ) {
    this.store = store;
    const threads = workerCount(options.parallelism);
    this.workers = threads === 0 ? null : new WorkerPool(threads, options.log);
    this.workers?.load(QUERY_TASKS);
    const db = this; // for the catalog's getter below (a getter has its own `this`)
    this.pressure = new MemoryPressure(store.context.budget, { relieve: (sealTails) => this.relieve(sealTails) }, options.log);
    this.writes = new WritePath(store, log, this.counters, this.pressure, disk);
    this.refresher = new ViewRefresher(store, { log: options.log });
    this.catalog = {
      table: (name) => {
        const e = this.liveEntry(name);
        return e?.type === 'ts' ? e.table : undefined;
      },
      findEntries: (filter) => this.findEntries({ withTags: [...filter.withTags], withoutTags: [...filter.withoutTags], types: [...filter.types] }),
      tagsOf: (alias) => sortAliases([...(this.store.tagsOf.get(alias) ?? [])]),
      write: (ops) => this.write(ops),
      removedRows: (id) => this.store.takeRemoved(id),
      viewOf: (name) => (this.liveEntry(name) === undefined || !this.store.views.has(name) ? undefined : this.describeView(name)),
      // In a cluster whose nodes hold only some tables' rows: where each part of a SELECT runs.
      get placement() {
        return db.log.placement ?? undefined;
      },
      parallel: this.workers === null ? null : { pool: this.workers, minRows: options.parallelScanRows },
    };
  }

  /**
   * Opens (or creates) the database in `dataDir`: latest checkpoint, then WAL replay.
   * @example
   * const db = await Database.open({ dataDir: './data', durability: 'fsync' });
   */
  static async open(options: OpenOptions): Promise<Database> {
    const resolved = resolveOpenOptions(options);
    return Database.openOn(resolved, new LocalLog(resolved), true);
  }

  /**
   * Opens a replica of a cluster's database: its state comes only from the replicated `log`
   * (engine/cluster/ with `--cluster nats://…`), not from this directory's WAL; the directory
   * holds its checkpoints and is locked so that two nodes never share it.
   * @example
   * const db = await Database.openReplicated({ dataDir: './node1' }, new ClusterReplication(clusterOptions));
   */
  static async openReplicated(options: OpenOptions, log: DatabaseLog): Promise<Database> {
    return Database.openOn(resolveOpenOptions({ ...options, durability: 'none' }), log, false);
  }

  /**
   * Locks the data directory, then has `log` feed the empty state. `isScanShared`: sealed column
   * data goes to memory shared with the worker threads, which scan it (docs/workers.md). A
   * cluster node keeps it plain: its queries are split across the nodes already, and shared
   * memory raised a replica's peak RSS following a stream by 10-30 MiB (test/cluster/replica-memory).
   */
  private static async openOn(options: ResolvedOptions, log: DatabaseLog, isScanShared: boolean): Promise<Database> {
    const { dataDir, batchRows } = options;
    let releaseLock: () => Promise<void>;
    try {
      await mkdir(checkpointsDir(dataDir), { recursive: true });
      releaseLock = await acquireLock(dataDir);
    } catch (e) {
      throw storageFailure(e, `could not open data directory ${dataDir}`);
    }
    let disk: DiskGuard;
    try {
      disk = await DiskGuard.open(dataDir, options.minFreeDisk, { log: options.log });
    } catch (e) {
      await releaseLock().catch(() => undefined);
      throw storageFailure(e, `could not open data directory ${dataDir}`);
    }
    const checkpointer = new Checkpointer(dataDir, options.compression, disk);
    const budget = new MemoryBudget(options.memoryLimit, isScanShared && workerCount(options.parallelism) > 0);
    const store = new EntryStore({ batchRows, budget, leases: checkpointer.reads, stager: checkpointer }, removalOfStatement, VIEW_HOOKS);
    const db = new Database(dataDir, options.durability, log, store, releaseLock, options, checkpointer, disk);
    try {
      await log.open(db.logState());
    } catch (e) {
      await db.workers?.close();
      disk.close();
      await releaseLock().catch(() => undefined);
      throw e;
    }
    db.startSweep();
    db.refresher.start();
    return db;
  }

  /** The state and the services this database hands its log at open. */
  private logState(): LogState {
    const { store, checkpointer } = this;
    return {
      apply: (r) => store.apply(r),
      prepare: (records) => store.prepare(records),
      unprepare: (records) => store.unprepare(records),
      view: {
        typeOf: (alias) => store.entries.get(alias)?.type ?? null,
        columnsOf: (table) => {
          const e = store.entries.get(table);
          return e?.type === 'ts' ? e.table.columns : null;
        },
        sourceOf: (alias) => store.views.get(alias)?.source ?? null,
        viewsOf: (table) => store.viewsOf(table).map((view) => view.name),
      },
      checkpoints: {
        dir: checkpointsDir(this.dataDir),
        take: async (n, flushed) => {
          const snapshot = takeSnapshot(store, n);
          if (flushed !== undefined) await flushed;
          await checkpointer.write(n, snapshot);
        },
        load: () => checkpointer.load(store),
        lease: () => checkpointer.reads.lease(),
      },
      memory: {
        limit: store.context.budget.limit,
        admit: (bytes, hasWaited) => this.pressure.admit(bytes, hasWaited),
        afterApply: () => this.pressure.afterWrite(),
      },
      disk: this.disk,
      parts: (request, names, signal) => this.runPart(request, names, signal),
      counters: this.counters,
    };
  }

  /**
   * In a cluster: resolves once this node has applied every write acknowledged anywhere before the
   * call (the server awaits it before a request reads). Null on a single node: nothing to wait for.
   */
  readBarrier(): Promise<void> | null {
    return this.log.readBarrier();
  }

  /**
   * What makes room in the memory budget: a checkpoint of the log (the tails sealed first when
   * asked), after which the data it wrote may leave memory.
   */
  private relieve(sealTails: boolean): Promise<void> {
    if (sealTails) for (const e of this.store.entries.values()) if (e.type === 'ts') e.table.sealTails();
    return this.log.relieve();
  }

  /** In a cluster: runs parts of a SELECT that another node was asked, once caught up with the logs. */
  private async runPart(request: PartRequest, names: readonly string[], signal: QuerySignal): Promise<QueryResult> {
    const started = performance.now();
    await this.readBarrier();
    const deadlineMs = Math.max(0, request.deadlineMs - (performance.now() - started));
    return executePart(this.catalog, request.text, names, { ...request.limits, now: request.nowNs, deadlineMs, yieldAfterMs: request.yieldAfterMs, signal }, this.options.queryLimits);
  }

  /** False while a cluster node is still catching up with the log (readiness says 503). */
  get isCaughtUp(): boolean {
    return this.log.isCaughtUp;
  }

  /**
   * Finishes pending writes, takes a checkpoint and releases the data directory.
   * @example
   * await db.close();
   */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    if (this.sweepTimer !== null) clearInterval(this.sweepTimer);
    // The round under way ends first: the last checkpoint holds the views as they are then.
    await this.refresher.stop();
    this.disk.close();
    // Late runs not yet compacted are checkpointed as they are; the next open compacts them.
    for (const e of this.store.entries.values()) if (e.type === 'ts') e.table.stopCompaction();
    try {
      await this.log.close();
    } finally {
      await this.workers?.close();
      await this.checkpointer.reads.close().catch(() => undefined);
      await this.releaseLock().catch(() => undefined);
    }
  }

  // ---- blobs -------------------------------------------------------------------------------

  /**
   * Creates a blob; fails with AliasAlreadyExists if the alias is in use.
   * @example
   * await db.createBlob('reports/q3.json', '{"ok":true}', { expiry: 0 });
   */
  async createBlob(alias: string, content: Uint8Array | string, options: { expiry?: number } = {}): Promise<void> {
    this.checkOpen();
    const data = toBytes(content);
    await this.write([{ kind: 'putBlob', alias, data, mime: await detectMime(data, alias), expiry: options.expiry ?? 0, create: true }]);
  }

  /**
   * Replaces a blob's content (creating the blob if absent); keeps its expiry unless given.
   * @example
   * await db.updateBlob('reports/q3.json', new Uint8Array([1, 2, 3]));
   */
  async updateBlob(alias: string, content: Uint8Array | string, options: { expiry?: number } = {}): Promise<void> {
    this.checkOpen();
    const data = toBytes(content);
    await this.write([{ kind: 'putBlob', alias, data, mime: await detectMime(data, alias), expiry: options.expiry, create: false }]);
  }

  /**
   * The content of a blob (AliasNotFound, or IncompatibleType for another entry type), read back
   * from its checkpoint file when the memory budget evicted it.
   * @example
   * const bytes = await db.getBlob('reports/q3.json');
   */
  async getBlob(alias: string): Promise<Uint8Array> {
    return this.blob(alias).content.read();
  }

  /**
   * Size, detected MIME type and expiry of a blob.
   * @example
   * db.describeBlob('reports/q3.json'); // { alias, type: 'blob', size, mime: 'application/json', expiry: 0 }
   */
  describeBlob(alias: string): BlobDescription {
    const b = this.blob(alias);
    return { alias, type: 'blob', size: b.content.size, mime: b.mime, expiry: b.expiry };
  }

  /**
   * The type of an entry, or AliasNotFound.
   * @example
   * db.entryType('stocks.apple'); // 'ts'
   */
  entryType(alias: string): EntryType {
    return this.entry(alias).type;
  }

  /**
   * Blobs whose content contains `pattern` (bytes, or a string as UTF-8), in alias order; blobs
   * evicted from memory are read back one at a time.
   * @example
   * await db.findBlobs('"ok"', { skip: 0, limit: 100 }); // { aliases, hasMore }
   */
  async findBlobs(pattern: Uint8Array | string, options?: PageOptions): Promise<AliasPage> {
    const needle = Buffer.from(toBytes(pattern));
    const blobs = [...this.live()].filter((pair): pair is [string, Entry & { type: 'blob' }] => pair[1].type === 'blob');
    const found: string[] = [];
    for (const [alias, e] of blobs) {
      const data = await e.content.read();
      if (Buffer.from(data.buffer, data.byteOffset, data.byteLength).indexOf(needle) >= 0) found.push(alias);
    }
    return page(found, options);
  }

  // ---- entries -----------------------------------------------------------------------------

  /**
   * Aliases starting with `prefix`, byte-wise ascending.
   * @example
   * db.listAliases('reports/', { limit: 10 }).aliases;
   */
  listAliases(prefix: string, options?: PageOptions): AliasPage {
    const found: string[] = [];
    for (const [alias] of this.live()) if (alias.startsWith(prefix)) found.push(alias);
    return page(found, options);
  }

  /**
   * Removes an entry of any type; its tags are detached, and a tag is detached everywhere.
   * @example
   * await db.remove('reports/q3.json');
   */
  async remove(alias: string): Promise<void> {
    await this.write([{ kind: 'remove', alias }]);
  }

  /**
   * Sets a blob's expiry in UNIX seconds (0 = never). Tags and tables do not expire.
   * @example
   * await db.setExpiry('reports/q3.json', Math.floor(Date.now() / 1000) + 3600);
   */
  async setExpiry(alias: string, expiry: number): Promise<void> {
    await this.write([{ kind: 'setExpiry', alias, expiry }]);
  }

  // ---- tags --------------------------------------------------------------------------------

  /**
   * Attaches `tag` to `alias`, creating the tag if needed.
   * @example
   * await db.attachTag('stocks.apple', 'nasdaq'); // 'changed' | 'unchanged'
   */
  async attachTag(alias: string, tag: string): Promise<ChangeResult> {
    const [isChanged] = await this.write([{ kind: 'attachTag', alias, tag }]);
    return isChanged ? 'changed' : 'unchanged';
  }

  /**
   * Detaches `tag` from `alias`; 'unchanged' when it was not attached.
   * @example
   * await db.detachTag('stocks.apple', 'nasdaq');
   */
  async detachTag(alias: string, tag: string): Promise<ChangeResult> {
    const [isChanged] = await this.write([{ kind: 'detachTag', alias, tag }]);
    return isChanged ? 'changed' : 'unchanged';
  }

  /**
   * Tags attached to an entry, byte-wise ascending and paged.
   * @example
   * db.getTags('stocks.apple').aliases; // ['nasdaq']
   */
  getTags(alias: string, options?: PageOptions): AliasPage {
    this.entry(alias);
    return page(this.store.tagsOf.get(alias) ?? [], options);
  }

  /**
   * Entries carrying a tag (the tag must exist), byte-wise ascending and paged.
   * @example
   * db.getTagged('nasdaq', { skip: 100, limit: 100 });
   */
  getTagged(tag: string, options?: PageOptions): AliasPage {
    const t = this.entry(tag);
    if (t.type !== 'tag') throw incompatible(tag, t.type, 'tag');
    return page([...(this.store.entriesOf.get(tag) ?? [])].filter((a) => this.liveEntry(a) !== undefined), options);
  }

  // ---- tables ------------------------------------------------------------------------------

  /**
   * Creates a table; returns false when it exists and `ifNotExists` is set (the existing table is
   * left as it is). `tags` are attached to it in the same write; `ttl` is its time to live.
   * @example
   * await db.createTable('stocks.apple', [{ name: 'close', type: 'DOUBLE' }], { shardSize: 3_600_000_000_000n, tags: ['nasdaq'], ttl: { months: 0, nanos: 30n * 86_400_000_000_000n } });
   */
  async createTable(
    name: string, columns: readonly ColumnDef[], options: { shardSize?: bigint; ifNotExists?: boolean; ttl?: TimeToLive; tags?: readonly string[] } = {},
  ): Promise<boolean> {
    const [isCreated] = await this.write([{ kind: 'createTable', name, columns, shardSize: options.shardSize, ifNotExists: options.ifNotExists, ttl: options.ttl, tags: options.tags }]);
    return isCreated;
  }

  /**
   * Sets a table's time to live (null: rows are kept forever). Rows already there follow it at once.
   * @example
   * await db.setTtl('stocks.apple', { months: 1, nanos: 0n }); // one calendar month
   */
  async setTtl(name: string, ttl: TimeToLive | null): Promise<void> {
    await this.write([{ kind: 'setTtl', table: name, ttl }]);
  }

  /**
   * Drops a table; returns false when it is missing and `ifExists` is set.
   * @example
   * await db.dropTable('stocks.apple', true);
   */
  async dropTable(name: string, ifExists = false): Promise<boolean> {
    const [isDropped] = await this.write([{ kind: 'dropTable', name, ifExists }]);
    return isDropped;
  }

  /**
   * A materialized view's definition and how far its refresher is behind its source (TableNotFound
   * when `name` is no view). Its rows are read like a table's: `db.query('SELECT … FROM v')`.
   * @example
   * await db.query('CREATE MATERIALIZED VIEW cpu_1h AS SELECT avg(usage), max(usage) FROM cpu GROUP BY 1h, host');
   * db.describeView('cpu_1h'); // { name, source: 'cpu', select: 'SELECT avg(usage), …', pendingRanges: 0, lagMs: 0 }
   */
  describeView(name: string): ViewDescription {
    const view = this.liveEntry(name) === undefined ? undefined : this.store.views.get(name);
    if (view === undefined) throw new SvcError('TableNotFound', `materialized view '${name}' does not exist`);
    const oldest = view.dirty.oldest();
    return { name, source: view.source, select: view.select, pendingRanges: view.dirty.ranges.length, lagMs: oldest === null ? 0 : Date.now() - oldest.since };
  }

  /**
   * Resolves once every materialized view has computed every change of its source applied before
   * the call and since (its refresher runs until nothing is left to compute).
   * @example
   * await db.insert('cpu', rows);
   * await db.viewsCaughtUp(); // SELECT … FROM cpu_1h now reflects the insert
   */
  viewsCaughtUp(): Promise<void> {
    this.checkOpen();
    return this.refresher.caughtUp();
  }

  /**
   * Columns, shard size and row count of a table.
   * @example
   * db.describeTable('stocks.apple').rowCount;
   */
  describeTable(name: string): TableDescription {
    const t = this.requireTable(name);
    return { name, columns: t.columns, shardSize: t.shardSize, rowCount: t.rowCount, ttl: t.ttl };
  }

  /**
   * Inserts a columnar batch: `$timestamp` (BigInt64Array or integers, ns) plus any columns of
   * the table as typed arrays or arrays with nulls. Missing columns are null. Rows may be in any
   * order; the promise resolves once the batch is durable for the database's mode.
   * @example
   * await db.insert('stocks.apple', { $timestamp: new BigInt64Array([1n, 2n]), close: [1.5, null] });
   */
  async insert(name: string, batch: ColumnarBatch): Promise<void> {
    await this.write([{ kind: 'insert', table: name, rows: toTableRows(name, this.requireTable(name).columns, batch) }]);
  }

  /**
   * Inserts rows given as objects: `{ $timestamp, col: value, … }` (a Date is accepted as time).
   * @example
   * await db.insertRows('stocks.apple', [{ $timestamp: new Date(), close: 1.5 }]);
   */
  async insertRows(name: string, rows: readonly Record<string, unknown>[]): Promise<void> {
    const t = this.requireTable(name);
    const batch: Record<string, unknown[]> = { [TIMESTAMP_COLUMN]: rows.map((r) => toNs(r[TIMESTAMP_COLUMN])) };
    for (const row of rows) {
      for (const key of Object.keys(row)) {
        if (key !== TIMESTAMP_COLUMN && t.columnIndex(key) < 0) throw new SvcError('ColumnNotFound', `table '${name}' has no column '${key}'`);
      }
    }
    for (const c of t.columns) batch[c.name] = rows.map((r) => r[c.name] ?? null);
    await this.insert(name, batch);
  }

  // ---- data in and out (engine/transfer/) ----------------------------------------------------

  /**
   * Exports a SELECT's result as a file's bytes, streamed: CSV (RFC 4180, a header line), NDJSON,
   * an Arrow IPC stream or Parquet. A result of any size holds a chunk at a time: the query
   * builds the next chunk once the last is read. `deadlineMs` bounds the wait for each chunk.
   * @example
   * const out = createWriteStream('stocks.parquet');
   * for await (const bytes of db.export('SELECT * FROM stocks', { format: 'parquet' })) out.write(bytes);
   */
  export(query: string, options: ExportOptions): ExportStream {
    this.checkOpen();
    return exportQuery(this.catalog, query, options, this.options.queryLimits);
  }

  /**
   * Imports a CSV or Parquet file (its bytes, or a path) into `table` as one atomic write: the
   * table is created from the file's columns when missing (its time column is `$timestamp` or
   * `timestamp`), columns it lacks are added, and every row is inserted — or, when a row does not
   * fit (the error names its row and column), nothing is stored.
   * @example
   * await db.import('trades', './trades.parquet', { format: 'parquet' }); // { table, rows, isCreated }
   */
  async import(table: string, source: Uint8Array | string, options: ImportOptions): Promise<ImportResult> {
    this.checkOpen();
    const bytes = typeof source === 'string' ? await readFile(source) : source;
    const e = this.liveEntry(table);
    if (e !== undefined && e.type !== 'ts') throw incompatible(table, e.type, 'ts');
    // The write validates the ops against the catalog as it is then (a table created or changed
    // while the file was read is refused or checked there, like any write).
    const { ops, rows } = await importOps(table, bytes, options, e?.table.columns ?? null);
    await this.write(ops);
    return { table, rows, isCreated: e === undefined };
  }

  /**
   * Writes a consistent copy of the database into `dir` (new or empty) while it serves: a
   * checkpoint, its files hard-linked (or copied), the WAL written since. A database opened on
   * `dir` holds every write acknowledged before the call. Single node only: a cluster's backup is
   * its JetStream streams and object store (docs/export-import.md).
   * @example
   * await db.backup('/backups/svc-2026-11-27'); // { dir, checkpoint, walSegments, files, bytes, linked }
   */
  async backup(dir: string): Promise<BackupResult> {
    this.checkOpen();
    const { log } = this;
    if (log.checkpointThen === undefined) throw new SvcError('InvalidArgument', "a cluster node's data is its cluster's: back up JetStream's streams and object store (docs/export-import.md)");
    return backupDatabase({ dataDir: this.dataDir, checkpoint: (then) => log.checkpointThen!(then), lease: () => this.checkpointer.reads.lease() }, dir);
  }

  // ---- queries -----------------------------------------------------------------------------

  /**
   * Runs a query of the svc language (SPEC §6). Writes resolve once durable.
   * @example
   * const r = await db.query('SELECT avg(close) FROM stocks.apple GROUP BY 1h');
   */
  query(text: string, options: QueryOptions = {}): Promise<QueryResult> {
    this.checkOpen();
    return this.counters.timeQuery(() => executeQuery(this.catalog, text, options, this.options.queryLimits));
  }

  /**
   * What the engine did since it opened and holds now (GET /metrics and readiness read it): rows
   * ingested, WAL bytes and fdatasync rounds, checkpoints and their durations, queries and their
   * durations, the memory budget — used, held (cannot leave memory yet), cached (evictable),
   * evictions and read-backs from checkpoint files — the disk — its state, free bytes against the
   * floor — and in a cluster each log's position here.
   * @example
   * db.figures().rowsIngested;
   * db.figures().memory; // { limit, used, held, tails, cached, pooled, scanning, evictions, evictedBytes, readBacks, readBackBytes }
   * db.figures().disk; // { state: 'ok' | 'full' | 'failed', free, total, floor, refusals, noSpaceErrors }
   */
  figures(): EngineFigures {
    const c = this.counters;
    return {
      rowsIngested: c.rowsIngested,
      ...this.log.figures(),
      checkpoints: c.checkpoints,
      checkpointSeconds: c.checkpointSeconds,
      lastCheckpointSeconds: c.lastCheckpointSeconds,
      checkpointFailures: c.checkpointFailures,
      queries: c.queries,
      querySeconds: c.querySeconds,
      queryFailures: c.queryFailures,
      memory: this.store.context.budget.figures,
      disk: this.disk.figures(),
      views: this.refresher.figures(),
      workers: this.workers?.figures ?? NO_WORKERS,
    };
  }

  /** Live aliases matching every condition (for FIND). */
  findEntries(filter: { withTags: string[]; withoutTags: string[]; types: EntryType[] }): string[] {
    const found: string[] = [];
    for (const [alias, e] of this.live()) {
      const tags = this.store.tagsOf.get(alias);
      if (filter.types.some((t) => t !== e.type)) continue;
      if (filter.withTags.some((t) => !tags?.has(t))) continue;
      if (filter.withoutTags.some((t) => tags?.has(t))) continue;
      found.push(alias);
    }
    return sortAliases(found);
  }

  // ---- durability --------------------------------------------------------------------------

  /**
   * Writes a checkpoint now and deletes the WAL it covers.
   * @example
   * await db.checkpoint();
   */
  async checkpoint(): Promise<void> {
    this.checkOpen();
    // On a cluster node the checkpoint is the cluster's: tagged with the log positions, shared, streams trimmed.
    await this.log.checkpoint();
  }

  /** True once the log failed (a WAL write, or following a cluster's stream): the database then refuses writes. */
  get hasFailed(): boolean {
    return this.log.failure !== null;
  }

  /**
   * Applies several changes as one atomic write, durable when the promise resolves: every op is
   * validated against the catalog as the ops before it leave it, then all are logged as one WAL
   * record and applied — a crash replays all of them or none. Rows come as typed columns by
   * name (what ingest protocols build). Resolves, per op, whether it changed anything; rejects
   * with the first failing op's error, nothing applied.
   * @example
   * await db.write([
   *   { kind: 'createTable', name: 'cpu', columns: [{ name: 'usage', type: 'DOUBLE' }], ifNotExists: true },
   *   { kind: 'insert', table: 'cpu', rows: { ts: new BigInt64Array([1n]), columns: { usage: { type: 'DOUBLE', values: new Float64Array([0.5]), nulls: null } } } },
   * ]);
   */
  write(ops: readonly WriteOp[]): Promise<boolean[]> {
    this.checkOpen();
    return this.writes.write(ops);
  }

  // ---- expiry ------------------------------------------------------------------------------

  private startSweep(): void {
    const every = this.options.sweepIntervalMs;
    if (every <= 0) return;
    this.sweepTimer = setInterval(() => void this.sweep(), every);
    this.sweepTimer.unref();
  }

  /**
   * Removes expired entries (durably) and logs each; then the shards past a table's TTL or the
   * retention size (engine/lifecycle/). Returns the entries removed.
   */
  async sweep(): Promise<number> {
    if (this.isClosed || this.hasFailed || this.isSweeping) return 0;
    this.isSweeping = true;
    try {
      const now = nowSeconds();
      const expired = [...this.store.entries].filter(([, e]) => isExpired(e, now)).map(([alias]) => alias);
      // Refused (a cluster node whose disk is full) or failed: nothing removed, tried again next time.
      const isRemoved = expired.length > 0 && await this.write([{ kind: 'sweep', aliases: expired }]).then(() => true, () => false);
      if (isRemoved) for (const alias of expired) this.options.log?.(`expired entry '${alias}' removed`);
      await this.sweepShards();
      return isRemoved ? expired.length : 0;
    } finally {
      this.isSweeping = false;
    }
  }

  /**
   * Shards a TTL has passed, and the oldest ones while table data on disk is over the retention
   * size, leave as one logged write; a checkpoint then returns their bytes to the disk.
   */
  private async sweepShards(): Promise<void> {
    const tables: [string, Table][] = [];
    for (const [name, e] of this.store.entries) if (e.type === 'ts') tables.push([name, e.table]);
    const ops = ttlDrops(tables, BigInt(Date.now()) * 1_000_000n);
    const limit = this.options.retentionSize;
    if (limit > 0) ops.push(...retentionDrops(tables, limit, (b) => this.checkpointer.storedBytesOf(b)));
    if (ops.length === 0) return;
    try {
      await this.write(ops);
    } catch (e) {
      this.options.log?.(`removing shards failed: ${(e as Error).message}`);
      return;
    }
    for (const op of ops) if (op.kind === 'dropShards') this.options.log?.(`table '${op.table}': shards before ${new Date(Number(op.before / 1_000_000n)).toISOString()} removed`);
    this.log.relieve().catch((e) => this.options.log?.(`checkpoint after removing shards failed: ${(e as Error).message}`));
  }

  // ---- lookups -----------------------------------------------------------------------------

  private *live(): Generator<[string, Entry]> {
    this.checkOpen();
    const now = nowSeconds();
    for (const pair of this.store.entries) if (!isExpired(pair[1], now)) yield pair;
  }

  private liveEntry(alias: string): Entry | undefined {
    this.checkOpen();
    const e = this.store.entries.get(alias);
    return e === undefined || isExpired(e, nowSeconds()) ? undefined : e;
  }

  private entry(alias: string): Entry {
    const e = this.liveEntry(alias);
    if (e === undefined) throw new SvcError('AliasNotFound', `alias '${alias}' does not exist`);
    return e;
  }

  private blob(alias: string): Entry & { type: 'blob' } {
    const e = this.entry(alias);
    if (e.type !== 'blob') throw incompatible(alias, e.type, 'blob');
    return e;
  }

  private requireTable(name: string): Table {
    const e = this.liveEntry(name);
    if (e === undefined) throw new SvcError('TableNotFound', `table '${name}' does not exist`);
    if (e.type !== 'ts') throw incompatible(name, e.type, 'ts');
    return e.table;
  }

  private checkOpen(): void {
    if (this.isClosed) throw new SvcError('DatabaseClosed', 'the database is closed');
  }
}
