// What every shard of a table shares: the schema, its Arrow form, the SYMBOL dictionaries, the
// seal size and the size of the last sealed tail (how large to make the next one). The schema
// only grows (ALTER TABLE … ADD COLUMN, ingest protocols): columns are appended, never changed.
import type { Schema } from 'apache-arrow';
import { arrowSchema } from './arrow-schema.js';
import { SymbolDictionary } from './symbol-dictionary.js';
import type { ColumnDef } from '../types.js';

export class TableLayout {
  private current: readonly ColumnDef[];
  private arrow: Schema;
  readonly dictionaries: (SymbolDictionary | null)[];
  /** Rows of the table's most recently sealed tail: a new tail allocates about that many. */
  tailRowsHint = 0;

  constructor(columns: readonly ColumnDef[], readonly batchRows: number) {
    this.current = columns;
    this.arrow = arrowSchema(columns);
    this.dictionaries = columns.map((c) => (c.type === 'SYMBOL' ? new SymbolDictionary() : null));
  }

  get columns(): readonly ColumnDef[] {
    return this.current;
  }

  get schema(): Schema {
    return this.arrow;
  }

  /** Appends columns (validated by the write path: new names, known types). */
  addColumns(columns: readonly ColumnDef[]): void {
    this.current = [...this.current, ...columns];
    this.arrow = arrowSchema(this.current);
    for (const c of columns) this.dictionaries.push(c.type === 'SYMBOL' ? new SymbolDictionary() : null);
  }
}
