// The `query_exp` answer (seed 000 §2, SPEC §7): row-major, one table object per source table,
// the row time first as `timestamp` (date_format js → ISO 8601 with milliseconds, native →
// {"tv_sec","tv_nsec"}; a row without a time → null), then the selected columns. An empty
// result gives tables_count 0 and tables []. A standalone find(...) gives one table per
// matching alias with no columns and no rows — the shape api/query uses for finds.
import type { QueryResult, ResultTable } from '../../engine/index.js';
import { cellWriter, rowTimeWriter } from './json-cells.js';
import type { CellWriter } from './json-cells.js';
import { JsonBytes } from './json-bytes.js';

export type DateFormat = 'js' | 'native';

/** A guess at one cell's bytes, for the first buffer's size (a native time takes ~40). */
const BYTES_PER_VALUE = 28;

export function* encodeQueryExp(query: string, result: QueryResult, dateFormat: DateFormat): Generator<Uint8Array, void, undefined> {
  const aliases = result.kind === 'find' ? result.aliases ?? [] : [];
  const tables = result.kind === 'rows' ? result.tables : [];
  const w = new JsonBytes(query.length + 256 + tables.reduce((n, t) => n + 256 + t.rowCount * (t.columns.length + 1) * BYTES_PER_VALUE, 0) + aliases.length * 128);
  const tableCount = result.kind === 'find' ? aliases.length : tables.length;
  w.text(`{"query":${JSON.stringify(query)},"scanned_rows_count":${result.scannedRowsCount},"tables_count":${tableCount},"tables":[`);
  for (let a = 0; a < aliases.length; a++) {
    w.text(`${a > 0 ? ',' : ''}{"table_name":${JSON.stringify(aliases[a])},"rows_count":0,"columns_count":0,"columns_names":[],"results":[]}`);
  }
  for (let t = 0; t < tables.length; t++) {
    const table = tables[t];
    if (t > 0) w.byte(44); // ','
    w.text(tableHead(table));
    const time = rowTimeWriter(table.timestamps, table.timestampNulls, dateFormat);
    const cells: CellWriter[] = table.columns.map((c) => cellWriter(c, dateFormat));
    for (let i = 0; i < table.rowCount; i++) {
      if (i > 0) w.byte(44);
      w.byte(91); // '['
      time(w, i);
      for (let c = 0; c < cells.length; c++) {
        w.byte(44);
        cells[c](w, i);
      }
      w.byte(93); // ']'
      if (w.isFull) yield w.take();
    }
    w.ascii(']}');
  }
  w.ascii(']}');
  yield w.take();
}

function tableHead(table: ResultTable): string {
  const names = ['timestamp', ...table.columns.map((c) => c.name)];
  return `{"table_name":${JSON.stringify(table.name)},"rows_count":${table.rowCount},"columns_count":${names.length},` +
    `"columns_names":${JSON.stringify(names)},"results":[`;
}
