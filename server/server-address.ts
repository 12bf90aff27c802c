// Where a running svc_rest can be reached, recorded in its data directory (`server.json`:
// pid and URL) once it serves and removed when it closes. `svc_rest backup --data-dir D` reads
// it: the directory is locked by the server, so a backup of a running server is asked of the
// server itself (POST /api/backup). A file left by a server that died names a pid that is gone.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const SERVER_FILE = 'server.json';

export interface ServerAddress {
  readonly pid: number;
  readonly url: string;
}

/** Records `url` for this process in `dataDir`. */
export async function recordAddress(dataDir: string, host: string, port: number): Promise<void> {
  // A wildcard address is reached on the loopback interface from the same machine.
  const local = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const url = `http://${local.includes(':') ? `[${local}]` : local}:${port}`;
  await writeFile(join(dataDir, SERVER_FILE), `${JSON.stringify({ pid: process.pid, url })}\n`, { mode: 0o600 });
}

export async function forgetAddress(dataDir: string): Promise<void> {
  await rm(join(dataDir, SERVER_FILE), { force: true });
}

/** The address of the server running on `dataDir`, or null when none is recorded (or its process is gone). */
export async function serverAddress(dataDir: string): Promise<ServerAddress | null> {
  let a: ServerAddress;
  try {
    a = JSON.parse(await readFile(join(dataDir, SERVER_FILE), 'utf8')) as ServerAddress;
  } catch {
    return null;
  }
  try {
    process.kill(a.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return null;
  }
  return a;
}
