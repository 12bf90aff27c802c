// Prometheus remote write 1.0 (a snappy-compressed protobuf WriteRequest) into per-table typed
// columns, QuasarDB's mapping: metric `m` (the `__name__` label) → table `$qdb.prom.m`, each
// sample → a row with `value DOUBLE` at its millisecond timestamp, every other label → a SYMBOL
// column named after it. A series' labels are decoded once and cached by their bytes across
// requests (a scraping Prometheus sends the same series every round), so a known series costs
// one hash; samples go straight into the builders.
//
// prompb: WriteRequest{1: repeated TimeSeries}; TimeSeries{1: repeated Label, 2: repeated Sample};
// Label{1: name, 2: value}; Sample{1: double value, 2: int64 timestamp (ms)}.
import { BytesMap, fnvHash } from '../ingest/bytes-map.js';
import { IngestConflict, TableBuilder } from '../ingest/ingest-batch.js';
import type { IngestTable, SchemaLookup } from '../ingest/ingest-batch.js';
import { storeScaledInt } from '../line-protocol/numbers.js';
import { ProtoError, ProtoReader } from './proto-reader.js';

export const PROM_TABLE_PREFIX = '$qdb.prom.';
export const VALUE_COLUMN = 'value';
const NAME_LABEL = '__name__';
const MS = 1_000_000;

/** A WriteRequest that cannot be applied: nothing of it is. */
export class RemoteWriteError extends Error {}

interface PromTable {
  readonly name: string;
  readonly id: number;
  readonly names: string[];
  readonly ids: Map<string, number>;
}

interface Series {
  readonly table: PromTable;
  readonly labelIds: readonly number[];
  readonly labelValues: readonly string[];
}

export interface RemoteWriteResult {
  readonly tables: IngestTable[];
  readonly samples: number;
}

export class RemoteWriteDecoder {
  private readonly series = new BytesMap<Series>(1 << 18);
  private readonly tables = new Map<string, PromTable>();
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });

  decode(body: Uint8Array, schemaOf: SchemaLookup): RemoteWriteResult {
    const builders: (TableBuilder | undefined)[] = [];
    const touched: TableBuilder[] = [];
    let samples = 0;
    try {
      const r = new ProtoReader(body);
      while (r.next(1)) {
        const s = r.from;
        const e = r.to;
        const series = this.seriesOf(body, s, e);
        let tb = builders[series.table.id];
        if (tb === undefined) {
          tb = new TableBuilder(series.table.name, series.table.names, schemaOf(series.table.name));
          builders[series.table.id] = tb;
          touched.push(tb);
        }
        samples += this.samples(body, s, e, series, tb);
      }
    } catch (e) {
      if (e instanceof ProtoError || e instanceof IngestConflict || e instanceof TypeError) throw new RemoteWriteError(`invalid WriteRequest: ${e.message}`);
      throw e;
    }
    return { tables: touched.map((tb) => tb.finish()), samples };
  }

  /** The series of the TimeSeries message body[s..e): from the cache, or decoded and cached. */
  private seriesOf(b: Uint8Array, s: number, e: number): Series {
    // Labels come first (Prometheus writes them so): their bytes are the cache key.
    const r = new ProtoReader(b, s, e);
    let labelsEnd = s;
    while (!r.done) {
      const tag = r.tag();
      if (tag >>> 3 !== 1) break;
      if ((tag & 7) !== 2) throw new ProtoError('a label must be a message');
      r.delimited();
      labelsEnd = r.pos;
    }
    const h = fnvHash(b, s, labelsEnd);
    const hit = labelsEnd > s ? this.series.get(b, s, labelsEnd, h) : undefined;
    if (hit !== undefined) return hit;
    const series = this.decodeLabels(b, s, e);
    if (labelsEnd > s) this.series.set(b, s, labelsEnd, h, series);
    return series;
  }

  private decodeLabels(b: Uint8Array, s: number, e: number): Series {
    const names: string[] = [];
    const values: string[] = [];
    const r = new ProtoReader(b, s, e);
    while (r.next(1)) {
      const lr = new ProtoReader(b, r.from, r.to);
      let name = '';
      let value = '';
      while (!lr.done) {
        const t = lr.tag();
        if (t === (1 << 3 | 2) || t === (2 << 3 | 2)) {
          const [vs, ve] = lr.delimited();
          const text = this.utf8.decode(b.subarray(vs, ve));
          if (t >>> 3 === 1) name = text;
          else value = text;
        } else lr.skip(t & 7);
      }
      names.push(name);
      values.push(value);
    }
    const at = names.indexOf(NAME_LABEL);
    if (at < 0 || values[at] === '') throw new ProtoError('a series without a __name__ label');
    const table = this.table(PROM_TABLE_PREFIX + values[at]);
    const labelIds: number[] = [];
    const labelValues: string[] = [];
    for (let i = 0; i < names.length; i++) {
      // An empty label value means "no such label" in Prometheus.
      if (i === at || values[i] === '') continue;
      if (names[i] === VALUE_COLUMN || names[i] === '$timestamp') throw new ProtoError(`label '${names[i]}' collides with a column of the metric's table`);
      labelIds.push(columnId(table, names[i]));
      labelValues.push(values[i]);
    }
    return { table, labelIds, labelValues };
  }

  /** Writes the samples of TimeSeries body[s..e) as rows; returns how many. */
  private samples(b: Uint8Array, s: number, e: number, series: Series, tb: TableBuilder): number {
    const valueId = columnId(series.table, VALUE_COLUMN);
    let n = 0;
    const r = new ProtoReader(b, s, e);
    while (r.next(2)) {
      const sr = new ProtoReader(b, r.from, r.to);
      let value = 0;
      let ms = 0;
      while (!sr.done) {
        const t = sr.tag();
        if (t === (1 << 3 | 1)) value = sr.double();
        else if (t === (2 << 3 | 0)) ms = sr.int64();
        else sr.skip(t & 7);
      }
      const row = tb.rows;
      tb.ensureRow(row);
      if (!Number.isSafeInteger(ms) || !storeScaledInt(tb.ts, row, ms, MS)) throw new ProtoError(`timestamp ${ms} ms is outside the int64-nanosecond span`);
      let col = tb.cols[valueId];
      if (col === undefined || col.type !== 'DOUBLE') col = tb.open(valueId, 'DOUBLE');
      col.ensure(row);
      col.f64[row] = value;
      col.nulls[row] = 0;
      for (let i = 0; i < series.labelIds.length; i++) {
        const id = series.labelIds[i];
        let lc = tb.cols[id];
        if (lc === undefined || lc.type !== 'SYMBOL') lc = tb.open(id, 'SYMBOL');
        lc.ensure(row);
        lc.refs[row] = series.labelValues[i];
        lc.nulls[row] = 0;
      }
      tb.rows = row + 1;
      n++;
    }
    return n;
  }

  private table(name: string): PromTable {
    let t = this.tables.get(name);
    if (t === undefined) {
      t = { name, id: this.tables.size, names: [], ids: new Map() };
      this.tables.set(name, t);
    }
    return t;
  }
}

function columnId(table: PromTable, name: string): number {
  let id = table.ids.get(name);
  if (id === undefined) {
    id = table.names.length;
    table.names.push(name);
    table.ids.set(name, id);
  }
  return id;
}
