// A parsed request's tables as they cross from a worker thread to the main thread (the ingest
// parsers run in the database's worker pool: parse-task.ts): typed columns are transferred, not
// copied; a SYMBOL column travels as dictionary codes (its strings once each, where a list of
// strings would be serialized string by string) and a BOOLEAN one as bytes. The main thread
// turns them back into the engine's column form, which the write path takes as it is.
import type { IngestColumn } from '../ingest/column-builder.js';
import type { IngestTable } from '../ingest/ingest-batch.js';

type WireColumn =
  | { readonly name: string; readonly values: Extract<IngestColumn, { type: 'DOUBLE' }> | Extract<IngestColumn, { type: 'INT64' | 'TIMESTAMP' }> }
  | { readonly name: string; readonly type: 'SYMBOL'; readonly codes: Int32Array; readonly dictionary: readonly string[] }
  | { readonly name: string; readonly type: 'BOOLEAN'; readonly bytes: Uint8Array }
  | { readonly name: string; readonly type: 'STRING'; readonly strings: readonly (string | null)[] };

export interface WireTable extends Omit<IngestTable, 'columns'> {
  readonly columns: readonly WireColumn[];
}

const NULL_CODE = -1;
const NULL_BOOLEAN = 2;

/** `tables` in their transferable form, and the buffers to transfer. */
export function toWire(tables: readonly IngestTable[]): { tables: WireTable[]; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  const wire = tables.map((t): WireTable => {
    transfer.push(t.timestamps.buffer as ArrayBuffer);
    return { ...t, columns: t.columns.map(({ name, values: col }): WireColumn => {
      switch (col.type) {
        case 'DOUBLE':
        case 'INT64':
          transfer.push(col.values.buffer as ArrayBuffer);
          if (col.nulls !== null) transfer.push(col.nulls.buffer as ArrayBuffer);
          return { name, values: col };
        case 'SYMBOL': {
          const { codes, dictionary } = dictionaryCoded(col.values);
          transfer.push(codes.buffer as ArrayBuffer);
          return { name, type: 'SYMBOL', codes, dictionary };
        }
        case 'BOOLEAN': {
          const bytes = Uint8Array.from(col.values, (v) => (v === null ? NULL_BOOLEAN : v ? 1 : 0));
          transfer.push(bytes.buffer);
          return { name, type: 'BOOLEAN', bytes };
        }
        case 'STRING':
          return { name, type: 'STRING', strings: col.values };
        default:
          throw new Error(`ingest bug: a protocol column of type ${col.type}`);
      }
    }) };
  });
  return { tables: wire, transfer };
}

/** The tables a worker parsed, in the engine's column form. */
export function fromWire(tables: readonly WireTable[]): IngestTable[] {
  return tables.map((t) => ({ ...t, columns: t.columns.map(({ name, ...col }) => ({ name, values: column(col as WireColumn) })) }));
}

function column(col: WireColumn): IngestColumn {
  if ('values' in col) return col.values;
  switch (col.type) {
    case 'SYMBOL': {
      const { codes, dictionary } = col;
      const values = new Array<string | null>(codes.length);
      for (let i = 0; i < codes.length; i++) values[i] = codes[i] === NULL_CODE ? null : dictionary[codes[i]];
      return { type: 'SYMBOL', values };
    }
    case 'BOOLEAN': {
      const { bytes } = col;
      const values = new Array<boolean | null>(bytes.length);
      for (let i = 0; i < bytes.length; i++) values[i] = bytes[i] === NULL_BOOLEAN ? null : bytes[i] === 1;
      return { type: 'BOOLEAN', values };
    }
    case 'STRING':
      return { type: 'STRING', values: col.strings };
  }
}

/** A symbol column as codes into its distinct strings (a series' string is shared by its rows). */
function dictionaryCoded(values: readonly (string | null)[]): { codes: Int32Array; dictionary: string[] } {
  const codes = new Int32Array(values.length);
  const dictionary: string[] = [];
  const codeOf = new Map<string, number>();
  let last: string | null = null;
  let lastCode = NULL_CODE;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null) { codes[i] = NULL_CODE; continue; }
    if (v !== last) {
      let c = codeOf.get(v);
      if (c === undefined) { c = dictionary.length; dictionary.push(v); codeOf.set(v, c); }
      last = v;
      lastCode = c;
    }
    codes[i] = lastCode;
  }
  return { codes, dictionary };
}
