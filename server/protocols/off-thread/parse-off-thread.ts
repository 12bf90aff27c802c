// Where an ingest body is parsed: in one of the database's worker threads when it has them and the
// body is large enough to pay for the trip (parse-task.ts), else here as before. A worker parses
// without the table schemas, so its tables are checked here, against the schemas of the moment,
// in the same synchronous step as the write that follows (`write`): a column whose table already
// has it as another type, a table dropped since, an error in the body — the body is then parsed
// here again, which gives exactly the answer (the 400 naming the first bad line, or the write)
// the main thread would have given. The write path applies what either way produced.
import type { Database } from '../../../engine/index.js';
import type { IngestTable } from '../ingest/ingest-batch.js';
import { schemaLookup } from '../ingest/apply-ingest.js';
import { fromWire } from './wire-tables.js';
import type { ParsedBody } from './parse-task.js';

/** The module of the ingest tasks, which the server has the database's workers load (WorkerPool.load). */
export const INGEST_TASKS = new URL('./parse-task.js', import.meta.url);

/** Below this, a body is parsed here: the trip to a worker (~0.1 ms) costs more than it saves. */
const MIN_WORKER_BYTES = 64 * 1024;

export interface Parsed {
  readonly tables: IngestTable[];
  readonly lines: number;
  readonly values: number;
}

/**
 * Parses `body` with `task` in a worker (or with `here` on this thread) and hands the result to
 * `write` at once, in the step where it was checked against the schemas.
 */
export async function parseThenWrite<R>(db: Database, task: 'lineProtocol' | 'remoteWrite', body: Uint8Array, input: object,
  here: (body: Uint8Array) => Parsed, write: (parsed: Parsed) => Promise<R>): Promise<R> {
  const pool = db.workers;
  if (pool === null || !pool.isAvailable || body.length < MIN_WORKER_BYTES) return write(here(body));
  const owned = ownBuffer(body);
  const answer = await pool.run<ParsedBody>(task, { ...input, body: owned }, [owned.buffer as ArrayBuffer]);
  const tables = answer.tables === null ? null : fromWire(answer.tables);
  if (tables === null || !fitsSchemas(db, tables)) return write(here(answer.body));
  return write({ tables, lines: answer.lines, values: answer.values });
}

/** `body`, or a copy when its memory is shared with other buffers (it is moved to the worker). */
function ownBuffer(body: Uint8Array): Uint8Array {
  return body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && !(body.buffer instanceof SharedArrayBuffer) ? body : body.slice();
}

/** Whether every column of `tables` is absent from its table or of the type parsed. */
function fitsSchemas(db: Database, tables: readonly IngestTable[]): boolean {
  const schemaOf = schemaLookup(db);
  try {
    for (const t of tables) {
      const schema = schemaOf(t.name);
      if (schema === null) continue;
      for (const c of t.columns) {
        const type = schema.get(c.name);
        if (type !== undefined && type !== c.values.type) return false;
      }
    }
  } catch {
    return false; // not a table: the parse here raises what it must
  }
  return true;
}
