// The entry point of the query language: size check, parse (or a recently parsed AST), then one
// handler per statement kind (an exhaustive Record, so a new statement kind is a compile error
// until it is handled).
import { Buffer } from 'node:buffer';
import type { ResultTable, ResultType } from './result.js';
import type { ResultSink } from './exec/run/run-context.js';
import { planSelectCached } from './plan/plan-cache.js';
import { parseInSteps } from '../../grammar/index.js';
import type { Statement } from '../../grammar/index.js';
import { SvcError } from '../errors.js';
import { parseCached } from './ast-cache.js';
import type { QueryCatalog } from './catalog.js';
import { Deadline, DEFAULT_DEADLINE_MS } from './deadline.js';
import { DEFAULT_SLICE_MS, RunContext } from './exec/run/run-context.js';
import type { QuerySignal } from './exec/run/run-context.js';
import type { QueryLimits } from './limits.js';
import { DEFAULT_QUERY_LIMITS, resolveLimits } from './limits.js';
import { toSyntaxError } from './query-errors.js';
import type { QueryResult } from './result.js';
import { runAlter, runAlterTtl, runCreate, runCreateView, runDrop, runDropView } from './statements/run-ddl.js';
import { runDelete } from './statements/run-delete.js';
import { runFind } from './statements/run-find.js';
import { runInsert } from './statements/run-insert.js';
import { runPlacedSelect } from './statements/run-placed-select.js';
import { runPlan, runSelect } from './statements/run-select.js';
import { runShow } from './statements/run-show.js';

/** Query texts above this many UTF-8 bytes are refused (SPEC §8: 413). */
export const MAX_QUERY_BYTES = 1024 * 1024;

/** Options of one query; the limits (limits.ts) default to the database's `queryLimits`. */
export interface QueryOptions extends Partial<QueryLimits> {
  /** Time budget in milliseconds, finite and ≥ 0 (default 30 s); past it the query ends with QueryTimeout. */
  readonly deadlineMs?: number;
  /** The query's `now` in nanoseconds since the epoch (default: the wall clock). */
  readonly now?: bigint;
  /**
   * Stops the query with QueryCancelled once its `aborted` is true (e.g. the HTTP client went
   * away): an AbortSignal, or any object with a boolean `aborted` (see QuerySignal).
   */
  readonly signal?: QuerySignal;
  /** Refuse CREATE, DROP and INSERT with ReadOnlyQuery (the web bridge's query methods only read). */
  readonly readOnly?: boolean;
  /**
   * Milliseconds of work after which a running SELECT yields to the event loop (default 8), so
   * other callbacks (an HTTP server's requests) run while it works; 0 yields after every batch.
   */
  readonly yieldAfterMs?: number;
}

const WRITE_KINDS: ReadonlySet<Statement['kind']> = new Set(['CreateTable', 'DropTable', 'CreateView', 'DropView', 'AlterTable', 'AlterTtl', 'Insert', 'Delete']);

interface Run {
  readonly catalog: QueryCatalog;
  readonly nowNs: bigint;
  readonly ctx: RunContext;
  readonly text: string;
  /** The parts of a SELECT to run (executePart), or null: the whole statement. */
  readonly only: ReadonlySet<string> | null;
}

type Handlers = { readonly [K in Statement['kind']]: (ast: Extract<Statement, { kind: K }>, run: Run) => QueryResult | Promise<QueryResult> };

const HANDLERS: Handlers = {
  Select: (ast, run) => (run.catalog.placement === undefined && run.only === null
    ? runSelect(ast, run.catalog, run.nowNs, run.ctx)
    : runPlacedSelect(ast, run.catalog, run.nowNs, run.ctx, run.text, run.only)),
  Find: (ast, run) => runFind(ast, run.catalog),
  CreateTable: (ast, run) => runCreate(ast, run.catalog),
  DropTable: (ast, run) => runDrop(ast, run.catalog),
  CreateView: (ast, run) => runCreateView(ast, run.catalog, run.text),
  DropView: (ast, run) => runDropView(ast, run.catalog),
  AlterTable: (ast, run) => runAlter(ast, run.catalog),
  AlterTtl: (ast, run) => runAlterTtl(ast, run.catalog),
  Delete: (ast, run) => runDelete(ast, run.catalog, run.nowNs, run.text),
  Insert: (ast, run) => runInsert(ast, run.catalog, run.nowNs),
  Show: (ast, run) => runShow(ast, run.catalog),
};

/**
 * Runs one statement of the query language (SPEC §6) against `catalog`.
 *
 * @example
 * const r = await executeQuery(db, 'SELECT avg(v) FROM t IN RANGE(2017, +1d) GROUP BY 1h');
 * r.tables[0].columns[0].values; // Float64Array of hourly means
 */
export function executeQuery(catalog: QueryCatalog, text: string, options: QueryOptions = {}, defaults: QueryLimits = DEFAULT_QUERY_LIMITS): Promise<QueryResult> {
  return execute(catalog, text, options, defaults, null);
}

/**
 * Runs only the parts `names` (result tables) of the SELECT `text`, for a node that does not hold
 * their rows (statements/run-placed-select.ts); its `now`, limits and time left come in `options`.
 * @example
 * const r = await executePart(db, 'SELECT count(v) FROM a, b', ['b'], { now, deadlineMs: 29_000 });
 */
export function executePart(catalog: QueryCatalog, text: string, names: readonly string[], options: QueryOptions = {}, defaults: QueryLimits = DEFAULT_QUERY_LIMITS): Promise<QueryResult> {
  return execute(catalog, text, { ...options, readOnly: true }, defaults, new Set(names));
}

/**
 * Runs the SELECT `text` as a stream (engine/transfer/'s export): `start` is given the result's
 * shape — each result table's name and output columns, before any row — and returns the sink that
 * takes the rows in chunks, each resolved before the next is built (backpressure). Plain rows in
 * time order are never held whole; results that must be (ORDER BY, aggregates, a cluster's parts
 * run elsewhere) are built under the query limits and handed over in one piece per table. The
 * deadline bounds the wait for each chunk. Other statements are refused with InvalidArgument.
 * @example
 * await streamQuery(db, 'SELECT * FROM t', {}, DEFAULT_QUERY_LIMITS, (shape) => async (chunk) => write(chunk));
 */
export async function streamQuery(catalog: QueryCatalog, text: string, options: QueryOptions, defaults: QueryLimits, start: (shape: ResultShape) => ResultSink): Promise<void> {
  const prepared = prepare(catalog, text, options, defaults, null);
  const run = prepared instanceof Promise ? await prepared : prepared;
  const { ast } = run;
  if (ast.kind !== 'Select') throw new SvcError('InvalidArgument', 'only a SELECT can be exported', { position: 0 });
  // The plan gives the shape, and runs below (on a single node) as it is: planned once.
  const plan = planSelectCached(ast, catalog, run.nowNs, run.ctx.limits);
  const sink = start({
    tables: plan.tables.map((t) => ({ name: t.name, columns: t.outputs.filter((o) => !o.isHidden).map((o) => ({ name: o.name, type: o.type })) })),
  });
  // The deadline bounds the wait for each chunk: it starts over after each hand-over.
  const handOver = async (table: ResultTable): Promise<void> => {
    await sink(table);
    run.ctx.deadline.restart();
  };
  try {
    if (catalog.placement === undefined) {
      run.ctx.sink = handOver;
      await runPlan(plan, run.nowNs, run.ctx);
      return;
    }
    const result = await runPlacedSelect(ast, catalog, run.nowNs, run.ctx, text, null);
    for (const table of result.tables) await handOver(table);
  } finally {
    run.ctx.close();
  }
}

/** The result tables a streamed SELECT will give: names and output columns, known before any row. */
export interface ResultShape {
  readonly tables: readonly { readonly name: string; readonly columns: readonly { readonly name: string; readonly type: ResultType }[] }[];
}

async function execute(catalog: QueryCatalog, text: string, options: QueryOptions, defaults: QueryLimits, only: ReadonlySet<string> | null): Promise<QueryResult> {
  const prepared = prepare(catalog, text, options, defaults, only);
  // A short text reaches its handler in the caller's turn, so a SELECT's snapshot is the data as
  // it was when it was asked: a write the caller makes right after the call must not reach it.
  const run = prepared instanceof Promise ? await prepared : prepared;
  const handler = HANDLERS[run.ast.kind] as (ast: Statement, run: Run) => QueryResult | Promise<QueryResult>;
  try {
    return await handler(run.ast, run);
  } finally {
    // The result is built: the run's scratch serves the next query (a run that failed before
    // this point leaves its scratch to the collector).
    run.ctx.close();
  }
}

type PreparedRun = Run & { readonly ast: Statement };

/**
 * Checks the text and options, parses, and makes the run of one statement: at once for a short
 * text; a long one is parsed in slices first (a promise).
 */
function prepare(catalog: QueryCatalog, text: string, options: QueryOptions, defaults: QueryLimits, only: ReadonlySet<string> | null): PreparedRun | Promise<PreparedRun> {
  if (typeof text !== 'string') throw new SvcError('InvalidArgument', 'a query must be a string');
  if (text.length > MAX_QUERY_BYTES / 3 && Buffer.byteLength(text, 'utf8') > MAX_QUERY_BYTES) {
    throw new SvcError('QueryTooLarge', `the query text is over ${MAX_QUERY_BYTES} bytes`);
  }
  if (typeof options !== 'object' || options === null) throw new SvcError('InvalidArgument', 'query options must be an object');
  const limits = resolveLimits(options, defaults);
  const deadline = new Deadline(milliseconds(options.deadlineMs, 'deadlineMs') ?? DEFAULT_DEADLINE_MS);
  const sliceMs = milliseconds(options.yieldAfterMs, 'yieldAfterMs') ?? DEFAULT_SLICE_MS;
  if (options.now !== undefined && typeof options.now !== 'bigint') throw new SvcError('InvalidArgument', 'now must be a bigint of nanoseconds since the epoch');
  if (options.signal !== undefined && typeof (options.signal as Partial<QuerySignal> | null)?.aborted !== 'boolean') {
    throw new SvcError('InvalidArgument', 'signal must be an AbortSignal or an object with a boolean `aborted`');
  }
  const ctx = new RunContext(deadline, limits, options.signal ?? null, sliceMs);
  const ready = (ast: Statement): PreparedRun => {
    if (options.readOnly === true && WRITE_KINDS.has(ast.kind)) {
      throw new SvcError('ReadOnlyQuery', 'this statement writes, and writes are not allowed here', { position: 0 });
    }
    if (options.signal?.aborted === true) throw new SvcError('QueryCancelled', 'the query was cancelled before it started');
    if (only !== null && ast.kind !== 'Select') throw new SvcError('InvalidArgument', 'only a SELECT runs in parts');
    const nowNs = options.now ?? BigInt(Date.now()) * 1_000_000n;
    // A SELECT of named tables may split its scans across worker threads, which plan its text again.
    const parallel = catalog.parallel ?? null;
    if (parallel !== null && catalog.placement === undefined && ast.kind === 'Select' && ast.join === null && ast.sources.every((s) => s.kind === 'TableRef')) {
      ctx.parallel = { ...parallel, text, nowNs, tables: [] };
    }
    return { ast, catalog, nowNs, ctx, text, only };
  };
  // A short text parses in well under a slice, without a promise; a long one (a wide WHERE, a
  // many-row INSERT: up to 1.8 s for 1 MiB) in slices that let the event loop run.
  if (text.length > SLICED_PARSE_CHARS) return parseSliced(text, ctx).then(ready, (e: unknown) => { throw toSyntaxError(e); });
  let ast: Statement;
  try {
    ast = parseCached(text);
  } catch (e) {
    throw toSyntaxError(e);
  }
  return ready(ast);
}

/** Texts longer than this are parsed in slices (~50 µs of parsing per 10 characters of a wide WHERE). */
const SLICED_PARSE_CHARS = 16 * 1024;
/** Tokens per parse step: ~1.5 ms of Earley parsing, so a slice overruns its budget by little. */
const TOKENS_PER_STEP = 256;

/**
 * Parses a long text a step at a time, pausing like a running query once a slice is used up (the
 * deadline and the signal are checked there, so a cancelled request stops parsing too).
 */
async function parseSliced(text: string, ctx: RunContext): Promise<Statement> {
  const steps = parseInSteps(text, TOKENS_PER_STEP);
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
    if (ctx.isDue()) await ctx.pause();
  }
}

/** A duration option: undefined, or a finite number ≥ 0 (NaN would never time out). */
function milliseconds(v: unknown, name: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
    throw new SvcError('InvalidArgument', `${name} must be a finite number of milliseconds ≥ 0, not ${String(v)}`);
  }
  return v;
}
