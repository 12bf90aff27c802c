// A single node's WAL replay in a fresh process, the peer of a cluster node replaying its logs
// (bench/cases/cluster.ts): `node wal-replay-process.js <wal dir>` replays the segments into an
// empty state, as Database.open does after its checkpoint, and prints the milliseconds it took.
import { EntryStore } from '../../engine/catalog/entry-store.js';
import { replayWal } from '../../engine/durability/wal/wal-replay.js';
import { unboundedContext } from '../../engine/storage/storage-context.js';
import { DEFAULT_BATCH_ROWS } from '../../engine/storage/table.js';

const store = new EntryStore(unboundedContext(DEFAULT_BATCH_ROWS));
const t = performance.now();
await replayWal(process.argv[2], 0, (r) => store.apply(r));
process.stdout.write(`${(performance.now() - t).toFixed(1)}\n`);
