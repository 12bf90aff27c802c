// The pool of worker threads (node:worker_threads) that does a database's CPU work off the main
// thread: query scans over shared column memory (query/exec/parallel/) and the ingest protocols'
// parsing (the server's task module). Everything that changes state — the write path, the WAL,
// the catalog — stays on the main thread (DESIGN.md, "Every core, one writer"); a worker only
// computes from what a job hands it and hands back plain values and typed arrays (transferred).
//
// Tasks live in modules every worker imports (`load`): a module exports `workerTasks`, a record
// of named functions. The engine loads its own; the server loads its protocol parsers, so the
// engine never imports the server (a module is named by URL). A job goes to the worker with the
// fewest jobs in flight. A worker that dies (an uncaught error, `process.exit`, terminated) fails
// every job it held with WorkerFailed and is replaced; a task that throws fails its job alone.
// Replacements are bounded: at MAX_RESTARTS deaths in RESTART_WINDOW_MS the pool stops replacing
// for that window and `run` refuses (callers then do the work on the main thread).
// Idle workers do not keep the process alive (each is ref'd while it has a job).
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ERROR_CODES, SvcError } from '../errors.js';
import type { ErrorCode } from '../errors.js';

/** What a task gives back: a value, and the buffers of it to transfer rather than copy. */
export interface TaskOutput<T = unknown> {
  readonly value: T;
  readonly transfer?: readonly ArrayBuffer[];
}

/** A function a task module exports under `workerTasks`. */
export type WorkerTask = (input: never) => TaskOutput | Promise<TaskOutput>;

/** Messages between the pool and a worker (worker-entry.ts). */
export type ToWorker =
  | { readonly kind: 'load'; readonly url: string }
  | { readonly kind: 'run'; readonly id: number; readonly task: string; readonly input: unknown };
export type FromWorker =
  | { readonly kind: 'done'; readonly id: number; readonly value: unknown }
  | { readonly kind: 'failed'; readonly id: number; readonly error: WireError };

/** An error as it crosses threads: an SvcError keeps its code and position. */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
  readonly position?: number;
}

/** What /metrics and the readiness answer show of the pool. */
export interface WorkerFigures {
  readonly threads: number;
  /** Jobs in flight now. */
  readonly busy: number;
  readonly jobs: number;
  /** Workers that died and were replaced. */
  readonly restarts: number;
}

const MAX_RESTARTS = 8;
const RESTART_WINDOW_MS = 10_000;

interface Job {
  readonly resolve: (value: unknown) => void;
  readonly reject: (e: Error) => void;
  readonly task: string;
}

class Slot {
  readonly jobs = new Map<number, Job>();
  constructor(readonly worker: Worker, readonly index: number) {}
}

const ENTRY = new URL('./worker-entry.js', import.meta.url);

/** The worker threads of a `parallelism`: none at 1 or less (SPEC §5: everything on the main thread). */
export function workerCount(parallelism: number): number {
  return parallelism <= 1 ? 0 : parallelism;
}

/** The default parallelism of svc_rest: the machine's cores. */
export function defaultParallelism(): number {
  return availableParallelism();
}

export class WorkerPool {
  private readonly slots: (Slot | null)[];
  private readonly modules: string[] = [];
  private nextId = 1;
  private isClosed = false;
  /** When workers died lately (a crash loop stops the replacing). */
  private deaths: number[] = [];
  /** Replacements stopped until then (a crash loop). */
  private pausedUntil = 0;
  jobs = 0;
  restarts = 0;

  /**
   * @example
   * const pool = new WorkerPool(4);
   * pool.load(new URL('./my-tasks.js', import.meta.url));
   * const sum = await pool.run<number>('sum', new Float64Array([1, 2]));
   */
  constructor(readonly size: number, private readonly log: (message: string) => void = () => {}) {
    this.slots = Array.from({ length: size }, (_, i) => this.spawn(i));
  }

  /** Every worker, now and later, imports `module` and serves the tasks it exports. */
  load(module: URL): void {
    const url = module.href;
    if (this.modules.includes(url)) return;
    this.modules.push(url);
    for (const slot of this.slots) slot?.worker.postMessage({ kind: 'load', url } satisfies ToWorker);
  }

  /** Whether jobs can run now (not closed, not paused after a crash loop, a worker alive). */
  get isAvailable(): boolean {
    return !this.isClosed && Date.now() >= this.pausedUntil && this.slots.some((s) => s !== null);
  }

  get figures(): WorkerFigures {
    let busy = 0;
    for (const s of this.slots) busy += s?.jobs.size ?? 0;
    return { threads: this.size, busy, jobs: this.jobs, restarts: this.restarts };
  }

  /**
   * Runs `task` with `input` on the least busy worker (`transfer`: buffers of the input to move
   * there, not copy). Rejects with the task's error (an SvcError keeps its code), or
   * WorkerFailed when the worker died meanwhile or none can take it.
   */
  run<T>(task: string, input: unknown = null, transfer: readonly ArrayBuffer[] = []): Promise<T> {
    const slot = this.leastBusy();
    if (slot === null) return Promise.reject(new SvcError('WorkerFailed', `no worker thread can take ${task} now (the pool is ${this.isClosed ? 'closed' : 'replacing workers that failed'})`));
    const id = this.nextId++;
    this.jobs += 1;
    return new Promise<T>((resolve, reject) => {
      slot.jobs.set(id, { resolve: resolve as (v: unknown) => void, reject, task });
      if (slot.jobs.size === 1) slot.worker.ref();
      slot.worker.postMessage({ kind: 'run', id, task, input } satisfies ToWorker, [...new Set(transfer)]);
    });
  }

  /** The workers' thread ids (tests terminate one to see the pool heal). */
  get threadIds(): number[] {
    return this.slots.flatMap((s) => (s === null ? [] : [s.worker.threadId]));
  }

  /** Terminates worker `i` as a crash would (tests): its jobs fail at once and it is replaced. */
  async terminate(i: number): Promise<void> {
    const slot = this.slots[i];
    if (slot === null || slot === undefined) return;
    this.fail(slot, 'was killed');
    await slot.worker.terminate();
  }

  async close(): Promise<void> {
    this.isClosed = true;
    const workers = this.slots.flatMap((s) => (s === null ? [] : [s.worker]));
    this.slots.fill(null);
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private leastBusy(): Slot | null {
    if (!this.isAvailable) return null;
    let best: Slot | null = null;
    for (const s of this.slots) if (s !== null && (best === null || s.jobs.size < best.jobs.size)) best = s;
    return best;
  }

  private spawn(index: number): Slot {
    const worker = new Worker(ENTRY, { workerData: { modules: this.modules } });
    const slot = new Slot(worker, index);
    worker.unref();
    worker.on('message', (m: FromWorker) => this.settle(slot, m));
    worker.on('error', (e) => this.fail(slot, `threw ${e instanceof Error ? e.message : String(e)}`));
    worker.on('exit', (code) => this.fail(slot, `stopped (exit code ${code})`));
    return slot;
  }

  private settle(slot: Slot, m: FromWorker): void {
    const job = slot.jobs.get(m.id);
    if (job === undefined) return;
    slot.jobs.delete(m.id);
    if (slot.jobs.size === 0) slot.worker.unref();
    if (m.kind === 'done') job.resolve(m.value);
    else job.reject(fromWire(m.error, job.task));
  }

  /** A worker died: its jobs fail, and it is replaced (unless closing or in a crash loop). */
  private fail(slot: Slot, how: string): void {
    if (this.slots[slot.index] !== slot) return;
    this.slots[slot.index] = null;
    for (const job of slot.jobs.values()) {
      job.reject(new SvcError('WorkerFailed', `a worker thread ${how} while it ran ${job.task}; it is being replaced, try again`));
    }
    slot.jobs.clear();
    if (this.isClosed) return;
    void slot.worker.terminate();
    const now = Date.now();
    this.deaths = this.deaths.filter((t) => now - t < RESTART_WINDOW_MS);
    this.deaths.push(now);
    if (this.deaths.length >= MAX_RESTARTS) {
      // A crash loop: stop replacing for a while; run() refuses meanwhile.
      this.pausedUntil = now + RESTART_WINDOW_MS;
      this.log(`worker threads failed ${this.deaths.length} times in ${RESTART_WINDOW_MS / 1000} s; not replacing them for ${RESTART_WINDOW_MS / 1000} s (work runs on the main thread)`);
      const timer = setTimeout(() => this.replace(slot.index), RESTART_WINDOW_MS);
      timer.unref();
      return;
    }
    this.log(`a worker thread ${how}; replacing it`);
    this.replace(slot.index);
  }

  private replace(index: number): void {
    if (this.isClosed || this.slots[index] !== null) return;
    this.restarts += 1;
    this.slots[index] = this.spawn(index);
  }
}

/** An error from a worker as the caller's: SvcErrors keep their code; anything else is WorkerFailed. */
function fromWire(e: WireError, task: string): Error {
  if (e.code !== undefined && (ERROR_CODES as readonly string[]).includes(e.code)) {
    return new SvcError(e.code as ErrorCode, e.message, e.position === undefined ? undefined : { position: e.position });
  }
  return new SvcError('WorkerFailed', `a worker thread failed while it ran ${task}: ${e.name}: ${e.message}`);
}
