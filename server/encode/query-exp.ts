// The `query_exp` answer (seed 000 §2, SPEC §7): row-major, one table object per source table,
// the row time first as `timestamp` (date_format js → ISO 8601 with milliseconds, native →
// {"tv_sec","tv_nsec"}; a row without a time → null), then the selected columns. An empty
// result gives tables_count 0 and tables []. A standalone find(...) gives one table per
// matching alias with no columns and no rows — the shape api/query uses for finds.
import type { QueryResult, ResultTable } from '../../engine/index.js';
import { cellText, rowTimeText } from './json-cells.js';
import type { CellText } from './json-cells.js';
import { CHUNK_CHARS, utf8 } from './text-chunks.js';

export type DateFormat = 'js' | 'native';

export function* encodeQueryExp(query: string, result: QueryResult, dateFormat: DateFormat): Generator<Uint8Array, void, undefined> {
  const aliases = result.kind === 'find' ? result.aliases ?? [] : [];
  const tableCount = result.kind === 'find' ? aliases.length : result.tables.length;
  let out = `{"query":${JSON.stringify(query)},"scanned_rows_count":${result.scannedRowsCount},"tables_count":${tableCount},"tables":[`;
  if (result.kind === 'find') {
    out += aliases.map((a) => `{"table_name":${JSON.stringify(a)},"rows_count":0,"columns_count":0,"columns_names":[],"results":[]}`).join(',');
  } else {
    for (let t = 0; t < result.tables.length; t++) {
      const table = result.tables[t];
      if (t > 0) out += ',';
      out += tableHead(table);
      const cells: CellText[] = [rowTimeText(table.timestamps, table.timestampNulls, dateFormat)];
      for (const c of table.columns) cells.push(cellText(c, dateFormat));
      for (let i = 0; i < table.rowCount; i++) {
        out += i === 0 ? '[' : ',[';
        out += cells[0](i);
        for (let c = 1; c < cells.length; c++) out += `,${cells[c](i)}`;
        out += ']';
        if (out.length >= CHUNK_CHARS) {
          yield utf8(out);
          out = '';
        }
      }
      out += ']}';
    }
  }
  yield utf8(`${out}]}`);
}

function tableHead(table: ResultTable): string {
  const names = ['timestamp', ...table.columns.map((c) => c.name)];
  return `{"table_name":${JSON.stringify(table.name)},"rows_count":${table.rowCount},"columns_count":${names.length},` +
    `"columns_names":${JSON.stringify(names)},"results":[`;
}
