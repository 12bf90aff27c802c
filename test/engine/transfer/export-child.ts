// The embedded engine exporting more than its memory budget, as a child process of
// export-rss.test.ts (which samples its RSS). Row i has time T0 + i ms, a = i mod 7, v = i.
//   node export-child.js <dataDir> <rows> <memoryLimit> <format>
//     ingests the rows, then exports SELECT * in the format, reading the stream slowly at first
//     (a reader that lags holds the query, not memory); prints the bytes and the Parquet footer's
//     row count (or the CSV's line count) and the memory figures as JSON
import { pathToFileURL } from 'node:url';
import { parquetMetadata } from 'hyparquet';
import { Database } from '../../../engine/index.js';
import type { ExportFormat } from '../../../engine/index.js';

const T0 = 1_600_000_000_000_000_000n;
const BATCH = 100_000;
const MS = 1_000_000n;

async function main(dataDir: string, rows: number, memoryLimit: number, format: ExportFormat): Promise<void> {
  const db = await Database.open({ dataDir, memoryLimit, durability: 'none', sweepIntervalMs: 0 });
  await db.createTable('t', [{ name: 'a', type: 'DOUBLE' }, { name: 'v', type: 'INT64' }]);
  const ts = new BigInt64Array(BATCH);
  const a = new Float64Array(BATCH);
  for (let at = 0; at < rows; at += BATCH) {
    for (let k = 0; k < BATCH; k++) {
      ts[k] = T0 + BigInt(at + k) * MS;
      a[k] = (at + k) % 7;
    }
    await db.insert('t', { $timestamp: ts, a, v: ts });
  }
  process.stdout.write(`ingested ${rows}\n`);
  let bytes = 0;
  let lines = 0;
  let pieces = 0;
  // The footer is at the end: the last pieces are kept to read it.
  let tail: Uint8Array[] = [];
  for await (const piece of db.export('SELECT * FROM t', { format })) {
    bytes += piece.byteLength;
    if (format === 'csv') for (let i = 0; i < piece.length; i++) if (piece[i] === 10) lines++;
    tail.push(piece);
    if (tail.length > 64) tail = tail.slice(-32);
    if (++pieces < 200 && pieces % 20 === 0) await new Promise((r) => setTimeout(r, 20));
  }
  const end = Buffer.concat(tail);
  const counted = format === 'parquet' ? Number(parquetMetadata(end.buffer.slice(end.byteOffset, end.byteOffset + end.byteLength) as ArrayBuffer).num_rows) : lines - 1;
  process.stdout.write(`${JSON.stringify({ bytes, rows: counted, memory: db.figures().memory })}\n`);
  await db.close();
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dataDir, rows, limit, format] = process.argv.slice(2);
  await main(dataDir, Number(rows), Number(limit), format as ExportFormat);
}
