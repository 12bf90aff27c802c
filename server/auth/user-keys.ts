// The key scheme of security on, all node:crypto (no hand-written primitives):
// - A user's key is an Ed25519 key pair. The user key file {"username","secret_key"} carries the
//   private key (base64 PKCS#8 DER); the server knows only public keys (base64 SPKI DER), in the
//   users file. Login derives the public key from the posted secret and compares it with the
//   user's in constant time; an unknown user or an unparsable secret goes through the very same
//   derivation and comparison against a throw-away key, so timing does not tell them apart.
// - The cluster key pair (Ed25519, PEM files) signs the users file: the key tool signs it with the
//   cluster private key each time it adds a user, and the server refuses to start when the
//   signature does not verify with `cluster_public_key_file`. Someone who can only write the users
//   file cannot add a user; the cluster private key need not live on the server at all.
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, timingSafeEqual, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from '../config-error.js';

export interface UsersFile {
  /** username → base64 SPKI DER of the user's Ed25519 public key. */
  readonly users: Record<string, string>;
  /** Users who may run admin routes (POST /api/backup); signed with the users when present. */
  readonly admins?: readonly string[];
  /** base64 Ed25519 signature of `signedText(users)` by the cluster private key. */
  readonly signature: string;
}

/** A new Ed25519 key pair as stored: base64 DER strings. */
export function newUserKeys(): { publicKey: string; secretKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    secretKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
  };
}

/** A new cluster key pair as PEM texts. */
export function newClusterKeys(): { publicPem: string; privatePem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}

/**
 * What the cluster key signs: the users in name order, so the signature does not depend on key
 * order, and the admins when there are any (a file without admins signs as before they existed).
 */
export function signedText(users: Record<string, string>, admins: readonly string[] = []): string {
  const entries: unknown[] = Object.keys(users).sort().map((name) => [name, users[name]]);
  if (admins.length > 0) entries.push(['$admins', [...admins].sort()]);
  return JSON.stringify(entries);
}

export function signUsers(users: Record<string, string>, clusterPrivatePem: string, admins: readonly string[] = []): UsersFile {
  const signature = sign(null, Buffer.from(signedText(users, admins)), createPrivateKey(clusterPrivatePem)).toString('base64');
  return admins.length > 0 ? { users, admins: [...admins].sort(), signature } : { users, signature };
}

/** Parses and checks a users file against the cluster public key; any problem is a ConfigError. */
export function loadUsers(usersFile: string, clusterPublicKeyFile: string): { users: Map<string, Buffer>; admins: Set<string> } {
  let clusterKey: KeyObject;
  try {
    clusterKey = createPublicKey(readFileSync(clusterPublicKeyFile, 'utf8'));
  } catch (e) {
    throw new ConfigError(`cluster public key file ${clusterPublicKeyFile}: ${describe(e)}`);
  }
  if (clusterKey.asymmetricKeyType !== 'ed25519') throw new ConfigError(`cluster public key file ${clusterPublicKeyFile}: not an Ed25519 public key (make one with svc_keygen cluster)`);
  let file: UsersFile;
  try {
    file = JSON.parse(readFileSync(usersFile, 'utf8')) as UsersFile;
  } catch (e) {
    throw new ConfigError(`users file ${usersFile}: ${describe(e)}`);
  }
  if (typeof file !== 'object' || file === null || typeof file.users !== 'object' || file.users === null || typeof file.signature !== 'string') {
    throw new ConfigError(`users file ${usersFile}: must be {"users": {...}, "signature": "..."} as written by svc_keygen`);
  }
  const admins = file.admins ?? [];
  if (!Array.isArray(admins) || admins.some((a) => typeof a !== 'string')) throw new ConfigError(`users file ${usersFile}: "admins" must be a list of user names`);
  if (!verify(null, Buffer.from(signedText(file.users, admins)), clusterKey, Buffer.from(file.signature, 'base64'))) {
    throw new ConfigError(`users file ${usersFile}: its signature does not verify with ${clusterPublicKeyFile} (add users with svc_keygen user, which signs it)`);
  }
  const users = new Map<string, Buffer>();
  for (const [name, key] of Object.entries(file.users)) {
    if (typeof key !== 'string') throw new ConfigError(`users file ${usersFile}: the key of user "${name}" is not a string`);
    users.set(name, Buffer.from(key, 'base64'));
  }
  return { users, admins: new Set(admins) };
}

/** Checks login credentials against the users' public keys, in time independent of why they fail. */
export class UserDirectory {
  private readonly decoyPublic: Buffer;
  private readonly decoySecret: Buffer;

  constructor(private readonly users: ReadonlyMap<string, Buffer>, private readonly admins: ReadonlySet<string> = new Set()) {
    const decoy = newUserKeys();
    this.decoyPublic = Buffer.from(decoy.publicKey, 'base64');
    this.decoySecret = Buffer.from(decoy.secretKey, 'base64');
  }

  /** Whether `username` is listed as an admin (and is a user). */
  isAdmin(username: string): boolean {
    return this.users.has(username) && this.admins.has(username);
  }

  check(username: string, secretKey: string): boolean {
    const expected = this.users.get(username);
    const derived = this.derive(Buffer.from(secretKey, 'base64'));
    const against = expected !== undefined && expected.length === derived.key.length ? expected : this.decoyPublic;
    // The comparison runs whatever happened before it; only then do the conditions combine.
    const isEqual = timingSafeEqual(derived.key.length === against.length ? derived.key : this.decoyPublic, against);
    return isEqual && expected !== undefined && derived.isReal && against !== this.decoyPublic;
  }

  /** The SPKI public key of a PKCS#8 Ed25519 secret; a secret that is not one derives the decoy's. */
  private derive(secret: Buffer): { key: Buffer; isReal: boolean } {
    let key: KeyObject | null = null;
    try {
      const k = createPrivateKey({ key: secret, format: 'der', type: 'pkcs8' });
      if (k.asymmetricKeyType === 'ed25519') key = k;
    } catch {
      // falls through to the decoy, at the same cost
    }
    const isReal = key !== null;
    key ??= createPrivateKey({ key: this.decoySecret, format: 'der', type: 'pkcs8' });
    return { key: createPublicKey(key).export({ format: 'der', type: 'spki' }), isReal };
  }
}

function describe(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
}
