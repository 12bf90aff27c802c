// Test-only: a security set-up made the way an operator makes it — the key tool (svc_keygen, run
// as a child) for the cluster key pair and user key files, `selfsigned` for the certificate —
// and an HTTP/HTTPS client that trusts that certificate.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from 'selfsigned';

export const KEYGEN = fileURLToPath(new URL('../../server/keygen.js', import.meta.url));

export interface Security {
  readonly dir: string;
  readonly clusterPublicKeyFile: string;
  readonly clusterPrivateKeyFile: string;
  readonly usersFile: string;
  /** User name → path of the user key file. */
  readonly keyFiles: Record<string, string>;
  readonly certFile: string;
  readonly keyFile: string;
  readonly cert: string;
}

export function keygen(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [KEYGEN, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Cluster keys, one key file per user (those in `admins` listed as admins), a users file, a
 * certificate for localhost/127.0.0.1, all in `dir`.
 */
export async function makeSecurity(dir: string, users: readonly string[], admins: readonly string[] = []): Promise<Security> {
  const must = (args: readonly string[]): void => {
    const r = keygen(args);
    if (r.status !== 0) throw new Error(`svc_keygen ${args.join(' ')} → ${r.status}: ${r.stderr}`);
  };
  must(['cluster', '--out-dir', dir]);
  const usersFile = join(dir, 'users.json');
  const keyFiles: Record<string, string> = {};
  for (const u of users) {
    keyFiles[u] = join(dir, `${u}.key`);
    must(['user', '--username', u, '--cluster-private-key', join(dir, 'cluster_private.key'), '--users-file', usersFile, '--out', keyFiles[u], ...(admins.includes(u) ? ['--admin'] : [])]);
  }
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    days: 2, keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
  } as never);
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  writeFileSync(certFile, pems.cert);
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  return {
    dir, usersFile, keyFiles, certFile, keyFile, cert: pems.cert,
    clusterPublicKeyFile: join(dir, 'cluster_public.key'), clusterPrivateKeyFile: join(dir, 'cluster_private.key'),
  };
}

export function keyFileText(s: Security, user: string): string {
  return readFileSync(s.keyFiles[user]!, 'utf8');
}

