// The in-memory state of a database: entries (blobs, tags, tables) and tag attachments. It is
// changed only by `apply(record)`, both for live writes and for WAL replay, so a replayed log
// rebuilds exactly the state that acknowledged those writes. Validation happens before a record
// is made (in database.ts); `apply` trusts its record.
import { Table } from '../storage/table.js';
import type { StorageContext } from '../storage/storage-context.js';
import { BlobContent } from './blob-content.js';
import type { WalRecord } from '../durability/wal/records.js';

export type EntryType = 'blob' | 'tag' | 'ts';

export type Entry =
  | { readonly type: 'blob'; readonly content: BlobContent; readonly mime: string; expiry: number }
  | { readonly type: 'tag' }
  | { readonly type: 'ts'; readonly table: Table };

export class EntryStore {
  readonly entries = new Map<string, Entry>();
  /** alias → tags attached to it, and tag → aliases carrying it. */
  readonly tagsOf = new Map<string, Set<string>>();
  readonly entriesOf = new Map<string, Set<string>>();

  constructor(readonly context: StorageContext) {}

  apply(r: WalRecord): void {
    switch (r.kind) {
      case 'BlobPut':
        this.release(r.alias);
        this.entries.set(r.alias, { type: 'blob', content: new BlobContent(r.data, r.data.length, this.context.budget), mime: r.mime, expiry: r.expiry });
        return;
      case 'Remove':
        return this.remove(r.alias);
      case 'TagAttach':
        if (!this.entries.has(r.tag)) this.entries.set(r.tag, { type: 'tag' });
        link(this.tagsOf, r.alias, r.tag);
        link(this.entriesOf, r.tag, r.alias);
        return;
      case 'TagDetach':
        unlink(this.tagsOf, r.alias, r.tag);
        unlink(this.entriesOf, r.tag, r.alias);
        return;
      case 'ExpirySet': {
        const e = this.entries.get(r.alias);
        if (e?.type === 'blob') e.expiry = r.expiry;
        return;
      }
      case 'TableCreate':
        this.entries.set(r.name, { type: 'ts', table: new Table(r.name, r.columns, r.shardSize, this.context) });
        return;
      case 'TableAddColumns': {
        const e = this.entries.get(r.name);
        if (e?.type === 'ts') e.table.addColumns(r.columns);
        return;
      }
      case 'TableInsert': {
        const e = this.entries.get(r.name);
        if (e?.type === 'ts') e.table.insert(r.batch);
        return;
      }
      default:
        return assertNever(r);
    }
  }

  /** The entry `alias` leaves the store: its data leaves the memory budget. */
  private release(alias: string): void {
    const e = this.entries.get(alias);
    if (e?.type === 'ts') e.table.drop();
    else if (e?.type === 'blob') e.content.retire();
  }

  private remove(alias: string): void {
    this.release(alias);
    this.entries.delete(alias);
    for (const tag of this.tagsOf.get(alias) ?? []) unlink(this.entriesOf, tag, alias);
    this.tagsOf.delete(alias);
    for (const entry of this.entriesOf.get(alias) ?? []) unlink(this.tagsOf, entry, alias);
    this.entriesOf.delete(alias);
  }
}

function link(map: Map<string, Set<string>>, key: string, value: string): void {
  let set = map.get(key);
  if (set === undefined) map.set(key, (set = new Set()));
  set.add(value);
}

function unlink(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (set === undefined) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}

export function assertNever(x: never): never {
  throw new Error(`unexpected ${JSON.stringify(x)}`);
}
