// Which shards leave a table on their own (SPEC §14): those its TTL has passed — a shard whose
// whole time span is older than now − TTL — and, once table data on disk passes the retention
// size, the oldest shards across all tables (each table's newest shard excepted: it is the one
// being written, as Prometheus never drops its head block). Decided here from the catalog and one
// clock, and carried out as `dropShards` writes, so that every removal is logged, replayed and, in
// a cluster, applied alike by every node: no node decides on its own clock what its replicas keep.
import type { SealedBatch } from '../storage/sealed-batch.js';
import type { Table } from '../storage/table.js';
import type { WriteOp } from '../write/index.js';

/** The dropShards writes for every table whose TTL has passed at least one whole shard at `nowNs`. */
export function ttlDrops(tables: Iterable<readonly [string, Table]>, nowNs: bigint): WriteOp[] {
  const ops: WriteOp[] = [];
  for (const [name, table] of tables) {
    if (table.ttl === null) continue;
    const floor = table.visibleFrom(nowNs);
    const first = table.shardSpans()[0];
    if (first !== undefined && first.end <= floor) ops.push({ kind: 'dropShards', table: name, before: floor });
  }
  return ops;
}

/**
 * The dropShards writes that bring table data on disk to at most `limit` bytes, oldest shards
 * first across tables (ties in table order); none when it is within the limit. `bytesOf` is a
 * batch's share of the checkpoint file holding it (0 while no checkpoint holds it): live data
 * only, so bytes of dropped shards that a kept file still holds never make more shards go.
 */
export function retentionDrops(tables: Iterable<readonly [string, Table]>, limit: number, bytesOf: (batch: SealedBatch) => number): WriteOp[] {
  const shards: { name: string; start: bigint; end: bigint; bytes: number }[] = [];
  let total = 0;
  for (const [name, table] of tables) {
    const spans = table.shardSpans();
    spans.forEach((s, k) => {
      let bytes = 0;
      for (const b of s.batches) bytes += bytesOf(b);
      total += bytes;
      if (k < spans.length - 1) shards.push({ name, start: s.start, end: s.end, bytes });
    });
  }
  if (total <= limit) return [];
  shards.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const before = new Map<string, bigint>();
  let excess = total - limit;
  for (const s of shards) {
    if (excess <= 0) break;
    before.set(s.name, s.end);
    excess -= s.bytes;
  }
  return [...before].map(([table, end]) => ({ kind: 'dropShards', table, before: end }));
}
