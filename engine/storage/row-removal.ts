// Removing rows from a table's sealed batches (DELETE, SPEC §6 and §14). The rows inside a
// removal's time pieces that it matches leave their batches, each batch replaced whole: dropped
// when nothing of it is left, rebuilt from the rest when partly hit (sorted, with exact
// statistics, as compaction builds its output), never edited in place — a reader holding the old
// batch keeps reading it. Two kinds of match: a row condition (the statement's WHERE, decided row
// by row within one batch; none = every row of the pieces) and DUPLICATE (a row equal on the
// given columns to an earlier row — in time order, ties in insertion order — of the same shard:
// only rows of one timestamp can be equal, so a shard read in order finds them side by side).
//
// The work comes in two phases, so that a big DELETE neither stalls the event loop nor waits inside
// the write's one synchronous step: prepare (asynchronous: evicted batches read back, matches
// computed, replacements built) and apply (synchronous, where the write is applied: prepared
// outcomes swapped in, and a batch that appeared since — a tail sealed, runs merged — computed
// on the spot). Prepared work is only a head start: apply gives the same result with or without
// it (replaying the WAL applies without), because an outcome is kept by the immutable batch it
// was computed from.
import { buildBatch } from './batch-builder.js';
import { gather64, permuteColumn } from './column-values.js';
import { lowerBound } from './compaction.js';
import { columnVector } from './column-vector.js';
import type { SealedBatch } from './sealed-batch.js';
import type { Shard } from './shard.js';
import type { StorageContext } from './storage-context.js';
import type { TableLayout } from './table-layout.js';
import { viewRows } from './view-rows.js';
import type { ColumnType, ColumnVector } from '../types.js';
import { isValid } from '../types.js';

/** [from, to) in nanoseconds. */
export interface TimePiece {
  readonly from: bigint;
  readonly to: bigint;
}

/** Sets remove[i] = 1 for the rows i of [lo, hi) of `view` to remove (its `columns` are loaded). */
export type RowMatch = (view: SealedBatch, lo: number, hi: number, remove: Uint8Array) => void;

/** What to remove from one table. */
export interface RowRemoval {
  /** Ascending and disjoint: the outer bounds (rows outside them are never touched). */
  readonly ranges: readonly TimePiece[];
  /**
   * The pieces of [from, to) the removal covers (calendar filters cut the ranges into pieces),
   * ascending and disjoint. Asked per batch, over its own time span, so the answer never depends
   * on what else the table holds (the apply and a replay of the WAL find the same pieces).
   */
  piecesIn(from: bigint, to: bigint): TimePiece[];
  /** Batch columns (0 = `$timestamp`) that `match` or `duplicate` read. */
  readonly columns: readonly number[];
  /** The row condition; null: every row of the pieces (or DUPLICATE decides). */
  readonly match: RowMatch | null;
  /** DUPLICATE: the batch columns rows are compared on (`$timestamp` among them); null: no DUPLICATE. */
  readonly duplicate: readonly number[] | null;
}

/** What a removal does to one batch: `removed` rows go; the rest is `replacement` (null: nothing left). */
export interface Outcome {
  readonly removed: number;
  readonly replacement: SealedBatch | null;
}

/**
 * Outcomes computed ahead of the apply, by the batch (row condition) or shard (DUPLICATE) they
 * were computed from. Replacement batches are held in memory until the next checkpoint; once those
 * not yet on disk pass an eighth of the memory budget they are staged (written to a file of their
 * own, StorageContext.stager), so that they may leave memory: a DELETE rewriting more than the
 * budget, cold rows included, stays within it.
 */
export class PreparedRemoval {
  readonly batches = new Map<SealedBatch, Outcome>();
  readonly shards = new Map<Shard, { readonly views: readonly SealedBatch[]; readonly outcomes: readonly Outcome[] }>();
  private readonly used = new Set<SealedBatch>();
  /** Replacements built and not staged yet, and their bytes. */
  private unstaged: SealedBatch[] = [];
  private unstagedBytes = 0;
  /** Staged files and the replacements each holds. */
  private readonly files = new Map<string, readonly SealedBatch[]>();

  constructor(private readonly layout: TableLayout, private readonly context: StorageContext) {}

  /** A replacement was built: staged with the others once they are big enough. */
  async built(o: Outcome): Promise<void> {
    if (o.replacement === null) return;
    this.unstaged.push(o.replacement);
    this.unstagedBytes += o.replacement.bytes;
    const { stager, budget } = this.context;
    if (stager === undefined || this.unstagedBytes < budget.limit / STAGE_SHARE) return;
    const batches = this.unstaged;
    this.unstaged = [];
    this.unstagedBytes = 0;
    this.files.set(await stager.stage(this.layout, batches), batches);
  }

  /** Marks a prepared replacement as taken into the table (dispose() leaves it alone). */
  use(o: Outcome): Outcome {
    if (o.replacement !== null) this.used.add(o.replacement);
    return o;
  }

  /**
   * Replacements never taken into the table leave the memory budget; a staged file none of whose
   * batches was taken goes (one partly taken is named by the next checkpoint like its own files).
   */
  dispose(): void {
    const all = [...this.batches.values(), ...[...this.shards.values()].flatMap((s) => s.outcomes)];
    for (const o of all) if (o.replacement !== null && !this.used.has(o.replacement)) o.replacement.retire();
    for (const [file, batches] of this.files) if (!batches.some((b) => this.used.has(b))) this.context.stager?.unstage(file);
    this.batches.clear();
    this.shards.clear();
    this.files.clear();
    this.unstaged = [];
  }
}

/** Replacement batches are staged once those in memory pass 1/STAGE_SHARE of the memory budget. */
const STAGE_SHARE = 8;

/**
 * Reads `views` with their `columns` loaded, asynchronously (read back when evicted) or at once
 * (`sync`): the apply cannot wait, the prepare can. Each is unpinned after `use`.
 */
async function withLoaded<T>(views: readonly SealedBatch[], columns: readonly number[], use: () => T): Promise<T> {
  const loads: Promise<void>[] = [];
  const pinned: SealedBatch[] = [];
  try {
    for (const v of views) {
      pinned.push(v);
      const p = v.load(columns);
      if (p !== null) loads.push(p);
    }
    await Promise.all(loads);
    return use();
  } finally {
    for (const v of pinned) v.unpin(columns);
  }
}

function withLoadedSync<T>(views: readonly SealedBatch[], columns: readonly number[], use: () => T): T {
  const pinned: SealedBatch[] = [];
  try {
    for (const v of views) {
      v.loadSync(columns);
      pinned.push(v);
    }
    return use();
  } finally {
    for (const v of pinned) v.unpin(columns);
  }
}

/** Batch columns read to decide: `$timestamp` and the removal's. */
function decideColumns(removal: RowRemoval): number[] {
  return [...new Set([0, ...removal.columns])].sort((a, b) => a - b);
}

/** The batches of `shard` a removal looks at, with its tail sealed first (so every row is in one). */
export function removalViews(shard: Shard, removal: RowRemoval): SealedBatch[] {
  shard.seal();
  const views = removal.duplicate === null ? shard.storedViews() : shard.orderedViews();
  return views.filter((v) => overlapsPieces(removal.ranges, v.minTs, v.maxTs));
}

/**
 * Prepares the removal from one shard: outcomes computed (evicted batches read back), replacements
 * built. The shard may change meanwhile; apply looks outcomes up by batch.
 */
export async function prepareShard(shard: Shard, removal: RowRemoval, layout: TableLayout, into: PreparedRemoval): Promise<void> {
  const views = removalViews(shard, removal);
  if (views.length === 0) return;
  const columns = decideColumns(removal);
  if (removal.duplicate !== null) {
    const marks = await withLoaded(views, columns, () => markDuplicates(views, removal, layout));
    const outcomes: Outcome[] = [];
    for (let k = 0; k < views.length; k++) {
      const o = await withLoaded([views[k]], views[k].allColumns, () => outcomeOf(layout, views[k], marks[k]));
      outcomes.push(o);
      await into.built(o);
    }
    into.shards.set(shard, { views, outcomes });
    return;
  }
  for (const v of views) {
    const remove = await withLoaded([v], columns, () => markRows(v, removal));
    const o = await withLoaded([v], v.allColumns, () => outcomeOf(layout, v, remove));
    into.batches.set(v, o);
    await into.built(o);
  }
}

/**
 * Applies the removal to one shard, synchronously: prepared outcomes where their batches are still
 * there, others computed now. Returns the rows removed.
 */
export function applyShard(shard: Shard, removal: RowRemoval, layout: TableLayout, prepared: PreparedRemoval | null): number {
  const views = removalViews(shard, removal);
  if (views.length === 0) return 0;
  const columns = decideColumns(removal);
  let outcomes: Outcome[];
  if (removal.duplicate !== null) {
    const ahead = prepared?.shards.get(shard);
    if (ahead !== undefined && ahead.views.length === views.length && ahead.views.every((v, k) => v === views[k])) {
      outcomes = ahead.outcomes.map((o) => prepared!.use(o));
    } else {
      const marks = withLoadedSync(views, columns, () => markDuplicates(views, removal, layout));
      outcomes = views.map((v, k) => withLoadedSync([v], v.allColumns, () => outcomeOf(layout, v, marks[k])));
    }
  } else {
    outcomes = views.map((v) => {
      const ahead = prepared?.batches.get(v);
      if (ahead !== undefined) return prepared!.use(ahead);
      const remove = withLoadedSync([v], columns, () => markRows(v, removal));
      return withLoadedSync([v], v.allColumns, () => outcomeOf(layout, v, remove));
    });
  }
  const swaps = new Map<SealedBatch, SealedBatch | null>();
  let removed = 0;
  views.forEach((v, k) => {
    const o = outcomes[k];
    if (o.removed === 0) return;
    removed += o.removed;
    swaps.set(v, o.replacement);
  });
  if (swaps.size > 0) shard.replaceBatches(swaps);
  return removed;
}

/** Whether some piece overlaps [minTs, maxTs]. */
function overlapsPieces(pieces: readonly TimePiece[], minTs: bigint, maxTs: bigint): boolean {
  const k = firstPieceEndingAfter(pieces, minTs);
  return k < pieces.length && pieces[k].from <= maxTs;
}

/** Index of the first piece whose end is past `ts` (pieces are ascending and disjoint). */
function firstPieceEndingAfter(pieces: readonly TimePiece[], ts: bigint): number {
  let lo = 0;
  let hi = pieces.length;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (pieces[m].to <= ts) lo = m + 1;
    else hi = m;
  }
  return lo;
}

/** The rows of each piece of the removal in `view`: [lo, hi) row spans, ascending. */
function pieceSpans(view: SealedBatch, removal: RowRemoval): [number, number][] {
  const spans: [number, number][] = [];
  const ts = view.ts;
  let at = 0;
  for (const piece of removal.piecesIn(view.minTs, view.maxTs + 1n)) {
    const lo = lowerBound(ts, at, view.rowCount, piece.from);
    const hi = lowerBound(ts, lo, view.rowCount, piece.to);
    if (hi > lo) spans.push([lo, hi]);
    at = hi;
  }
  return spans;
}

/** The rows of `view` (ts and the removal's columns loaded) a row removal takes: one byte per row. */
function markRows(view: SealedBatch, removal: RowRemoval): Uint8Array {
  const remove = new Uint8Array(view.rowCount);
  for (const [lo, hi] of pieceSpans(view, removal)) {
    if (removal.match === null) remove.fill(1, lo, hi);
    else removal.match(view, lo, hi, remove);
  }
  return remove;
}

/**
 * DUPLICATE over a shard's batches in order (ts and the compared columns loaded): per batch, one
 * byte per row, 1 for a row equal to an earlier row of the pieces on every compared column.
 */
function markDuplicates(views: readonly SealedBatch[], removal: RowRemoval, layout: TableLayout): Uint8Array[] {
  const marks = views.map((v) => new Uint8Array(v.rowCount));
  const compared = removal.duplicate!.filter((c) => c !== 0);
  const types: ColumnType[] = ['TIMESTAMP', ...layout.columns.map((c) => c.type)];
  const vectors = views.map((v) => compared.map((c) => columnVector(v, c, types[c])));
  const words = views.map((v) => new Int32Array(v.ts.buffer, v.ts.byteOffset, v.rowCount * 2));
  // The rows of the current timestamp: (batch, row) pairs, grown as needed.
  let groupK = new Int32Array(16);
  let groupR = new Int32Array(16);
  let size = 0;
  const flush = (): void => {
    if (size < 2) return;
    const t = views[groupK[0]].ts[groupR[0]];
    if (removal.piecesIn(t, t + 1n).length === 0) return;
    dedupeGroup(groupK, groupR, size, vectors, marks);
  };
  let lastLo = 0;
  let lastHi = 0;
  for (let k = 0; k < views.length; k++) {
    const w = words[k];
    for (let i = 0; i < views[k].rowCount; i++) {
      const lo = w[2 * i];
      const hi = w[2 * i + 1];
      if (size > 0 && lo === lastLo && hi === lastHi) {
        if (size === groupK.length) {
          const k2 = new Int32Array(size * 2); k2.set(groupK); groupK = k2;
          const r2 = new Int32Array(size * 2); r2.set(groupR); groupR = r2;
        }
      } else {
        flush();
        size = 0;
        lastLo = lo;
        lastHi = hi;
      }
      groupK[size] = k;
      groupR[size] = i;
      size++;
    }
  }
  flush();
  return marks;
}

/** Past this many rows of one timestamp, equal rows are found by hashing rather than pairwise. */
const PAIRWISE_ROWS = 32;

/** Marks each row of the group equal to an earlier one of it. */
function dedupeGroup(groupK: Int32Array, groupR: Int32Array, size: number, vectors: readonly (readonly ColumnVector[])[], marks: Uint8Array[]): void {
  if (size > PAIRWISE_ROWS) {
    const seen = new Set<string>();
    for (let j = 0; j < size; j++) {
      const key = rowKey(vectors[groupK[j]], groupR[j]);
      if (seen.has(key)) marks[groupK[j]][groupR[j]] = 1;
      else seen.add(key);
    }
    return;
  }
  for (let j = 1; j < size; j++) {
    for (let p = 0; p < j; p++) {
      if (marks[groupK[p]][groupR[p]] === 1) continue;
      if (rowsEqual(vectors[groupK[p]], groupR[p], vectors[groupK[j]], groupR[j])) {
        marks[groupK[j]][groupR[j]] = 1;
        break;
      }
    }
  }
}

/**
 * Whether two rows are equal on every compared column, as GROUP BY sees values: nulls equal each
 * other, NaN equals NaN, 0 equals -0, strings and blobs byte by byte, symbols by dictionary entry.
 */
function rowsEqual(a: readonly ColumnVector[], i: number, b: readonly ColumnVector[], j: number): boolean {
  for (let c = 0; c < a.length; c++) {
    const x = a[c];
    const y = b[c];
    const isX = isValid(x.validity, i);
    if (isX !== isValid(y.validity, j)) return false;
    if (!isX) continue;
    switch (x.type) {
      case 'DOUBLE': {
        const u = x.values[i];
        const v = (y as typeof x).values[j];
        if (u !== v && !(u !== u && v !== v)) return false;
        break;
      }
      case 'INT64':
      case 'TIMESTAMP':
        if (x.values[i] !== (y as typeof x).values[j]) return false;
        break;
      case 'SYMBOL':
        if (x.indices[i] !== (y as typeof x).indices[j]) return false;
        break;
      case 'BOOLEAN':
        if (((x.values[i >> 3] >> (i & 7)) & 1) !== (((y as typeof x).values[j >> 3] >> (j & 7)) & 1)) return false;
        break;
      case 'STRING':
      case 'BLOB': {
        const z = y as typeof x;
        const n = x.offsets[i + 1] - x.offsets[i];
        if (n !== z.offsets[j + 1] - z.offsets[j]) return false;
        for (let k = 0; k < n; k++) if (x.data[x.offsets[i] + k] !== z.data[z.offsets[j] + k]) return false;
        break;
      }
    }
  }
  return true;
}

/** A string equal for rows rowsEqual calls equal (and only those). */
function rowKey(columns: readonly ColumnVector[], i: number): string {
  let key = '';
  for (let c = 0; c < columns.length; c++) {
    const x = columns[c];
    if (!isValid(x.validity, i)) { key += '\u0000n|'; continue; }
    switch (x.type) {
      case 'DOUBLE': { const v = x.values[i]; key += v !== v ? 'NaN|' : `${v === 0 ? 0 : v}|`; break; }
      case 'INT64':
      case 'TIMESTAMP': key += `${x.values[i]}|`; break;
      case 'SYMBOL': key += `${x.indices[i]}|`; break;
      case 'BOOLEAN': key += `${(x.values[i >> 3] >> (i & 7)) & 1}|`; break;
      case 'STRING':
      case 'BLOB': key += `${Buffer.from(x.data.buffer, x.data.byteOffset + x.offsets[i], x.offsets[i + 1] - x.offsets[i]).toString('hex')}|`; break;
    }
  }
  return key;
}

/** The outcome of `remove` for `view` (every column loaded): its rest rebuilt when partly removed. */
function outcomeOf(layout: TableLayout, view: SealedBatch, remove: Uint8Array): Outcome {
  let removed = 0;
  for (let i = 0; i < remove.length; i++) removed += remove[i];
  if (removed === 0 || removed === view.rowCount) return { removed, replacement: null };
  const keep = new Uint32Array(view.rowCount - removed);
  for (let i = 0, k = 0; i < remove.length; i++) if (remove[i] === 0) keep[k++] = i;
  const rows = viewRows(view, layout.columns, 0, view.rowCount);
  const ts = new BigInt64Array(keep.length);
  gather64(rows.ts, ts, keep, 0, keep.length);
  return { removed, replacement: buildBatch(layout, ts, rows.columns.map((c) => permuteColumn(c, keep, 0, keep.length))) };
}
