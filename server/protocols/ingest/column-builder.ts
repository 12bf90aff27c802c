// Growable typed columns that protocol parsers write into by row index: numbers into typed
// arrays, int64 as the two 32-bit words of each slot, booleans as bytes, strings and symbols as
// references (a symbol's string is the series' own, shared by every row of the series). A row a
// column was not written at is null: the null mask starts all set and a write clears its byte.
import type { ColumnValues } from '../../../engine/index.js';

/** The column types a protocol's values take. */
export type IngestType = 'DOUBLE' | 'INT64' | 'STRING' | 'SYMBOL' | 'BOOLEAN';

/** One column of a table's rows, in the engine's column form (the write path takes it as it is). */
export type IngestColumn = ColumnValues;

const INITIAL_ROWS = 256;

export class ColumnBuilder {
  readonly type: IngestType;
  /** Float64 values (DOUBLE), the int64 slots as words (INT64), bytes (BOOLEAN). */
  f64: Float64Array = EMPTY_F64;
  words: Int32Array = EMPTY_I32;
  bytes: Uint8Array = EMPTY_U8;
  refs: (string | null)[] = [];
  /** 1 = null, one byte per row (the engine's mask form). */
  nulls: Uint8Array = EMPTY_U8;
  capacity = 0;

  constructor(type: IngestType, rows: number) {
    this.type = type;
    this.grow(Math.max(INITIAL_ROWS, rows));
  }

  /** Makes row `row` writable; called before every write (cheap when it already is). */
  ensure(row: number): void {
    if (row >= this.capacity) this.grow(Math.max(this.capacity * 2, row + 1));
  }

  private grow(capacity: number): void {
    const nulls = new Uint8Array(capacity);
    nulls.set(this.nulls);
    nulls.fill(1, this.capacity);
    this.nulls = nulls;
    switch (this.type) {
      case 'DOUBLE': {
        const v = new Float64Array(capacity);
        v.set(this.f64);
        this.f64 = v;
        break;
      }
      case 'INT64': {
        const v = new Int32Array(capacity * 2);
        v.set(this.words);
        this.words = v;
        break;
      }
      case 'BOOLEAN': {
        const v = new Uint8Array(capacity);
        v.set(this.bytes);
        this.bytes = v;
        break;
      }
      case 'STRING':
      case 'SYMBOL':
        break; // a JS array grows by itself; holes become nulls in finish()
    }
    this.capacity = capacity;
  }

  /**
   * The first `rows` rows as an engine column: the arrays themselves when they hold exactly
   * `rows` rows (a builder is finished once), else copies of the rows.
   */
  finish(rows: number): IngestColumn {
    const exact = this.capacity === rows;
    const nulls = exact ? this.nulls : this.nulls.slice(0, rows);
    switch (this.type) {
      case 'DOUBLE':
        return { type: 'DOUBLE', values: exact ? this.f64 : this.f64.slice(0, rows), nulls };
      case 'INT64':
        return { type: 'INT64', values: new BigInt64Array(exact ? this.words.buffer : this.words.buffer.slice(0, rows * 8)), nulls };
      case 'BOOLEAN': {
        // The engine holds booleans as a list until a batch packs them into bits.
        const values = new Array<boolean | null>(rows);
        const bytes = this.bytes;
        for (let i = 0; i < rows; i++) values[i] = nulls[i] === 1 ? null : bytes[i] === 1;
        return { type: 'BOOLEAN', values };
      }
      case 'STRING':
      case 'SYMBOL': {
        const values = new Array<string | null>(rows);
        const refs = this.refs;
        for (let i = 0; i < rows; i++) values[i] = nulls[i] === 1 ? null : (refs[i] as string);
        return { type: this.type, values };
      }
    }
  }
}

const EMPTY_F64 = new Float64Array(0);
const EMPTY_I32 = new Int32Array(0);
const EMPTY_U8 = new Uint8Array(0);
