// Per-run buffers of the executor, reused from batch to batch. Value nodes own their buffers
// (keyed by node id and purpose; the planner numbers the value nodes inside each condition term
// from one shared range, since a term's values are consumed before the next term runs), and
// conditions use buffers by nesting level, so evaluating one batch allocates nothing once sizes
// settle; the results of a batch are consumed before the next batch overwrites them.
// A finished query gives its Scratch back (takeScratch/giveScratch): the next query starts with
// buffers already grown, so a dashboard's refresh allocates nothing for them. What a query hands
// back is never a view of scratch (result columns are copies), so reuse cannot change an answer.
import { int64Halves } from '../../vector/vec.js';
import { RunPartials } from '../../aggregates/run-partials.js';
import { BucketRuns, SegmentList } from '../../vector/segment-list.js';

type Kind = 'f64' | 'i64' | 'bits' | 'sel' | 'aux' | 'join';

/** Idle Scratches kept for the next queries, and the most bytes one may keep to be kept. */
const MAX_IDLE = 8;
const MAX_KEPT_BYTES = 16 * 1024 * 1024;

export class Scratch {
  private readonly buffers = new Map<string, Float64Array | BigInt64Array | Uint8Array | Int32Array>();
  /** Condition buffers by nesting level × 4 + slot (exec/kernels/eval-condition.ts). */
  private readonly levels: Int32Array[] = [];
  /** Bytes of the buffers above (an idle Scratch past MAX_KEPT_BYTES is let go). */
  private bytes = 0;
  /** The aggregate operator's run lists (one aggregate runs at a time in a query). */
  readonly segments = new SegmentList();
  readonly partials = new RunPartials();
  readonly bucketRuns = new BucketRuns();

  f64(id: number, size: number, tag: Kind = 'f64'): Float64Array {
    return this.get(`f64:${tag}:${id}`, size, (n) => new Float64Array(n));
  }

  i64(id: number, size: number, tag: Kind = 'i64'): { values: BigInt64Array; lo: Uint32Array; hi: Int32Array } {
    const values = this.get(`i64:${tag}:${id}`, size, (n) => new BigInt64Array(n));
    return { values, ...int64Halves(values) };
  }

  /** A validity bitmap for `size` positions (bits set or cleared by the writer). */
  bits(id: number, size: number, tag: Kind = 'bits'): Uint8Array {
    return this.get(`bits:${tag}:${id}`, (size + 7) >> 3, (n) => new Uint8Array(n));
  }

  /** A selection vector (positions) with room for `size` entries. */
  sel(id: number, size: number, tag: Kind = 'sel'): Int32Array {
    return this.get(`i32:${tag}:${id}`, size, (n) => new Int32Array(n));
  }

  /**
   * Selection buffer `slot` (0–3) of condition nesting level `depth`. Every term at one level
   * shares these, so condition scratch grows with nesting, not with the number of terms.
   */
  level(depth: number, slot: number, size: number): Int32Array {
    const k = depth * 4 + slot;
    const have = this.levels[k];
    if (have !== undefined && have.length >= size) return have;
    const buffer = new Int32Array(Math.max(size, have === undefined ? 0 : have.length * 2, 16));
    this.bytes += buffer.byteLength - (have?.byteLength ?? 0);
    this.levels[k] = buffer;
    return buffer;
  }

  /** Whether an idle Scratch is worth keeping for the next query. */
  get isKept(): boolean {
    return this.bytes <= MAX_KEPT_BYTES;
  }

  private get<T extends Float64Array | BigInt64Array | Uint8Array | Int32Array>(key: string, size: number, make: (n: number) => T): T {
    const have = this.buffers.get(key) as T | undefined;
    if (have !== undefined && have.length >= size) return have;
    // Grow geometrically so a run of slightly larger batches does not reallocate each time.
    const buffer = make(Math.max(size, have === undefined ? 0 : have.length * 2, 16));
    this.bytes += buffer.byteLength - (have?.byteLength ?? 0);
    this.buffers.set(key, buffer);
    return buffer;
  }
}

const idle: Scratch[] = [];

/** A Scratch for one query: an idle one (buffers already grown) or a new one. */
export function takeScratch(): Scratch {
  return idle.pop() ?? new Scratch();
}

/** The query that took `scratch` is over: nothing of it is read any more. */
export function giveScratch(scratch: Scratch): void {
  if (idle.length < MAX_IDLE && scratch.isKept && !idle.includes(scratch)) idle.push(scratch);
}
