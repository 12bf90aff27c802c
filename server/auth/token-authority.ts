// Issues and checks the bearer tokens of `POST /api/login`: HS256 JWTs signed with jose, valid
// 12 hours. The signing key is 32 random bytes kept in <dataDir>/jwt.key with mode 0600, so the
// tokens a server issued stay valid after a restart and no other user of the machine can forge
// them. Tokens never reach the logs.
import { randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SignJWT, jwtVerify } from 'jose';
import { HttpError } from '../errors.js';

export const TOKEN_LIFETIME_SECONDS = 12 * 3600;
export const KEY_FILE = 'jwt.key';
const KEY_BYTES = 32;
/** Verified tokens remembered (see TokenAuthority.verified). */
const VERIFIED_MAX = 1_024;
const EXPIRED = 'the token expired; log in again';

export class TokenAuthority {
  private constructor(private readonly key: Uint8Array) {}

  /**
   * Tokens this authority verified, with their subject and expiry: a client sends the same token
   * with every request, and checking its HMAC again each time (jose imports the key and runs a
   * WebCrypto job per check) was ~5 % of a cluster node's CPU under 1,000-row INSERTs. A token
   * that verified stays valid under the same key until its `exp`, which is checked at every use
   * as jose checks it. Bounded: emptied when full.
   */
  private readonly verified = new Map<string, { readonly subject: string; readonly exp: number; readonly isAdmin: boolean }>();

  /** Loads the key of `dataDir`, creating it (mode 0600) on first start. */
  static async open(dataDir: string): Promise<TokenAuthority> {
    const file = join(dataDir, KEY_FILE);
    try {
      await writeFile(file, randomBytes(KEY_BYTES), { flag: 'wx', mode: 0o600 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const key = await readFile(file);
    if (key.length < KEY_BYTES) throw new Error(`${file} is damaged: a signing key has ${KEY_BYTES} bytes, this one ${key.length}`);
    // A key file copied in with looser permissions is tightened rather than trusted as is.
    await chmod(file, 0o600);
    return new TokenAuthority(new Uint8Array(key));
  }

  /**
   * An authority signing with `key` — in a cluster, the key every node shares (kept in the
   * cluster's catalog bucket), so a token issued by one node is valid on all of them.
   */
  static withKey(key: Uint8Array): TokenAuthority {
    if (key.length < KEY_BYTES) throw new Error(`a signing key has ${KEY_BYTES} bytes, this one ${key.length}`);
    return new TokenAuthority(key);
  }

  /**
   * A token for `subject`, expiring in 12 hours. `isAdmin` adds the claim `adm` that admin routes
   * accept whoever the subject is: only `svc_rest backup` issues it, with the data directory's key.
   */
  issue(subject: string, isAdmin = false): Promise<string> {
    return new SignJWT(isAdmin ? { adm: true } : {})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(subject)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + TOKEN_LIFETIME_SECONDS)
      .sign(this.key);
  }

  /** The token's subject; Unauthorized when it is malformed, forged or expired. */
  async verify(token: string): Promise<string> {
    const known = this.verified.get(token);
    if (known !== undefined) {
      // jose's test: expired once `exp` is at or before the current whole second.
      if (known.exp > Math.floor(Date.now() / 1000)) return known.subject;
      this.verified.delete(token);
      throw new HttpError('Unauthorized', EXPIRED);
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], requiredClaims: ['exp'] });
      const subject = payload.sub ?? '';
      if (this.verified.size >= VERIFIED_MAX) this.verified.clear();
      this.verified.set(token, { subject, exp: payload.exp!, isAdmin: payload['adm'] === true });
      return subject;
    } catch (e) {
      const why = (e as { code?: string }).code === 'ERR_JWT_EXPIRED' ? EXPIRED : 'the token is not valid';
      throw new HttpError('Unauthorized', why);
    }
  }

  /** Whether a token `verify` accepted carries the admin claim. */
  isAdminToken(token: string): boolean {
    return this.verified.get(token)?.isAdmin === true;
  }
}
