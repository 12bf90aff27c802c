// Who may do what. Security off: every login succeeds (there is no users file to check against)
// and the token guards the REST routes only. Security on (a cluster public key is configured):
// credentials are checked against the signed users file, and the bridge is behind the token too.
import { HttpError } from '../errors.js';
import type { TokenAuthority } from './token-authority.js';
import type { UserDirectory } from './user-keys.js';

/**
 * How a route is guarded: `public` never (login, status), `token` always, `bridge` as the policy
 * says, `admin` a token of an admin: with security off any token; with security on a user the
 * users file lists under `admins`, or a token `svc_rest backup` signed with the data
 * directory's key (who can read that key can read the data).
 */
export type RouteAccess = 'public' | 'token' | 'bridge' | 'admin';

export interface Credentials {
  readonly username: string;
  readonly secret_key: string;
}

export interface AuthPolicy {
  /** The subject of the token to issue, or Unauthorized. */
  login(credentials: Credentials): Promise<string>;
  requiresToken(access: RouteAccess): boolean;
  /** Whether the user `subject` may use admin routes. */
  isAdmin(subject: string): boolean;
}

export const securityOff: AuthPolicy = {
  login: (credentials) => Promise.resolve(credentials.username),
  requiresToken: (access) => access === 'token' || access === 'admin',
  isAdmin: () => true,
};

/** Security on: the users file decides; the message never says which part was wrong. */
export function securityOn(users: UserDirectory): AuthPolicy {
  return {
    login: (credentials) => {
      if (!users.check(credentials.username, credentials.secret_key)) return Promise.reject(new HttpError('Unauthorized', 'unknown user or wrong secret key'));
      return Promise.resolve(credentials.username);
    },
    requiresToken: (access) => access !== 'public',
    isAdmin: (subject) => users.isAdmin(subject),
  };
}

/**
 * The token of a request: `Authorization: Bearer <t>`, `Token <t>` (InfluxDB 2 clients) or
 * `Basic base64(user:<t>)` (InfluxDB 1 clients and Telegraf send the token as the password), else
 * `?token=<t>` or `?p=<t>` (InfluxDB 1's query-string password).
 */
export function bearerToken(authorization: string, queryToken: string | undefined): string {
  if (authorization !== '') {
    const m = /^(Bearer|Token|Basic) +([^\s]+)\s*$/i.exec(authorization);
    if (m === null) throw new HttpError('Unauthorized', 'the Authorization header must be "Bearer <token>" (or "Token <token>", or Basic with the token as password)');
    if (m[1]!.toLowerCase() !== 'basic') return m[2]!;
    const decoded = Buffer.from(m[2]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0 || colon === decoded.length - 1) throw new HttpError('Unauthorized', 'Basic credentials must carry the token as the password');
    return decoded.slice(colon + 1);
  }
  if (queryToken !== undefined && queryToken !== '') return queryToken;
  throw new HttpError('Unauthorized', 'this route needs a token: POST /api/login, then send "Authorization: Bearer <token>"');
}

/** Checks the request's token when the route needs one; the user it names ('' when none). */
export async function authorize(policy: AuthPolicy, authority: TokenAuthority, access: RouteAccess, authorization: string, queryToken: string | undefined): Promise<string> {
  if (!policy.requiresToken(access)) return '';
  const token = bearerToken(authorization, queryToken);
  const subject = await authority.verify(token);
  if (access === 'admin' && !policy.isAdmin(subject) && !authority.isAdminToken(token)) {
    throw new HttpError('Forbidden', `this route is for admins, and '${subject}' is not one (svc_keygen user --admin lists a user as one)`);
  }
  return subject;
}
