// Validation of a write (engine/write/validate-ops.ts), without a database: for every write-op
// kind, the records it becomes and whether it changes anything, or the error it fails with —
// alone and after an earlier op of the same write. The cases are a table keyed by op kind, so a
// new kind does not build until it has cases here too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EntryStore } from '../../engine/catalog/entry-store.js';
import type { WalRecord } from '../../engine/durability/wal/records.js';
import { SvcError } from '../../engine/errors.js';
import type { ErrorCode } from '../../engine/errors.js';
import { unboundedContext } from '../../engine/storage/storage-context.js';
import { VIEW_HOOKS } from '../../engine/views/index.js';
import { validateOps } from '../../engine/write/validate-ops.js';
import type { WriteOp, WriteOpKind } from '../../engine/write/index.js';

/** The write's clock (UNIX seconds): blob `old` expired at 100. */
const NOW = 1_000;
const DAY = 86_400_000_000_000n;

const SV_SELECT = 'SELECT avg(v) FROM s GROUP BY 1h';

/**
 * Table `t` (v DOUBLE) tagged `g`, blob `b` (never expires, MIME text/plain), blob `old`
 * (expired), table `s` (v DOUBLE) and its materialized view `sv`.
 */
function store(): EntryStore {
  const s = new EntryStore(unboundedContext(8), undefined, VIEW_HOOKS);
  const setup: WalRecord[] = [
    { kind: 'TableCreate', name: 't', columns: [{ name: 'v', type: 'DOUBLE' }], shardSize: DAY },
    { kind: 'TableCreate', name: 's', columns: [{ name: 'v', type: 'DOUBLE' }], shardSize: DAY },
    { kind: 'ViewCreate', name: 'sv', source: 's', select: SV_SELECT, columns: [{ name: 'avg(v)', type: 'DOUBLE' }], shardSize: DAY, ttl: null },
    { kind: 'TagAttach', alias: 't', tag: 'g' },
    { kind: 'BlobPut', alias: 'b', data: new Uint8Array([1]), mime: 'text/plain', expiry: 0 },
    { kind: 'BlobPut', alias: 'old', data: new Uint8Array([2]), mime: 'text/plain', expiry: 100 },
  ];
  for (const r of setup) s.apply(r);
  return s;
}

const v = (...values: number[]) => ({ t: BigInt64Array.from(values.map((_, i) => BigInt(i))), v: { type: 'DOUBLE' as const, values: Float64Array.from(values), nulls: null } });
const rows = (...values: number[]) => ({ ts: v(...values).t, columns: { v: v(...values).v } });
const blob = (alias: string, create: boolean, expiry?: number): WriteOp => ({ kind: 'putBlob', alias, data: new Uint8Array([3]), mime: 'application/octet-stream', expiry, create });

/** A record as the cases spell it: its kind and alias, and what else tells it apart. */
function spell(r: WalRecord): string {
  switch (r.kind) {
    case 'TableCreate': return `TableCreate ${r.name} (${r.columns.map((c) => c.name).join(', ')}) ${r.shardSize}${r.ttl == null ? '' : ` ttl ${r.ttl.months}mon ${r.ttl.nanos}`}`;
    case 'TableSetTtl': return `TableSetTtl ${r.name} ${r.ttl === null ? 'none' : `${r.ttl.months}mon ${r.ttl.nanos}`}`;
    case 'RowsDelete': return `RowsDelete ${r.name} ${r.id}`;
    case 'ShardsDrop': return `ShardsDrop ${r.name} ${r.before}`;
    case 'TableAddColumns': return `TableAddColumns ${r.name} (${r.columns.map((c) => c.name).join(', ')})`;
    case 'TableInsert': return `TableInsert ${r.name} ${r.batch.ts.length} rows (${r.batch.columns.map((c) => c.type).join(', ')})`;
    case 'BlobPut': return `BlobPut ${r.alias} expiry ${r.expiry}`;
    case 'ExpirySet': return `ExpirySet ${r.alias} ${r.expiry}`;
    case 'TagAttach': return `TagAttach ${r.alias} ${r.tag}`;
    case 'TagDetach': return `TagDetach ${r.alias} ${r.tag}`;
    case 'Remove': return `Remove ${r.alias}`;
    case 'ViewCreate': return `ViewCreate ${r.name} over ${r.source} (${r.columns.map((c) => `${c.name} ${c.type}`).join(', ')}) ${r.shardSize}${r.ttl === null ? '' : ` ttl ${r.ttl.months}mon ${r.ttl.nanos}`}`;
  }
}

type Expected =
  | { readonly records: readonly string[]; readonly changes: readonly boolean[] }
  | { readonly code: ErrorCode; readonly message: RegExp };

interface Case {
  readonly name: string;
  readonly ops: readonly WriteOp[];
  readonly expect: Expected;
}

const CASES: { readonly [K in WriteOpKind]: readonly Case[] } = {
  createTable: [
    { name: 'a new table (the default shard size)', ops: [{ kind: 'createTable', name: 'u', columns: [{ name: 'v', type: 'DOUBLE' }] }], expect: { records: [`TableCreate u (v) ${DAY}`], changes: [true] } },
    { name: 'an existing table, IF NOT EXISTS', ops: [{ kind: 'createTable', name: 't', columns: [{ name: 'w', type: 'INT64' }], ifNotExists: true }], expect: { records: [], changes: [false] } },
    { name: 'an existing table', ops: [{ kind: 'createTable', name: 't', columns: [{ name: 'v', type: 'DOUBLE' }] }], expect: { code: 'AliasAlreadyExists', message: /alias 't' already exists/ } },
    { name: 'the name of a blob, IF NOT EXISTS', ops: [{ kind: 'createTable', name: 'b', columns: [{ name: 'v', type: 'DOUBLE' }], ifNotExists: true }], expect: { code: 'AliasAlreadyExists', message: /alias 'b'/ } },
    { name: 'the name of an expired blob (removed first)', ops: [{ kind: 'createTable', name: 'old', columns: [{ name: 'v', type: 'DOUBLE' }], shardSize: 3_600_000_000_000n }], expect: { records: ['Remove old', 'TableCreate old (v) 3600000000000'], changes: [true] } },
    { name: 'a shard under a second', ops: [{ kind: 'createTable', name: 'u', columns: [{ name: 'v', type: 'DOUBLE' }], shardSize: 1n }], expect: { code: 'InvalidArgument', message: /at least 1s/ } },
    { name: 'no columns', ops: [{ kind: 'createTable', name: 'u', columns: [] }], expect: { code: 'InvalidArgument', message: /at least one column/ } },
    { name: 'an empty name', ops: [{ kind: 'createTable', name: '', columns: [{ name: 'v', type: 'DOUBLE' }] }], expect: { code: 'InvalidArgument', message: /non-empty string/ } },
    { name: 'with tags and a TTL (the tags attached in the same write)', ops: [{ kind: 'createTable', name: 'u', columns: [{ name: 'v', type: 'DOUBLE' }], ttl: { months: 0, nanos: DAY }, tags: ['g', 'h'] }], expect: { records: [`TableCreate u (v) ${DAY} ttl 0mon ${DAY}`, 'TagAttach u g', 'TagAttach u h'], changes: [true] } },
    { name: 'an existing table with tags, IF NOT EXISTS (left as it is)', ops: [{ kind: 'createTable', name: 't', columns: [{ name: 'v', type: 'DOUBLE' }], ifNotExists: true, tags: ['h'] }], expect: { records: [], changes: [false] } },
    { name: 'a tag that is a blob', ops: [{ kind: 'createTable', name: 'u', columns: [{ name: 'v', type: 'DOUBLE' }], tags: ['b'] }], expect: { code: 'IncompatibleType', message: /'b' is a blob, not a tag/ } },
    { name: 'a TTL of zero', ops: [{ kind: 'createTable', name: 'u', columns: [{ name: 'v', type: 'DOUBLE' }], ttl: { months: 0, nanos: 0n } }], expect: { code: 'InvalidArgument', message: /positive duration/ } },
  ],
  setTtl: [
    { name: 'a TTL', ops: [{ kind: 'setTtl', table: 't', ttl: { months: 1, nanos: 0n } }], expect: { records: ['TableSetTtl t 1mon 0'], changes: [true] } },
    { name: 'no TTL (DROP TTL)', ops: [{ kind: 'setTtl', table: 't', ttl: null }], expect: { records: ['TableSetTtl t none'], changes: [true] } },
    { name: "a view's own TTL", ops: [{ kind: 'setTtl', table: 'sv', ttl: { months: 12, nanos: 0n } }], expect: { records: ['TableSetTtl sv 12mon 0'], changes: [true] } },
    { name: 'a negative TTL', ops: [{ kind: 'setTtl', table: 't', ttl: { months: 0, nanos: -1n } }], expect: { code: 'InvalidArgument', message: /positive duration/ } },
    { name: 'a missing table', ops: [{ kind: 'setTtl', table: 'u', ttl: null }], expect: { code: 'TableNotFound', message: /'u'/ } },
    { name: 'a blob', ops: [{ kind: 'setTtl', table: 'b', ttl: null }], expect: { code: 'IncompatibleType', message: /'b' is a blob/ } },
  ],
  deleteRows: [
    { name: 'rows of a table', ops: [{ kind: 'deleteRows', table: 't', statement: 'DELETE FROM t IN RANGE(2020, +1d)', nowNs: 0n, id: 'd1' }], expect: { records: ['RowsDelete t d1'], changes: [true] } },
    { name: 'a missing table', ops: [{ kind: 'deleteRows', table: 'u', statement: 'DELETE FROM u IN RANGE(2020, +1d)', nowNs: 0n, id: 'd2' }], expect: { code: 'TableNotFound', message: /'u'/ } },
    { name: 'a table the write dropped', ops: [{ kind: 'dropTable', name: 't' }, { kind: 'deleteRows', table: 't', statement: 'DELETE FROM t IN RANGE(2020, +1d)', nowNs: 0n, id: 'd3' }], expect: { code: 'TableNotFound', message: /'t'/ } },
    { name: 'rows of a view', ops: [{ kind: 'deleteRows', table: 'sv', statement: 'DELETE FROM sv IN RANGE(2020, +1d)', nowNs: 0n, id: 'd4' }], expect: { code: 'IncompatibleType', message: /'sv' is a materialized view: its rows are computed from table 's'; DELETE from 's' instead/ } },
  ],
  createView: [
    {
      name: 'a view over a table (its columns from its SELECT; a shard of about a thousand buckets)',
      ops: [{ kind: 'createView', name: 'tv', source: 't', select: 'SELECT max(v), count(v) AS n FROM t GROUP BY 1h' }],
      expect: { records: [`ViewCreate tv over t (max(v) DOUBLE, n INT64) ${1024n * 3_600_000_000_000n}`], changes: [true] },
    },
    {
      name: 'with a TTL, and a bucket of a minute (a shard of a day at least)',
      ops: [{ kind: 'createView', name: 'tv', source: 't', select: 'SELECT sum(v) FROM t GROUP BY 1min', ttl: { months: 12, nanos: 0n } }],
      expect: { records: [`ViewCreate tv over t (sum(v) DOUBLE) ${DAY} ttl 12mon 0`], changes: [true] },
    },
    { name: 'an existing view, IF NOT EXISTS', ops: [{ kind: 'createView', name: 'sv', source: 's', select: 'SELECT min(v) FROM s GROUP BY 1d', ifNotExists: true }], expect: { records: [], changes: [false] } },
    { name: 'an existing view', ops: [{ kind: 'createView', name: 'sv', source: 's', select: SV_SELECT }], expect: { code: 'AliasAlreadyExists', message: /alias 'sv' already exists/ } },
    { name: 'the name of a table, IF NOT EXISTS', ops: [{ kind: 'createView', name: 't', source: 's', select: SV_SELECT, ifNotExists: true }], expect: { code: 'AliasAlreadyExists', message: /alias 't'/ } },
    { name: 'a missing source', ops: [{ kind: 'createView', name: 'uv', source: 'u', select: 'SELECT avg(v) FROM u GROUP BY 1h' }], expect: { code: 'TableNotFound', message: /'u'/ } },
    { name: 'over a view', ops: [{ kind: 'createView', name: 'vv', source: 'sv', select: 'SELECT max("avg(v)") FROM sv GROUP BY 1d' }], expect: { code: 'InvalidArgument', message: /'sv' is a materialized view: a view's source must be a table/ } },
    { name: 'a SELECT that cannot define a view', ops: [{ kind: 'createView', name: 'tv', source: 't', select: 'SELECT avg(v) FROM t' }], expect: { code: 'QuerySemantic', message: /needs GROUP BY a duration first/ } },
    { name: 'a SELECT that does not parse', ops: [{ kind: 'createView', name: 'tv', source: 't', select: 'SELECT avg(v FROM t GROUP BY 1h' }], expect: { code: 'QuerySyntax', message: /expected/ } },
    { name: 'over a table the write created', ops: [{ kind: 'createTable', name: 'u', columns: [{ name: 'v', type: 'DOUBLE' }] }, { kind: 'createView', name: 'uv', source: 'u', select: 'SELECT avg(v) FROM u GROUP BY 1h' }], expect: { code: 'InvalidArgument', message: /table 'u' must be created, and its columns added, before a view over it/ } },
  ],
  dropView: [
    { name: 'a view', ops: [{ kind: 'dropView', name: 'sv' }], expect: { records: ['Remove sv'], changes: [true] } },
    { name: 'a missing view, IF EXISTS', ops: [{ kind: 'dropView', name: 'u', ifExists: true }], expect: { records: [], changes: [false] } },
    { name: 'a missing view', ops: [{ kind: 'dropView', name: 'u' }], expect: { code: 'TableNotFound', message: /materialized view 'u' does not exist/ } },
    { name: 'a table', ops: [{ kind: 'dropView', name: 't' }], expect: { code: 'IncompatibleType', message: /'t' is not a materialized view: drop a table with DROP TABLE/ } },
    { name: 'a view, then its source, in one write', ops: [{ kind: 'dropView', name: 'sv' }, { kind: 'dropTable', name: 's' }], expect: { records: ['Remove sv', 'Remove s'], changes: [true, true] } },
  ],
  dropShards: [
    { name: 'shards of a table', ops: [{ kind: 'dropShards', table: 't', before: DAY }], expect: { records: [`ShardsDrop t ${DAY}`], changes: [true] } },
    { name: 'a tag', ops: [{ kind: 'dropShards', table: 'g', before: DAY }], expect: { code: 'IncompatibleType', message: /'g' is a tag/ } },
  ],
  dropTable: [
    { name: 'a table', ops: [{ kind: 'dropTable', name: 't' }], expect: { records: ['Remove t'], changes: [true] } },
    { name: 'a missing table, IF EXISTS', ops: [{ kind: 'dropTable', name: 'u', ifExists: true }], expect: { records: [], changes: [false] } },
    { name: 'a missing table', ops: [{ kind: 'dropTable', name: 'u' }], expect: { code: 'TableNotFound', message: /table 'u' does not exist/ } },
    { name: 'a blob', ops: [{ kind: 'dropTable', name: 'b' }], expect: { code: 'IncompatibleType', message: /'b' is a blob, not a table/ } },
    { name: 'a table the write created', ops: [{ kind: 'createTable', name: 'u', columns: [{ name: 'v', type: 'DOUBLE' }] }, { kind: 'dropTable', name: 'u' }], expect: { records: [`TableCreate u (v) ${DAY}`, 'Remove u'], changes: [true, true] } },
    { name: 'the source of a view', ops: [{ kind: 'dropTable', name: 's' }], expect: { code: 'InvalidArgument', message: /table 's' is the source of materialized view 'sv': drop it first \(DROP MATERIALIZED VIEW sv\)/ } },
    { name: 'a view', ops: [{ kind: 'dropTable', name: 'sv' }], expect: { code: 'IncompatibleType', message: /'sv' is a materialized view: drop it with DROP MATERIALIZED VIEW sv/ } },
  ],
  addColumns: [
    { name: 'a new column', ops: [{ kind: 'addColumns', table: 't', columns: [{ name: 'k', type: 'INT64' }] }], expect: { records: ['TableAddColumns t (k)'], changes: [true] } },
    { name: 'a column the table has', ops: [{ kind: 'addColumns', table: 't', columns: [{ name: 'v', type: 'DOUBLE' }] }], expect: { code: 'InvalidArgument', message: /already has a column 'v'/ } },
    { name: 'a column the table has, IF MISSING', ops: [{ kind: 'addColumns', table: 't', columns: [{ name: 'v', type: 'DOUBLE' }, { name: 'k', type: 'INT64' }], ifMissing: true }], expect: { records: ['TableAddColumns t (k)'], changes: [true] } },
    { name: 'only columns the table has, IF MISSING', ops: [{ kind: 'addColumns', table: 't', columns: [{ name: 'v', type: 'DOUBLE' }], ifMissing: true }], expect: { records: [], changes: [false] } },
    { name: 'a column of another type, IF MISSING', ops: [{ kind: 'addColumns', table: 't', columns: [{ name: 'v', type: 'INT64' }], ifMissing: true }], expect: { code: 'InvalidArgument', message: /'v' of table 't' is DOUBLE, not INT64/ } },
    { name: 'a missing table', ops: [{ kind: 'addColumns', table: 'u', columns: [{ name: 'k', type: 'INT64' }] }], expect: { code: 'TableNotFound', message: /'u'/ } },
    { name: 'the same column twice in one write', ops: [{ kind: 'addColumns', table: 't', columns: [{ name: 'k', type: 'INT64' }] }, { kind: 'addColumns', table: 't', columns: [{ name: 'k', type: 'INT64' }] }], expect: { code: 'InvalidArgument', message: /already has a column 'k'/ } },
    { name: 'to a view', ops: [{ kind: 'addColumns', table: 'sv', columns: [{ name: 'k', type: 'INT64' }] }], expect: { code: 'IncompatibleType', message: /'sv' is a materialized view: .*; add columns to 's' instead/ } },
  ],
  insert: [
    { name: 'rows', ops: [{ kind: 'insert', table: 't', rows: rows(1, 2) }], expect: { records: ['TableInsert t 2 rows (DOUBLE)'], changes: [true] } },
    { name: 'no rows', ops: [{ kind: 'insert', table: 't', rows: rows() }], expect: { records: [], changes: [false] } },
    { name: 'a column the table lacks', ops: [{ kind: 'insert', table: 't', rows: { ts: new BigInt64Array([1n]), columns: { w: v(1).v } } }], expect: { code: 'ColumnNotFound', message: /no column 'w'/ } },
    { name: 'a column of another type', ops: [{ kind: 'insert', table: 't', rows: { ts: new BigInt64Array([1n]), columns: { v: { type: 'INT64', values: new BigInt64Array([1n]), nulls: null } } } }], expect: { code: 'InvalidArgument', message: /'v' is DOUBLE, not INT64/ } },
    { name: 'a missing table', ops: [{ kind: 'insert', table: 'u', rows: rows(1) }], expect: { code: 'TableNotFound', message: /'u'/ } },
    { name: 'a blob', ops: [{ kind: 'insert', table: 'b', rows: rows(1) }], expect: { code: 'IncompatibleType', message: /'b' is a blob/ } },
    { name: 'after a column was added by the write (absent columns null)', ops: [{ kind: 'addColumns', table: 't', columns: [{ name: 'k', type: 'INT64' }] }, { kind: 'insert', table: 't', rows: rows(1) }], expect: { records: ['TableAddColumns t (k)', 'TableInsert t 1 rows (DOUBLE, INT64)'], changes: [true, true] } },
    { name: 'into a table the write dropped', ops: [{ kind: 'dropTable', name: 't' }, { kind: 'insert', table: 't', rows: rows(1) }], expect: { code: 'TableNotFound', message: /'t'/ } },
    { name: 'into a view', ops: [{ kind: 'insert', table: 'sv', rows: { ts: new BigInt64Array([1n]), columns: {} } }], expect: { code: 'IncompatibleType', message: /'sv' is a materialized view: its rows are computed from table 's'; write into 's' instead/ } },
    { name: 'into the source of a view', ops: [{ kind: 'insert', table: 's', rows: rows(1) }], expect: { records: ['TableInsert s 1 rows (DOUBLE)'], changes: [true] } },
  ],
  putBlob: [
    { name: 'a new blob', ops: [blob('c', true)], expect: { records: ['BlobPut c expiry 0'], changes: [true] } },
    { name: 'a new blob over one in use', ops: [blob('b', true)], expect: { code: 'AliasAlreadyExists', message: /'b'/ } },
    { name: 'a new blob over an expired one (removed first)', ops: [blob('old', true, 5_000)], expect: { records: ['Remove old', 'BlobPut old expiry 5000'], changes: [true] } },
    { name: 'a replaced blob, keeping its expiry', ops: [{ kind: 'setExpiry', alias: 'b', expiry: 7_000 }, blob('b', false)], expect: { records: ['ExpirySet b 7000', 'BlobPut b expiry 7000'], changes: [true, true] } },
    { name: 'a replaced blob with a new expiry', ops: [blob('b', false, 9_000)], expect: { records: ['BlobPut b expiry 9000'], changes: [true] } },
    { name: 'over a table', ops: [blob('t', false)], expect: { code: 'IncompatibleType', message: /'t' is a table, not a blob/ } },
    { name: 'an expiry in the past', ops: [blob('c', true, 10)], expect: { code: 'ExpiryInPast', message: /expiry 10/ } },
    { name: 'an expiry that is not a whole number', ops: [blob('c', true, 1.5)], expect: { code: 'InvalidArgument', message: /integer number of UNIX seconds/ } },
  ],
  remove: [
    { name: 'a blob', ops: [{ kind: 'remove', alias: 'b' }], expect: { records: ['Remove b'], changes: [true] } },
    { name: 'a table', ops: [{ kind: 'remove', alias: 't' }], expect: { records: ['Remove t'], changes: [true] } },
    { name: 'a missing alias', ops: [{ kind: 'remove', alias: 'u' }], expect: { code: 'AliasNotFound', message: /'u' does not exist/ } },
    { name: 'an expired blob', ops: [{ kind: 'remove', alias: 'old' }], expect: { code: 'AliasNotFound', message: /'old'/ } },
    { name: 'twice in one write', ops: [{ kind: 'remove', alias: 'b' }, { kind: 'remove', alias: 'b' }], expect: { code: 'AliasNotFound', message: /'b'/ } },
    { name: 'a view', ops: [{ kind: 'remove', alias: 'sv' }], expect: { records: ['Remove sv'], changes: [true] } },
    { name: 'the source of a view', ops: [{ kind: 'remove', alias: 's' }], expect: { code: 'InvalidArgument', message: /table 's' is the source of materialized view 'sv'/ } },
  ],
  setExpiry: [
    { name: 'a blob', ops: [{ kind: 'setExpiry', alias: 'b', expiry: 2_000 }], expect: { records: ['ExpirySet b 2000'], changes: [true] } },
    { name: 'never', ops: [{ kind: 'setExpiry', alias: 'b', expiry: 0 }], expect: { records: ['ExpirySet b 0'], changes: [true] } },
    { name: 'a table', ops: [{ kind: 'setExpiry', alias: 't', expiry: 2_000 }], expect: { code: 'ExpiryNotSupported', message: /type ts do not expire/ } },
    { name: 'the past', ops: [{ kind: 'setExpiry', alias: 'b', expiry: NOW }], expect: { code: 'ExpiryInPast', message: /in the past/ } },
    { name: 'a missing alias', ops: [{ kind: 'setExpiry', alias: 'u', expiry: 2_000 }], expect: { code: 'AliasNotFound', message: /'u'/ } },
  ],
  attachTag: [
    { name: 'a new tag', ops: [{ kind: 'attachTag', alias: 'b', tag: 'h' }], expect: { records: ['TagAttach b h'], changes: [true] } },
    { name: 'a tag already attached', ops: [{ kind: 'attachTag', alias: 't', tag: 'g' }], expect: { records: [], changes: [false] } },
    { name: 'twice in one write', ops: [{ kind: 'attachTag', alias: 'b', tag: 'g' }, { kind: 'attachTag', alias: 'b', tag: 'g' }], expect: { records: ['TagAttach b g'], changes: [true, false] } },
    { name: 'a tag that is a blob', ops: [{ kind: 'attachTag', alias: 't', tag: 'b' }], expect: { code: 'IncompatibleType', message: /'b' is a blob, not a tag/ } },
    { name: 'to a missing alias', ops: [{ kind: 'attachTag', alias: 'u', tag: 'g' }], expect: { code: 'AliasNotFound', message: /'u'/ } },
    { name: 'again after the write removed its tag', ops: [{ kind: 'remove', alias: 'g' }, { kind: 'attachTag', alias: 't', tag: 'g' }], expect: { records: ['Remove g', 'TagAttach t g'], changes: [true, true] } },
  ],
  detachTag: [
    { name: 'an attached tag', ops: [{ kind: 'detachTag', alias: 't', tag: 'g' }], expect: { records: ['TagDetach t g'], changes: [true] } },
    { name: 'a tag not attached', ops: [{ kind: 'detachTag', alias: 'b', tag: 'g' }], expect: { records: [], changes: [false] } },
    { name: 'a tag that is a table', ops: [{ kind: 'detachTag', alias: 'b', tag: 't' }], expect: { code: 'IncompatibleType', message: /'t' is a table, not a tag/ } },
    { name: 'from a missing alias', ops: [{ kind: 'detachTag', alias: 'u', tag: 'g' }], expect: { code: 'AliasNotFound', message: /'u'/ } },
    { name: 'after the write detached it', ops: [{ kind: 'detachTag', alias: 't', tag: 'g' }, { kind: 'detachTag', alias: 't', tag: 'g' }], expect: { records: ['TagDetach t g'], changes: [true, false] } },
  ],
  sweep: [
    { name: 'an expired blob and a live one', ops: [{ kind: 'sweep', aliases: ['old', 'b', 'u'] }], expect: { records: ['Remove old'], changes: [true] } },
    { name: 'nothing expired', ops: [{ kind: 'sweep', aliases: ['b', 't'] }], expect: { records: [], changes: [false] } },
    { name: 'an alias the write took', ops: [blob('old', false, 0), { kind: 'sweep', aliases: ['old'] }], expect: { records: ['Remove old', 'BlobPut old expiry 0'], changes: [true, false] } },
  ],
};

describe('validation of a write', () => {
  for (const [kind, cases] of Object.entries(CASES)) {
    for (const c of cases) {
      it(`${kind}: ${c.name}`, () => {
        assert.ok(c.ops.some((op) => op.kind === kind), 'the case holds an op of its kind');
        const s = store();
        const { expect } = c;
        if ('code' in expect) {
          assert.throws(() => validateOps(s, c.ops, NOW), (e) => e instanceof SvcError && e.code === expect.code && expect.message.test(e.message));
          return;
        }
        const { records, changes } = validateOps(s, c.ops, NOW);
        assert.deepEqual({ records: records.map(spell), changes }, { records: expect.records, changes: expect.changes });
      });
    }
  }

  it('changes nothing in the store: records are applied only once logged', () => {
    const s = store();
    validateOps(s, [{ kind: 'dropTable', name: 't' }, blob('c', true), { kind: 'sweep', aliases: ['old'] }], NOW);
    assert.deepEqual([...s.entries.keys()].sort(), ['b', 'g', 'old', 's', 'sv', 't']);
  });

  it('refuses an op kind it does not know (a JavaScript caller is not type-checked)', () => {
    assert.throws(() => validateOps(store(), [{ kind: 'truncate', table: 't' } as unknown as WriteOp], NOW), /unexpected write op/);
  });
});
