// Validation and conversion of what callers pass to the embedded API: aliases, column lists,
// blob contents, times. Each failure is an InvalidArgument (or IncompatibleType) a person can act on.
import { TIMESTAMP_COLUMN } from './storage/arrow-schema.js';
import type { EntryType } from './catalog/entry-store.js';
import { SvcError } from './errors.js';
import { COLUMN_TYPES } from './types.js';
import type { ColumnDef } from './types.js';

const MAX_ALIAS_BYTES = 1024;

export function checkAlias(alias: string): void {
  if (typeof alias !== 'string' || alias.length === 0 || Buffer.byteLength(alias) > MAX_ALIAS_BYTES) {
    throw new SvcError('InvalidArgument', `an alias must be a non-empty string of at most ${MAX_ALIAS_BYTES} UTF-8 bytes`);
  }
}

export function checkColumns(columns: readonly ColumnDef[]): void {
  if (!Array.isArray(columns) || columns.length === 0) throw new SvcError('InvalidArgument', 'a table needs at least one column');
  const seen = new Set<string>();
  for (const c of columns) {
    if (typeof c?.name !== 'string' || c.name.length === 0 || c.name === TIMESTAMP_COLUMN) {
      throw new SvcError('InvalidArgument', `invalid column name '${String(c?.name)}'`);
    }
    if (!COLUMN_TYPES.includes(c.type)) throw new SvcError('InvalidArgument', `column '${c.name}' has unknown type '${String(c.type)}'`);
    if (seen.has(c.name)) throw new SvcError('InvalidArgument', `column '${c.name}' appears twice`);
    seen.add(c.name);
  }
}

/** Shards are fixed time slices; finer than a second, a table would be mostly shard bookkeeping. */
export const MIN_SHARD_SIZE_NS = 1_000_000_000n;

/** Why `shardSize` is not a valid shard size, or null when it is. */
export function shardSizeProblem(shardSize: unknown): string | null {
  if (typeof shardSize !== 'bigint') return 'the shard size must be a duration in nanoseconds (a bigint)';
  if (shardSize < MIN_SHARD_SIZE_NS) return `the shard size must be at least 1s (${MIN_SHARD_SIZE_NS} ns), got ${shardSize} ns`;
  return null;
}

export function incompatible(alias: string, actual: EntryType, wanted: EntryType): SvcError {
  const names: Record<EntryType, string> = { blob: 'a blob', tag: 'a tag', ts: 'a table' };
  return new SvcError('IncompatibleType', `alias '${alias}' is ${names[actual]}, not ${names[wanted]}`);
}

/** A private copy of blob content. */
export function toBytes(content: Uint8Array | string): Uint8Array {
  if (typeof content === 'string') return new Uint8Array(Buffer.from(content, 'utf8'));
  // Not .slice(): on a Buffer that returns a view sharing the caller's memory.
  if (content instanceof Uint8Array) return new Uint8Array(content);
  throw new SvcError('InvalidArgument', 'content must be a Uint8Array or a string');
}

/** A Date as int64 nanoseconds; anything else unchanged (write/columnar-input.ts validates it). */
export function toNs(v: unknown): unknown {
  return v instanceof Date ? BigInt(v.getTime()) * 1_000_000n : v;
}
