// What every shard of a table shares: the schema, its Arrow form, the SYMBOL dictionaries, the
// seal size, the size of the last sealed tail (how large to make the next one) and the memory
// budget its data is counted in. The schema only grows (ALTER TABLE … ADD COLUMN, ingest
// protocols): columns are appended, never changed; a batch written before a column existed reads
// it as all null (nullData, asked through the batch door: sealed-batch.ts).
import type { Data, Schema } from 'apache-arrow';
import type { MemoryBudget } from '../memory/index.js';
import { arrowSchema, nullColumnData } from './arrow-schema.js';
import { SymbolDictionary } from './symbol-dictionary.js';
import type { ColumnDef } from '../types.js';

export class TableLayout {
  private current: readonly ColumnDef[];
  private arrow: Schema;
  readonly dictionaries: (SymbolDictionary | null)[];
  /** Rows of the table's most recently sealed tail: a new tail allocates about that many. */
  tailRowsHint = 0;
  /** All-null columns by `index:rows`, for batches written before their column existed. */
  private readonly nulls = new Map<string, Data>();

  constructor(columns: readonly ColumnDef[], readonly batchRows: number, readonly budget: MemoryBudget) {
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
