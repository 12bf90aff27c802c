// One writer per data directory: a LOCK file holding the owner's pid. A lock left by a process
// that no longer runs (killed with SIGKILL) is taken over; a live owner — this process included —
// makes the second open fail instead of two writers interleaving one WAL.
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SvcError } from '../errors.js';

export async function acquireLock(dataDir: string): Promise<() => Promise<void>> {
  const path = join(dataDir, 'LOCK');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fh = await open(path, 'wx');
      await fh.writeFile(String(process.pid));
      await fh.close();
      return () => rm(path, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
        throw new SvcError('DatabaseLocked', `data directory ${dataDir} is in use by process ${pid}${pid === process.pid ? ' (this process)' : ''}`);
      }
      await rm(path, { force: true });
    }
  }
  throw new SvcError('DatabaseLocked', `data directory ${dataDir} is being opened by another process`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
