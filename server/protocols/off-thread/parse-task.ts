// The ingest parsers as tasks of the database's worker threads (engine/workers/): a request body
// is parsed there into typed columns, which come back transferred (wire-tables.ts), and the one
// write-path owner on the main thread applies them (parse-off-thread.ts). A worker knows no table
// schema — it parses as if every table and column were new — so what it finds wrong is the body's
// own fault; the main thread checks the columns against the schemas of the moment. Each worker
// keeps its own parser, whose caches of series keys and names serve every request it parses.
// The body goes back with the answer (transferred too): the main thread parses it again when the
// schemas or an error need its exact answer.
import type { TaskOutput } from '../../../engine/index.js';
import { LineProtocolError, LineProtocolParser } from '../line-protocol/line-protocol-parser.js';
import { RemoteWriteDecoder, RemoteWriteError } from '../prometheus/remote-write.js';
import type { IngestTable } from '../ingest/ingest-batch.js';
import { toWire } from './wire-tables.js';
import type { WireTable } from './wire-tables.js';

/** A worker's answer: the tables (null when the body has an error), counts, and the body back. */
export interface ParsedBody {
  readonly tables: WireTable[] | null;
  /** Lines and field values (line protocol), samples twice (remote write). */
  readonly lines: number;
  readonly values: number;
  readonly body: Uint8Array;
}

const parser = new LineProtocolParser();
const decoder = new RemoteWriteDecoder();
const NO_SCHEMA = (): null => null;

function answer(body: Uint8Array, parsed: { tables: IngestTable[]; lines: number; values: number } | null): TaskOutput<ParsedBody> {
  if (parsed === null) return { value: { tables: null, lines: 0, values: 0, body }, transfer: [body.buffer as ArrayBuffer] };
  const { tables, transfer } = toWire(parsed.tables);
  return { value: { tables, lines: parsed.lines, values: parsed.values, body }, transfer: [...transfer, body.buffer as ArrayBuffer] };
}

export const workerTasks = {
  lineProtocol(input: { readonly body: Uint8Array; readonly multiplier: number; readonly now: bigint }): TaskOutput<ParsedBody> {
    try {
      return answer(input.body, parser.parse(input.body, { multiplier: input.multiplier, now: input.now, schemaOf: NO_SCHEMA }));
    } catch (e) {
      if (e instanceof LineProtocolError) return answer(input.body, null);
      throw e;
    }
  },
  remoteWrite(input: { readonly body: Uint8Array }): TaskOutput<ParsedBody> {
    try {
      const decoded = decoder.decode(input.body, NO_SCHEMA);
      return answer(input.body, { tables: decoded.tables, lines: decoded.samples, values: decoded.samples });
    } catch (e) {
      if (e instanceof RemoteWriteError) return answer(input.body, null);
      throw e;
    }
  },
};
