#!/usr/bin/env node
// The `svc_keygen` command: the security set-up of svc_rest (scheme: auth/user-keys.ts).
//   svc_keygen cluster --out-dir D
//       D/cluster_private.key and D/cluster_public.key (Ed25519, PEM); the public one is
//       svc_rest's --cluster-public-key-file, the private one stays with whoever adds users.
//   svc_keygen user --username NAME --cluster-private-key F --users-file U --out K
//       K = the user key file {"username","secret_key"} (what the user posts to /api/login);
//       NAME's public key is added to U, which is signed again with the cluster private key.
// Every file is written with mode 0600; existing key files are never overwritten.
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import minimist from 'minimist';
import { ConfigError } from './config-error.js';
import { newClusterKeys, newUserKeys, signUsers, signedText } from './auth/user-keys.js';
import type { UsersFile } from './auth/user-keys.js';
import { verify } from 'node:crypto';

const USAGE = `usage:
  svc_keygen cluster --out-dir <dir>
      writes <dir>/cluster_private.key and <dir>/cluster_public.key (mode 0600)
  svc_keygen user --username <name> --cluster-private-key <file> --users-file <file> --out <file> [--admin]
      writes the user key file {"username","secret_key"} (mode 0600) and adds the user's
      public key to the users file, signed with the cluster private key; --admin lists the
      user as an admin (admin routes: POST /api/backup)
`;

function writeNew(file: string, text: string): void {
  try {
    writeFileSync(file, text, { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new ConfigError(`${file} exists already; key files are never overwritten`);
    throw new ConfigError(`cannot write ${file}: ${(e as Error).message}`);
  }
}

function need(args: minimist.ParsedArgs, name: string): string {
  const v: unknown = args[name];
  if (typeof v !== 'string' || v === '') throw new ConfigError(`--${name} is required`, true);
  return v;
}

function cluster(args: minimist.ParsedArgs): void {
  const dir = need(args, 'out-dir');
  const keys = newClusterKeys();
  writeNew(join(dir, 'cluster_private.key'), keys.privatePem);
  writeNew(join(dir, 'cluster_public.key'), keys.publicPem);
}

function user(args: minimist.ParsedArgs): void {
  const username = need(args, 'username');
  const privateFile = need(args, 'cluster-private-key');
  const usersFile = need(args, 'users-file');
  const out = need(args, 'out');
  let privatePem: string;
  try {
    privatePem = readFileSync(privateFile, 'utf8');
    createPrivateKey(privatePem);
  } catch (e) {
    throw new ConfigError(`cluster private key ${privateFile}: ${(e as Error).message}`);
  }
  let users: Record<string, string> = {};
  let admins: readonly string[] = [];
  try {
    const existing = JSON.parse(readFileSync(usersFile, 'utf8')) as UsersFile;
    // Signing again must not bless entries someone slipped in: the old signature has to hold.
    if (!verify(null, Buffer.from(signedText(existing.users, existing.admins)), createPublicKey(privatePem), Buffer.from(existing.signature, 'base64'))) {
      throw new ConfigError(`users file ${usersFile}: its signature does not match this cluster key; refusing to sign it again`);
    }
    users = existing.users;
    admins = existing.admins ?? [];
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new ConfigError(`users file ${usersFile}: ${(e as Error).message}`);
  }
  const keys = newUserKeys();
  writeNew(out, `${JSON.stringify({ username, secret_key: keys.secretKey })}\n`);
  const tmp = `${usersFile}.tmp`;
  const isAdmin = args['admin'] === true;
  const newAdmins = isAdmin ? [...new Set([...admins, username])] : admins.filter((a) => a !== username);
  writeFileSync(tmp, `${JSON.stringify(signUsers({ ...users, [username]: keys.publicKey }, privatePem, newAdmins), null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, usersFile);
}

function main(): void {
  const args = minimist(process.argv.slice(2), { string: ['out-dir', 'username', 'cluster-private-key', 'users-file', 'out'], boolean: ['help', 'admin'], alias: { h: 'help' } });
  if (args['help'] === true) { process.stdout.write(USAGE); return; }
  try {
    const command = args._[0];
    if (command === 'cluster' && args._.length === 1) cluster(args);
    else if (command === 'user' && args._.length === 1) user(args);
    else throw new ConfigError(`expected the command "cluster" or "user", got ${args._.length === 0 ? 'none' : args._.join(' ')}`, true);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`svc_keygen: ${e.message}\n${e.showUsage ? `\n${USAGE}` : ''}`);
    process.exit(2);
  }
}

main();
