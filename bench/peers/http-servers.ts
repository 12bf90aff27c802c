// Child process of the HTTP bench: svc_rest (startServer, uWebSockets.js) and the node:http peer
// on 127.0.0.1, both over ONE database loaded with the bench data, so both answer from the same
// engine. The servers get their own process (and event loop): the load generator in the parent
// would otherwise share the thread it measures. Prints one JSON line {"svc","peer","rows","blob"} when
// ready; SIGTERM closes both and removes the data.
//   node dist/bench/peers/http-servers.js <rows>
import { startServer } from '../../server/index.js';
import { insertAll } from '../cases/ingest.js';
import { makeSeries, tempDir, toBatches } from '../data.js';
import { prng } from '../../test/prng.js';
import { startNodeHttpPeer } from './node-http.js';

/** The blob of the content case: 1 KiB of seeded random bytes (served as application/octet-stream). */
const BLOB_ALIAS = 'bench/blob-1k';

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 1_000_000);
  const dir = await tempDir('http');
  const svc = await startServer({ dataDir: dir.path, host: '127.0.0.1', port: 0, durability: 'none', logToStderr: false });
  const { db } = svc;
  await db.createTable('t', [{ name: 'v', type: 'DOUBLE' }]);
  await insertAll(db, 't', toBatches(makeSeries(rows, ['v'], 7)), 8);
  const random = prng(11);
  await db.createBlob(BLOB_ALIAS, Uint8Array.from({ length: 1024 }, () => Math.floor(random() * 256)));
  const peer = await startNodeHttpPeer(db);
  let isStopping = false;
  const stop = async () => {
    if (isStopping) return;
    isStopping = true;
    await peer.close();
    await svc.close();
    await dir.remove();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  process.stdout.write(`${JSON.stringify({ svc: svc.port, peer: peer.port, rows, blob: BLOB_ALIAS })}\n`);
}

await main();
