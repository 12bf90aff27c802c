// What every shard of a table shares: the schema, its Arrow form, the SYMBOL dictionaries, the
// seal size and the size of the last sealed tail (how large to make the next one).
import type { Schema } from 'apache-arrow';
import { arrowSchema } from './arrow-schema.js';
import { SymbolDictionary } from './symbol-dictionary.js';
import type { ColumnDef } from '../types.js';

export class TableLayout {
  readonly schema: Schema;
  readonly dictionaries: (SymbolDictionary | null)[];
  /** Rows of the table's most recently sealed tail: a new tail allocates about that many. */
  tailRowsHint = 0;

  constructor(readonly columns: readonly ColumnDef[], readonly batchRows: number) {
    this.schema = arrowSchema(columns);
    this.dictionaries = columns.map((c) => (c.type === 'SYMBOL' ? new SymbolDictionary() : null));
  }
}
