// The replica's apply-time check (engine/cluster/entry-check.ts), without a server: for every WAL
// record kind, what a replica must find before applying it, alone and after the entry's earlier
// records. The cases are a table keyed by record kind, so a new kind does not build until it has
// cases here too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { entryConflict } from '../../engine/cluster/entry-check.js';
import type { WalRecord, WalRecordKind } from '../../engine/durability/wal/records.js';
import type { StateView } from '../../engine/log/database-log.js';
import type { ColumnDef } from '../../engine/types.js';

const V: ColumnDef[] = [{ name: 'v', type: 'DOUBLE' }];
const VK: ColumnDef[] = [{ name: 'v', type: 'DOUBLE' }, { name: 'k', type: 'INT64' }];

/** A replica holding table `t` (column v DOUBLE), blob `b`, tag `g`, table `s` and its materialized view `sv`. */
const VIEW: StateView = {
  typeOf: (alias) => ({ t: 'ts', b: 'blob', g: 'tag', s: 'ts', sv: 'ts' } as const)[alias as 't' | 'b' | 'g' | 's' | 'sv'] ?? null,
  columnsOf: (table) => (table === 't' || table === 's' ? V : table === 'sv' ? [{ name: 'avg(v)', type: 'DOUBLE' }] : null),
  sourceOf: (alias) => (alias === 'sv' ? 's' : null),
  viewsOf: (table) => (table === 's' ? ['sv'] : []),
};
const createView = (name: string, source: string): WalRecord => ({
  kind: 'ViewCreate', name, source, select: `SELECT avg(v) FROM ${source} GROUP BY 1h`, columns: [{ name: 'avg(v)', type: 'DOUBLE' }], shardSize: 86_400_000_000_000n, ttl: null,
});

const create = (name: string, columns = V): WalRecord => ({ kind: 'TableCreate', name, columns, shardSize: 86_400_000_000_000n });
const addColumns = (name: string, columns: ColumnDef[]): WalRecord => ({ kind: 'TableAddColumns', name, columns });
const insert = (name: string, columns: ColumnDef[]): WalRecord => ({
  kind: 'TableInsert',
  name,
  batch: {
    ts: new BigInt64Array([1n]),
    columns: columns.map((c) => (c.type === 'DOUBLE' ? { type: 'DOUBLE', values: new Float64Array([1]), nulls: null } : { type: 'INT64', values: new BigInt64Array([1n]), nulls: null })),
  },
});
const remove = (alias: string): WalRecord => ({ kind: 'Remove', alias });

interface Case {
  readonly name: string;
  readonly entry: readonly WalRecord[];
  /** The conflict expected, or null: the entry applies. */
  readonly conflict: string | null;
}

const CASES: { readonly [K in WalRecordKind]: readonly Case[] } = {
  TableCreate: [
    { name: 'a free name', entry: [create('u')], conflict: null },
    { name: 'a table created meanwhile', entry: [create('t')], conflict: "table 't' was created meanwhile" },
    { name: 'twice in one entry', entry: [create('u'), create('u')], conflict: "table 'u' was created meanwhile" },
    { name: 'after the entry removed the table', entry: [remove('t'), create('t', VK)], conflict: null },
  ],
  TableAddColumns: [
    { name: 'a new column', entry: [addColumns('t', [VK[1]])], conflict: null },
    { name: 'to a view', entry: [addColumns('sv', [VK[1]])], conflict: "'sv' became a materialized view meanwhile" },
    { name: 'a table gone', entry: [addColumns('u', [VK[1]])], conflict: "table 'u' is gone" },
    { name: 'a column added meanwhile', entry: [addColumns('t', V)], conflict: "column 'v' of 't' was added meanwhile" },
    { name: 'twice in one entry', entry: [addColumns('t', [VK[1]]), addColumns('t', [VK[1]])], conflict: "column 'k' of 't' was added meanwhile" },
    { name: 'to a table the entry created', entry: [create('u'), addColumns('u', [VK[1]])], conflict: null },
    { name: 'to a table the entry removed', entry: [remove('t'), addColumns('t', [VK[1]])], conflict: "table 't' is gone" },
  ],
  TableInsert: [
    { name: 'rows of the current schema', entry: [insert('t', V)], conflict: null },
    { name: 'a table gone', entry: [insert('u', V)], conflict: "table 'u' is gone" },
    { name: 'more columns than the table', entry: [insert('t', VK)], conflict: "the schema of 't' changed meanwhile" },
    { name: 'a column of another type', entry: [insert('t', [VK[1]])], conflict: "the schema of 't' changed meanwhile" },
    { name: 'after the entry added a column', entry: [addColumns('t', [VK[1]]), insert('t', VK)], conflict: null },
    { name: 'the old schema after the entry added a column', entry: [addColumns('t', [VK[1]]), insert('t', V)], conflict: "the schema of 't' changed meanwhile" },
    { name: 'into a table the entry created', entry: [create('u', VK), insert('u', VK)], conflict: null },
    { name: 'into a table the entry removed', entry: [remove('t'), insert('t', V)], conflict: "table 't' is gone" },
    { name: 'into a view (made of a table meanwhile)', entry: [insert('sv', [{ name: 'avg(v)', type: 'DOUBLE' }])], conflict: "'sv' became a materialized view meanwhile" },
    { name: 'into a view the entry made', entry: [remove('t'), createView('t', 's'), insert('t', V)], conflict: "'t' became a materialized view meanwhile" },
  ],
  TableSetTtl: [
    { name: 'a table', entry: [{ kind: 'TableSetTtl', name: 't', ttl: { months: 0, nanos: 1n } }], conflict: null },
    { name: 'a table gone', entry: [{ kind: 'TableSetTtl', name: 'u', ttl: null }], conflict: "table 'u' is gone" },
  ],
  RowsDelete: [
    { name: 'rows of a table', entry: [{ kind: 'RowsDelete', name: 't', statement: 'DELETE FROM t IN RANGE(2020, +1d)', nowNs: 0n, id: 'x' }], conflict: null },
    { name: 'a table the entry removed', entry: [remove('t'), { kind: 'RowsDelete', name: 't', statement: 'DELETE FROM t IN RANGE(2020, +1d)', nowNs: 0n, id: 'x' }], conflict: "table 't' is gone" },
  ],
  ShardsDrop: [
    { name: 'shards of a table', entry: [{ kind: 'ShardsDrop', name: 't', before: 0n }], conflict: null },
    { name: 'a table gone', entry: [{ kind: 'ShardsDrop', name: 'u', before: 0n }], conflict: "table 'u' is gone" },
  ],
  Remove: [
    { name: 'a table', entry: [remove('t')], conflict: null },
    { name: 'an alias already gone', entry: [remove('u')], conflict: null },
    { name: 'a blob', entry: [remove('b')], conflict: null },
    { name: 'a view', entry: [remove('sv')], conflict: null },
    { name: 'a table with a view', entry: [remove('s')], conflict: "materialized view 'sv' over 's' was created meanwhile" },
    { name: 'a view, then its table', entry: [remove('sv'), remove('s')], conflict: null },
    { name: 'a table the entry made a view over', entry: [createView('tv', 't'), remove('t')], conflict: "materialized view 'tv' over 't' was created meanwhile" },
  ],
  ViewCreate: [
    { name: 'a view over a table', entry: [createView('tv', 't')], conflict: null },
    { name: 'over a table gone', entry: [createView('tv', 'u')], conflict: "table 'u' is gone" },
    { name: 'a name taken meanwhile', entry: [createView('t', 's')], conflict: "'t' was created meanwhile" },
    { name: 'over a table the entry removed', entry: [remove('t'), createView('tv', 't')], conflict: "table 't' is gone" },
  ],
  // Blobs, tags and expiry live in the meta stream: no table state of a group stream to meet.
  BlobPut: [
    { name: 'a new blob', entry: [{ kind: 'BlobPut', alias: 'c', data: new Uint8Array([1]), mime: 'application/octet-stream', expiry: 0 }], conflict: null },
    { name: 'a blob replaced', entry: [{ kind: 'BlobPut', alias: 'b', data: new Uint8Array([1]), mime: 'application/octet-stream', expiry: 0 }], conflict: null },
  ],
  TagAttach: [
    { name: 'a tag on a table', entry: [{ kind: 'TagAttach', alias: 't', tag: 'g' }], conflict: null },
    { name: 'a new tag', entry: [{ kind: 'TagAttach', alias: 'b', tag: 'h' }], conflict: null },
  ],
  TagDetach: [
    { name: 'a tag from a table', entry: [{ kind: 'TagDetach', alias: 't', tag: 'g' }], conflict: null },
  ],
  ExpirySet: [
    { name: 'a blob', entry: [{ kind: 'ExpirySet', alias: 'b', expiry: 0 }], conflict: null },
  ],
};

describe("the replica's apply-time check", () => {
  for (const [kind, cases] of Object.entries(CASES)) {
    for (const c of cases) {
      it(`${kind}: ${c.name}${c.conflict === null ? ' applies' : ' is refused'}`, () => {
        assert.ok(c.entry.some((r) => r.kind === kind), 'the case holds a record of its kind');
        assert.equal(entryConflict(c.entry, VIEW), c.conflict);
      });
    }
  }

  it('looks at the state the entry leaves, not at the replica: the view is never changed', () => {
    assert.equal(entryConflict([remove('t'), create('t', VK)], VIEW), null);
    assert.equal(entryConflict([insert('t', V)], VIEW), null);
  });

  it('stops at a record kind this version does not know, rather than let it pass', () => {
    const unknown = { kind: 'TableTruncate', name: 't' } as unknown as WalRecord;
    assert.throws(() => entryConflict([unknown], VIEW), /record kind "TableTruncate" is unknown/);
  });
});
