// One writer per data directory: a LOCK file naming its owner by pid, boot id and the process's
// start time. A pid alone is not an identity: after a container restart the new process often
// gets the pid the old one had, and would see its own lock as live forever. So a lock counts as
// live only if a process with that pid runs now, in this boot, and started when the lock's owner
// did (/proc/<pid>/stat field 22); anything else — a dead pid, another boot, a reused pid — is
// stale and taken over. A live owner makes the second open fail instead of two writers
// interleaving one WAL. This process is an owner only while it has a database open on the
// directory: a lock naming our own pid otherwise is stale (PostgreSQL's postmaster.pid rule) —
// left by an earlier process that had our pid, possibly in the older format holding only a pid.
// (Node has no advisory file lock without native addons.)
import { readFileSync } from 'node:fs';
import { open, readFile, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SvcError } from '../errors.js';

export interface LockOwner {
  readonly pid: number;
  /** /proc/sys/kernel/random/boot_id; '' where there is no /proc. */
  readonly bootId: string;
  /** Start time of the process in clock ticks since boot; '' where there is no /proc. */
  readonly startTime: string;
}

/** Data directories (real paths) this process holds the lock of. */
const held = new Set<string>();

/** Takes the lock of an existing `dataDir`; resolves the function that releases it. */
export async function acquireLock(dataDir: string): Promise<() => Promise<void>> {
  const dir = await realpath(dataDir);
  const path = join(dir, 'LOCK');
  const me = ownerOf(process.pid) ?? { pid: process.pid, bootId: '', startTime: '' };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fh = await open(path, 'wx');
      try {
        await fh.writeFile(formatOwner(me));
      } finally {
        await fh.close();
      }
      held.add(dir);
      return async () => {
        held.delete(dir);
        await rm(path, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const owner = parseOwner(await readFile(path, 'utf8').catch(() => ''));
      if (owner !== null && isHeld(owner, dir)) {
        const self = owner.pid === process.pid ? ' (this process)' : '';
        throw new SvcError('DatabaseLocked', `data directory ${dataDir} is in use by process ${owner.pid}${self}`);
      }
      await rm(path, { force: true });
    }
  }
  throw new SvcError('DatabaseLocked', `data directory ${dataDir} is being opened by another process`);
}

export function formatOwner(owner: LockOwner): string {
  return `${owner.pid} ${owner.bootId || '-'} ${owner.startTime || '-'}\n`;
}

/** The owner written in a LOCK file, or null when it holds none (an unreadable file is stale). */
function parseOwner(text: string): LockOwner | null {
  const [pid, bootId = '-', startTime = '-'] = text.trim().split(/\s+/);
  const n = Number(pid);
  if (!Number.isInteger(n) || n <= 0) return null;
  return { pid: n, bootId: bootId === '-' ? '' : bootId, startTime: startTime === '-' ? '' : startTime };
}

/** The identity of process `pid` as a LOCK file records it; null when no such process runs. */
export function ownerOf(pid: number): LockOwner | null {
  if (!isRunning(pid)) return null;
  return { pid, bootId: readProc('/proc/sys/kernel/random/boot_id'), startTime: startTimeOf(pid) };
}

/** Whether `owner` still holds the lock of `dir`: this process only while it has it open. */
function isHeld(owner: LockOwner, dir: string): boolean {
  return owner.pid === process.pid ? held.has(dir) : isLive(owner);
}

function isLive(owner: LockOwner): boolean {
  const now = ownerOf(owner.pid);
  if (now === null) return false;
  // Where /proc is missing (not Linux) only the pid can be compared.
  if (owner.bootId !== '' && now.bootId !== '' && owner.bootId !== now.bootId) return false;
  if (owner.startTime !== '' && now.startTime !== '' && owner.startTime !== now.startTime) return false;
  return true;
}

/** Field 22 of /proc/<pid>/stat; the fields are counted after the command name's ')'. */
function startTimeOf(pid: number): string {
  const stat = readProc(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? '';
}

function readProc(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
