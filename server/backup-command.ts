// `svc_rest backup --data-dir D --to DIR`: a consistent copy of the database in D (SPEC §16).
// Offline (no server holds D) the command opens D itself and backs it up. While a server runs on
// D, D is locked: the command asks that server (its address is in D/server.json) with
// POST /api/backup, authenticated by a token it signs with D's own key (D/jwt.key) carrying the
// admin claim — whoever may read D may copy it. DIR is taken as seen from this machine (made
// absolute) and must be new or empty. Exit 0 with a summary on stdout, else 1 with the reason.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import minimist from 'minimist';
import { Database, isSvcError } from '../engine/index.js';
import { TokenAuthority } from './auth/token-authority.js';
import { PATHS } from './routes.js';
import { serverAddress } from './server-address.js';

export const BACKUP_USAGE = `usage: svc_rest backup --data-dir <dir> --to <dir>
  copies the database in --data-dir (default $SVC_DATA_DIR, else ./data) into --to, a new or
  empty directory; asks the server running on --data-dir when there is one
`;

export async function backupCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const args = minimist([...argv], { string: ['data-dir', 'to'], boolean: ['help'] });
  if (args['help'] === true) { process.stdout.write(BACKUP_USAGE); return 0; }
  const dataDir = resolve((args['data-dir'] as string | undefined) ?? env['SVC_DATA_DIR'] ?? './data');
  const to = args['to'] as string | undefined;
  if (to === undefined || to === '') {
    process.stderr.write(`svc_rest backup: --to is required\n\n${BACKUP_USAGE}`);
    return 2;
  }
  try {
    const summary = await backupOffline(dataDir, resolve(to)) ?? await backupOnline(dataDir, resolve(to));
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    return 0;
  } catch (e) {
    process.stderr.write(`svc_rest backup: ${(e as Error).message}\n`);
    return 1;
  }
}

/** The backup taken with D opened here; null when a server holds D. */
async function backupOffline(dataDir: string, to: string): Promise<object | null> {
  // Opening a directory that holds no database would make one (and back up nothing): a mistyped
  // --data-dir must fail instead.
  if (!existsSync(join(dataDir, 'wal')) && !existsSync(join(dataDir, 'checkpoints'))) {
    throw new Error(`${dataDir} holds no svc database (no wal/ or checkpoints/ in it): check --data-dir`);
  }
  let db: Database;
  try {
    db = await Database.open({ dataDir });
  } catch (e) {
    if (isSvcError(e) && e.code === 'DatabaseLocked') return null;
    throw e;
  }
  try {
    return await db.backup(to);
  } finally {
    await db.close();
  }
}

async function backupOnline(dataDir: string, to: string): Promise<object> {
  const server = await serverAddress(dataDir);
  if (server === null) throw new Error(`${dataDir} is locked by a running process that recorded no address (server.json); back it up with POST /api/backup`);
  const token = await (await TokenAuthority.open(dataDir)).issue('svc_rest backup', true);
  const res = await fetch(`${server.url}${PATHS.backup}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ to }),
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`the server at ${server.url} answered ${res.status}: ${body}`);
  return JSON.parse(body) as object;
}
