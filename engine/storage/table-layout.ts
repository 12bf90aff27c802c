// What every shard of a table shares: the schema, its Arrow form, the SYMBOL dictionaries, the
// seal size, the size of the last sealed tail (how large to make the next one) and the memory
// budget its data is counted in.
import type { Data, Schema } from 'apache-arrow';
import type { MemoryBudget } from '../memory/index.js';
import { arrowSchema } from './arrow-schema.js';
import { nullColumnData } from './sealed-batch.js';
import { SymbolDictionary } from './symbol-dictionary.js';
import type { ColumnDef } from '../types.js';

export class TableLayout {
  readonly schema: Schema;
  readonly dictionaries: (SymbolDictionary | null)[];
  /** Rows of the table's most recently sealed tail: a new tail allocates about that many. */
  tailRowsHint = 0;
  /** All-null columns by `index:rows`, for batches written before their column existed. */
  private readonly nulls = new Map<string, Data>();

  constructor(readonly columns: readonly ColumnDef[], readonly batchRows: number, readonly budget: MemoryBudget) {
    this.schema = arrowSchema(columns);
    this.dictionaries = columns.map((c) => (c.type === 'SYMBOL' ? new SymbolDictionary() : null));
  }

  /** Column `index` (0 = `$timestamp`) of `rows` rows, all null. */
  nullData(index: number, rows: number): Data {
    const key = `${index}:${rows}`;
    let data = this.nulls.get(key);
    if (data === undefined) {
      const def = this.columns[index - 1];
      data = nullColumnData(this.schema.fields[index].type, def.type, rows, this.dictionaries[index - 1]?.toVector() ?? null);
      this.nulls.set(key, data);
    }
    return data;
  }
}
