// The rows of a result as the grid shows them and the CSV download writes them: the rows of every
// source table one after another (a first `$table` column when there are several), the columns
// of all tables by name, an optional sort by one column, and each cell's shown text (numbers to
// the column's precision, times in the page's clock) beside its exact text (the hover, the CSV).
import { formatTime } from './clock.js';
import type { ClockMode } from './clock.js';
import { numberFormat } from './number-format.js';
import type { NumberFormat } from './number-format.js';
import type { ResultColumn, ResultTable, ValueKind } from './result.js';

export interface GridColumn {
  readonly name: string;
  /** `table`: the `$table` column naming each row's source table. */
  readonly kind: ValueKind | 'table';
}

export type SortDirection = 'asc' | 'desc';

const TABLE_COLUMN = '$table';

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export class ResultRows {
  readonly columns: readonly GridColumn[];
  readonly rowCount: number;
  private readonly offsets: number[] = [];
  /** Per table, the result column behind each grid column (undefined: the table lacks it). */
  private readonly sources: (ResultColumn | undefined)[][];
  private readonly formats = new Map<ResultColumn, NumberFormat>();
  private order: Uint32Array | null = null;
  sorted: { readonly column: number; readonly direction: SortDirection } | null = null;

  constructor(private readonly tables: readonly ResultTable[], public clock: ClockMode) {
    const withTable = tables.length > 1 && !tables.some((t) => t.columns.some((c) => c.name === TABLE_COLUMN));
    const names: string[] = [];
    const kinds = new Map<string, ValueKind>();
    for (const t of tables) {
      for (const c of t.columns) {
        if (!kinds.has(c.name)) { names.push(c.name); kinds.set(c.name, c.kind); }
      }
    }
    this.columns = [...(withTable ? [{ name: TABLE_COLUMN, kind: 'table' as const }] : []), ...names.map((name) => ({ name, kind: kinds.get(name)! }))];
    this.sources = tables.map((t) => this.columns.map((g) => t.columns.find((c) => c.name === g.name)));
    let total = 0;
    for (const t of tables) { this.offsets.push(total); total += t.rowCount; }
    this.rowCount = total;
  }

  /** The table and its row behind a shown row (in the sorted order when sorted). */
  private locate(shown: number): [number, number] {
    const row = this.order === null ? shown : this.order[shown]!;
    let t = this.tables.length - 1;
    while (t > 0 && this.offsets[t]! > row) t--;
    return [t, row - this.offsets[t]!];
  }

  private format(c: ResultColumn): NumberFormat {
    let f = this.formats.get(c);
    if (f === undefined) {
      f = numberFormat(c.numbers!, c.type !== 'double' && c.type !== 'number');
      this.formats.set(c, f);
    }
    return f;
  }

  isNull(shown: number, column: number): boolean {
    const [t, r] = this.locate(shown);
    const c = this.sources[t]![column];
    return this.columns[column]!.kind !== 'table' && (c === undefined || c.isNull(r));
  }

  /** The exact text of a cell ('' for null): times in the page's clock with all their digits. */
  exact(shown: number, column: number): string {
    const [t, r] = this.locate(shown);
    if (this.columns[column]!.kind === 'table') return this.tables[t]!.name;
    const c = this.sources[t]![column];
    if (c === undefined || c.isNull(r)) return '';
    return c.kind === 'time' ? formatTime(c.numbers![r]!, c.subMs?.(r) ?? '', this.clock) : c.exact(r);
  }

  /** The shown text of a cell: 'null' for null, numbers to their column's precision. */
  text(shown: number, column: number): string {
    const [t, r] = this.locate(shown);
    const c = this.sources[t]![column];
    if (this.columns[column]!.kind !== 'table' && (c === undefined || c.isNull(r))) return 'null';
    if (c !== undefined && c.kind === 'number' && (c.type === 'double' || c.type === 'number')) return this.format(c).format(c.numbers![r]!);
    return this.exact(shown, column);
  }

  /** Sorts the rows by one column (nulls last either way), or back to the answer's order. */
  sort(column: number | null, direction: SortDirection = 'asc'): void {
    this.order = null;
    this.sorted = null;
    if (column === null) return;
    const n = this.rowCount;
    const kind = this.columns[column]!.kind;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    const sign = direction === 'asc' ? 1 : -1;
    if (kind === 'number' || kind === 'boolean' || kind === 'time') {
      const keys = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const [t, r] = this.locate(i);
        const c = this.sources[t]![column];
        keys[i] = c === undefined || c.isNull(r) ? NaN : c.numbers![r]!;
      }
      order.sort((a, b) => {
        const x = keys[a]!;
        const y = keys[b]!;
        if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? a - b : 1) : -1;
        return (x - y) * sign || a - b;
      });
    } else {
      const keys = Array.from({ length: n }, (_, i) => (this.isNull(i, column) ? null : this.exact(i, column)));
      order.sort((a, b) => {
        const x = keys[a]!;
        const y = keys[b]!;
        if (x === null || y === null) return x === null ? (y === null ? a - b : 1) : -1;
        return (x < y ? -1 : x > y ? 1 : 0) * sign || a - b;
      });
    }
    this.order = order;
    this.sorted = { column, direction };
  }

  /** The rows as CSV (RFC 4180, CRLF), in the shown order: header, then exact values, '' for null. */
  csv(): Blob {
    const parts: string[] = [`${this.columns.map((c) => csvField(c.name)).join(',')}\r\n`];
    let chunk = '';
    for (let r = 0; r < this.rowCount; r++) {
      let line = '';
      for (let c = 0; c < this.columns.length; c++) line += (c === 0 ? '' : ',') + csvField(this.exact(r, c));
      chunk += `${line}\r\n`;
      if (chunk.length > 1 << 20) { parts.push(chunk); chunk = ''; }
    }
    parts.push(chunk);
    return new Blob(parts, { type: 'text/csv;charset=utf-8' });
  }
}
