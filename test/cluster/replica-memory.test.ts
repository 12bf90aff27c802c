// The memory budget on replicas (SPEC §10 on every node): two svc nodes under a 64 MiB budget
// follow a table group's stream holding six times that, one from the start (applying as it
// arrives) and one joining when half of it is there (replaying, then following). Each waits for
// the checkpoints that make its data evictable instead of holding it all: its peak RSS (VmHWM,
// the kernel's high-water mark, so no peak falls between samples) stays under the budget plus
// SPEC §10's ~300 MiB of fixed overhead, it checkpointed and evicted, and it answers closed-form
// counts and sums over every row. The entries are published by the test itself, as a writer node
// would append them (the same encoding, chunked under the message limit), so no text is parsed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { JetStreamLog } from '../../engine/cluster/jetstream-log.js';
import { groupSubjects, groupStream } from '../../engine/cluster/table-groups.js';
import type { WalRecord } from '../../engine/durability/wal/records.js';
import { missingNatsServer, NatsCluster } from './nats-cluster.js';
import { SvcNode } from './svc-nodes.js';

const missing = missingNatsServer();
const MIB = 1024 * 1024;
const BUDGET = 64 * MIB;
/** SPEC §10: V8, code and buffers beside the budget. */
const OVERHEAD = 300 * MIB;
/** `$timestamp` and 4 DOUBLE columns. */
const ROW_BYTES = 40;
const ROWS_PER_ENTRY = 40_000;
/** Six budgets of row data. */
const ENTRIES = Math.ceil((6 * BUDGET) / (ROWS_PER_ENTRY * ROW_BYTES));
const T0 = 1_700_000_000_000_000_000n;

/** Rows of entry `e`: row r has time T0 + r s and values r, 2r, 3r, 4r (r counted over the whole table). */
function entry(e: number): WalRecord {
  const ts = new BigInt64Array(ROWS_PER_ENTRY);
  const columns = [1, 2, 3, 4].map(() => new Float64Array(ROWS_PER_ENTRY));
  for (let i = 0; i < ROWS_PER_ENTRY; i++) {
    const r = e * ROWS_PER_ENTRY + i;
    ts[i] = T0 + BigInt(r) * 1_000_000_000n;
    for (let c = 0; c < 4; c++) columns[c][i] = r * (c + 1);
  }
  return { kind: 'TableInsert', name: 'big', batch: { ts, columns: columns.map((values) => ({ type: 'DOUBLE' as const, values, nulls: null })) } };
}

/** The peak resident set of a process, from the kernel's high-water mark. */
function peakRss(pid: number): number {
  const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(kb !== null, `no VmHWM for ${pid}`);
  return Number(kb[1]) * 1024;
}

describe('memory budget on replicas', { skip: missing ?? false }, () => {
  let nats: NatsCluster;
  let nc: NatsConnection;
  const nodes: SvcNode[] = [];

  before(async () => {
    nats = await NatsCluster.start({ size: 1 });
    nc = await connect({ servers: nats.servers });
  });

  after(async () => {
    for (const n of nodes) await n.stop();
    await nc?.close();
    await nats?.stop();
  });

  it('nodes under a 64 MiB budget follow a stream holding six times it: RSS bounded, every row answered', async (t) => {
    // No checkpoint is published (checkpoint=1 TB), so the joining node replays the stream itself.
    const url = `${nats.url}?groups=1&checkpoint=1000000000000`;
    const args = ['--memory-limit', String(BUDGET)];
    const first = await SvcNode.start('small1', url, args);
    nodes.push(first);
    await first.ready();
    const ddl = new JetStreamLog(jetstream(nc), groupStream(0), groupSubjects(0).ddl, nc.info!.max_payload);
    const rows = new JetStreamLog(jetstream(nc), groupStream(0), groupSubjects(0).rows, nc.info!.max_payload);
    await ddl.append([{ kind: 'TableCreate', name: 'big', columns: ['a', 'b', 'c', 'd'].map((name) => ({ name, type: 'DOUBLE' as const })), shardSize: 86_400_000_000_000n }]);
    const publish = async (from: number, to: number): Promise<void> => {
      for (let e = from; e < to; e += 4) await Promise.all(Array.from({ length: Math.min(4, to - e) }, (_, i) => rows.append([entry(e + i)])));
    };
    await publish(0, ENTRIES / 2);
    const second = await SvcNode.start('small2', url, args);
    nodes.push(second);
    await publish(ENTRIES / 2, ENTRIES);
    await second.ready(120_000);

    const n = ENTRIES * ROWS_PER_ENTRY;
    const sumR = (n * (n - 1)) / 2;
    for (const node of [first, second]) {
      // The read barrier waits until the node has applied every entry.
      const table = (await node.query('SELECT count(a), sum(a), sum(d), max(c), min(b) FROM big')).tables[0];
      assert.deepEqual(table.columns.map((c) => Number(c.data[0])), [n, sumR, 4 * sumR, 3 * (n - 1), 0], node.id);
      const memory = ((await node.request('GET', '/api/status/readiness')).body as { memory: { limit: number; evictions: number } }).memory;
      assert.equal(memory.limit, BUDGET);
      assert.ok(memory.evictions > 0, `${node.id} evicted nothing: ${JSON.stringify(memory)}`);
      const peak = peakRss(node.server.child.pid!);
      t.diagnostic(`${node.id}: peak RSS ${(peak / MIB).toFixed(0)} MiB, ${memory.evictions} evictions, following ${(n * ROW_BYTES / MIB).toFixed(0)} MiB of rows`);
      assert.ok(peak < BUDGET + OVERHEAD, `${node.id}: peak RSS ${(peak / MIB).toFixed(0)} MiB over ${(BUDGET + OVERHEAD) / MIB} MiB, following ${(n * ROW_BYTES / MIB).toFixed(0)} MiB of rows`);
      assert.match(readFileSync(node.logFile, 'utf8'), /checkpoint/i);
    }
  });
});
