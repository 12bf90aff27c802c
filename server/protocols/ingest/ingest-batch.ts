// What a protocol request becomes before anything is applied: per table, the rows as typed
// columns, the columns the table lacks (added on first sight) and whether the table itself is
// new. Column types are checked as values arrive — against the table's schema when the table
// exists, else against the first value of the request — so a request that passes parsing can be
// applied whole (every line or none).
import { ColumnBuilder } from './column-builder.js';
import type { IngestColumn, IngestType } from './column-builder.js';

export interface IngestTable {
  readonly name: string;
  /** True when the table does not exist yet: the write creates it. */
  readonly create: boolean;
  /** Columns the table lacks, in order of first sight: the write adds them. */
  readonly addColumns: readonly { readonly name: string; readonly type: IngestType }[];
  readonly timestamps: BigInt64Array;
  readonly columns: readonly { readonly name: string; readonly values: IngestColumn }[];
}

/** A table's columns as the engine has them (type names of the engine), or null when absent. */
export type SchemaLookup = (table: string) => ReadonlyMap<string, string> | null;

/** A value that does not fit its column; the parser adds the line. */
export class IngestConflict extends Error {}

/** The rows a request writes into one table, column ids being the parser's (stable per table). */
export class TableBuilder {
  rows = 0;
  /** Timestamp slots as int32 word pairs (little-endian int64). */
  ts: Int32Array;
  readonly cols: (ColumnBuilder | undefined)[] = [];
  private readonly added: number[] = [];

  constructor(
    readonly name: string,
    /** Column names by id; shared with the parser's registry (ids only grow). */
    private readonly names: readonly string[],
    /** The table's schema when it exists, null when the write creates it. */
    private readonly schema: ReadonlyMap<string, string> | null,
    /** Rows expected (the previous request's count for this table): columns start that large. */
    private readonly expectedRows = 0,
  ) {
    this.ts = new Int32Array(2 * Math.max(256, expectedRows));
  }

  /** Makes row slot `row` writable for the timestamp. */
  ensureRow(row: number): void {
    if (2 * row + 1 >= this.ts.length) {
      const ts = new Int32Array(Math.max(this.ts.length * 2, 2 * row + 2));
      ts.set(this.ts);
      this.ts = ts;
    }
  }

  /**
   * The column `id` for a value of `type`, opened on first use in this request. Throws
   * IngestConflict when the table's column, or the request's first value, has another type.
   */
  open(id: number, type: IngestType): ColumnBuilder {
    const name = this.names[id];
    const had = this.cols[id];
    if (had !== undefined) throw new IngestConflict(`${describe(type)} value for column '${name}' of table '${this.name}', which is ${had.type} (set by an earlier line)`);
    const existing = this.schema?.get(name);
    if (existing !== undefined && existing !== type) {
      throw new IngestConflict(`${describe(type)} value for column '${name}' of table '${this.name}', which is ${existing}`);
    }
    if (existing === undefined) this.added.push(id);
    const col = new ColumnBuilder(type, Math.max(this.rows + 1, this.expectedRows));
    this.cols[id] = col;
    return col;
  }

  finish(): IngestTable {
    const rows = this.rows;
    const columns: { name: string; values: ReturnType<ColumnBuilder['finish']> }[] = [];
    for (let id = 0; id < this.cols.length; id++) {
      const col = this.cols[id];
      if (col !== undefined) columns.push({ name: this.names[id], values: col.finish(rows) });
    }
    return {
      name: this.name,
      create: this.schema === null,
      addColumns: this.added.map((id) => ({ name: this.names[id], type: this.cols[id]!.type })),
      timestamps: new BigInt64Array(this.ts.length === 2 * rows ? this.ts.buffer : this.ts.buffer.slice(0, rows * 8)),
      columns,
    };
  }
}

function describe(type: IngestType): string {
  return `a ${type}`;
}
