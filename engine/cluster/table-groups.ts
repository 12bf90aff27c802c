// Placement of tables on table groups. A cluster has a fixed number of groups, chosen when it is
// created (the `config` key of the catalog bucket); a table's group is a hash of its name, so every
// node computes it alike without asking. Each group's log is one R3 stream, `svc_g<i>`: a table's
// create and drop on subject `svc.g<i>.ddl`, its inserts on `svc.g<i>.rows`, in one order. Blobs,
// tags and expiry — the catalog every node holds — go to the `svc_meta` stream. A group is served
// by the nodes whose `serve=` lists it (every node by default): those apply its whole stream and
// run its tables' parts of queries (query-parts.ts); the others follow only its `.ddl` subject, so
// every node knows every table and its schema without holding its rows. A materialized view lives
// in its source's group (homeOf): its rows are computed from the source's, so the records that
// change either must be in one order, and the nodes holding the source hold the view.
import type { WalRecord } from '../durability/wal/records.js';
import type { StateView } from '../log/database-log.js';
import { assertNever } from '../catalog/entry-store.js';

export const META_STREAM = 'svc_meta';
export const META_SUBJECT = 'svc.meta';

export function groupStream(group: number): string {
  return `svc_g${group}`;
}

/** The subjects of a group's stream: DDL (every node follows it) and rows (serving nodes only). */
export function groupSubjects(group: number): { readonly all: string; readonly ddl: string; readonly rows: string } {
  return { all: `svc.g${group}.>`, ddl: `svc.g${group}.ddl`, rows: `svc.g${group}.rows` };
}

/** FNV-1a of the name's UTF-8 bytes, modulo the group count. */
export function groupOf(table: string, groups: number): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(table, 'utf8')) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % groups;
}

/** The table whose group holds `alias`: a view's source, or the table itself. */
export function homeOf(alias: string, view: Pick<StateView, 'sourceOf'>): string {
  return view.sourceOf(alias) ?? alias;
}

/** The stream a record belongs to: its table's group (-1 = the meta stream). */
export function recordGroup(r: WalRecord, groups: number, view: StateView): number {
  switch (r.kind) {
    case 'TableCreate':
    case 'TableAddColumns':
    case 'TableInsert':
    case 'TableSetTtl':
    case 'RowsDelete':
    case 'ShardsDrop':
      return groupOf(homeOf(r.name, view), groups);
    case 'ViewCreate':
      return groupOf(r.source, groups);
    case 'Remove':
      return view.typeOf(r.alias) === 'ts' ? groupOf(homeOf(r.alias, view), groups) : -1;
    case 'BlobPut':
    case 'TagAttach':
    case 'TagDetach':
    case 'ExpirySet':
      return -1;
    default:
      // A new record kind must say which stream it belongs to: its order against a table's rows
      // is only kept inside that table's group stream.
      return assertNever(r);
  }
}
