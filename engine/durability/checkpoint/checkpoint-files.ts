// The checkpoint data files batches are read back from: one file descriptor per file, opened on
// first read and kept, and the deletion of files no manifest names any more deferred while a
// reader may still need them. A query's snapshot may hold batches that a later checkpoint moved
// to a new file or that compaction replaced, and their old file must stay readable until the
// query ends: readers take a lease, and a file unnamed after a lease was taken is deleted only
// once that lease (and every older one) is released. A read in flight holds a lease too.
import { closeSync, openSync, readv, readvSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ReadLeases } from '../../storage/storage-context.js';

const readvAsync = promisify(readv);

export class CheckpointFiles implements ReadLeases {
  private readonly fds = new Map<string, number>();
  /** Leases taken at each generation and not yet released. */
  private readonly leases = new Map<number, number>();
  /** Files to delete once no lease older than their generation is held. */
  private pending: { readonly generation: number; readonly names: readonly string[] }[] = [];
  private generation = 0;

  constructor(private readonly dir: string) {}

  /** Keeps every file named now readable until the returned function is called (once). */
  lease(): () => void {
    const g = this.generation;
    this.leases.set(g, (this.leases.get(g) ?? 0) + 1);
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      const n = this.leases.get(g)! - 1;
      if (n === 0) this.leases.delete(g);
      else this.leases.set(g, n);
      if (this.pending.length > 0) void this.collect();
    };
  }

  /** Deletes files no manifest names any more, once no reader that may hold their batches is left. */
  async remove(names: readonly string[]): Promise<void> {
    if (names.length === 0) return;
    this.generation += 1;
    this.pending.push({ generation: this.generation, names });
    await this.collect();
  }

  /** Reads the bytes of file `name` from offset `position` on into `into`, one after the other (one readv). */
  async read(name: string, into: readonly Uint8Array[], position: number): Promise<void> {
    const release = this.lease();
    try {
      const fd = this.fd(name);
      for (let rest = into, at = position; rest.length > 0;) {
        const { bytesRead: n } = await readvAsync(fd, rest as Uint8Array[], at);
        rest = afterRead(name, rest, n, at);
        at += n;
      }
    } finally {
      release();
    }
  }

  /** The same, synchronously. */
  readSync(name: string, into: readonly Uint8Array[], position: number): void {
    const fd = this.fd(name);
    for (let rest = into, at = position; rest.length > 0;) {
      const n = readvSync(fd, rest as Uint8Array[], at);
      rest = afterRead(name, rest, n, at);
      at += n;
    }
  }

  /** Deletes what waits for readers and closes every file (the database closes: no more reads). */
  async close(): Promise<void> {
    this.leases.clear();
    await this.collect();
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }

  private fd(name: string): number {
    let fd = this.fds.get(name);
    if (fd === undefined) {
      fd = openSync(join(this.dir, name), 'r');
      this.fds.set(name, fd);
    }
    return fd;
  }

  private async collect(): Promise<void> {
    let oldest = Infinity;
    for (const g of this.leases.keys()) if (g < oldest) oldest = g;
    const due = this.pending.filter((p) => p.generation <= oldest);
    if (due.length === 0) return;
    this.pending = this.pending.filter((p) => p.generation > oldest);
    for (const { names } of due) {
      for (const name of names) {
        const fd = this.fds.get(name);
        if (fd !== undefined) {
          closeSync(fd);
          this.fds.delete(name);
        }
        await rm(join(this.dir, name), { force: true });
      }
    }
  }
}

/** The part of `buffers` a read of `n` bytes at `at` left unfilled (a short read: go on). */
function afterRead(name: string, buffers: readonly Uint8Array[], n: number, at: number): readonly Uint8Array[] {
  if (n === 0) throw new Error(`checkpoint file ${name} ends at byte ${at}, before the data asked for`);
  let k = 0;
  while (k < buffers.length && n >= buffers[k].length) n -= buffers[k++].length;
  if (k === buffers.length) return [];
  return [buffers[k].subarray(n), ...buffers.slice(k + 1)];
}
