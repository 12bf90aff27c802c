// POST /api/login (seed 001 §2): the body is the user's key file {"username","secret_key"}; the
// answer {"token"} is a JWT valid 12 hours. What credentials are accepted is the policy's call.
import { HttpError } from '../../errors.js';
import type { RouteContext } from '../context.js';
import { isRecord, jsonBody } from '../request-input.js';

export async function login(ctx: RouteContext): Promise<void> {
  const body = jsonBody(await ctx.body());
  // A missing field counts as empty (the security-off key file); any other type is a mistake.
  const username = isRecord(body) ? (body['username'] === undefined ? '' : body['username']) : undefined;
  const secretKey = isRecord(body) ? (body['secret_key'] === undefined ? '' : body['secret_key']) : undefined;
  if (typeof username !== 'string' || typeof secretKey !== 'string') {
    throw new HttpError('BadRequest', 'the body must be the key file {"username": "<name>", "secret_key": "<key>"} (both empty while security is off)');
  }
  const subject = await ctx.state.policy.login({ username, secret_key: secretKey });
  await ctx.reply.json(200, { token: await ctx.state.authority.issue(subject) });
}
