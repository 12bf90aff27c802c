// `npm start`: a runnable demo of the embedded API until the HTTP server exists. It opens a
// database in ./data, ingests a day of ticks, stores a blob with a tag, queries, and closes.
import { Database } from '../engine/index.js';

const dataDir = process.env.SVC_DATA_DIR ?? './data';
const db = await Database.open({ dataDir, durability: 'fsync' });
console.log(`svc: opened ${dataDir}`);

await db.createTable('demo.ticks', [{ name: 'price', type: 'DOUBLE' }, { name: 'volume', type: 'INT64' }], { ifNotExists: true });
const start = BigInt(Date.UTC(2026, 0, 1)) * 1_000_000n;
const n = 86_400;
const ts = new BigInt64Array(n);
const price = new Float64Array(n);
const volume = new BigInt64Array(n);
for (let i = 0; i < n; i++) {
  ts[i] = start + BigInt(i) * 1_000_000_000n;
  price[i] = 100 + Math.sin(i / 600) * 5;
  volume[i] = BigInt(i % 100);
}
const t0 = performance.now();
await db.insert('demo.ticks', { $timestamp: ts, price, volume });
console.log(`inserted ${n} rows in ${(performance.now() - t0).toFixed(1)} ms (durable)`);

await db.updateBlob('demo/readme.txt', 'svc stores blobs next to time series');
await db.attachTag('demo/readme.txt', 'demo');
console.log('blob:', db.describeBlob('demo/readme.txt'));
console.log('tagged demo:', db.getTagged('demo').aliases);
console.log('table:', db.describeTable('demo.ticks'));

try {
  const result = await db.query('SELECT avg(price), max(price), count(volume) FROM demo.ticks GROUP BY 6h');
  for (const table of result.tables) {
    console.log(`query result from ${table.name}:`);
    for (let row = 0; row < table.rowCount; row++) {
      const time = new Date(Number(table.timestamps[row] / 1_000_000n)).toISOString();
      console.log(`  ${time}  ${table.columns.map((c) => `${c.name}=${String(c.values[row])}`).join('  ')}`);
    }
  }
} catch (e) {
  console.log('query failed:', (e as Error).message);
}
await db.close();
console.log('closed cleanly (checkpoint written)');
