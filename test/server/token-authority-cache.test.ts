// TokenAuthority remembers the tokens it verified (server/auth/token-authority.ts): a remembered
// token still expires at its `exp` as jose would say, and a forged one is never remembered.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { TokenAuthority } from '../../server/auth/token-authority.js';
import { HttpError } from '../../server/errors.js';

const KEY = new Uint8Array(32).fill(3);

function tokenFor(key: Uint8Array, subject: string, exp: number): Promise<string> {
  return new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(subject).setIssuedAt().setExpirationTime(exp).sign(key);
}

const unauthorized = (message: string) => (e: unknown) => e instanceof HttpError && e.message === message;

describe('TokenAuthority verified tokens', () => {
  it('answers a verified token again until its exp, then says it expired', async () => {
    const authority = TokenAuthority.withKey(KEY);
    const exp = Math.floor(Date.now() / 1000) + 2;
    const token = await tokenFor(KEY, 'ann', exp);
    assert.equal(await authority.verify(token), 'ann');
    assert.equal(await authority.verify(token), 'ann');
    await new Promise((r) => setTimeout(r, exp * 1000 - Date.now() + 50));
    await assert.rejects(authority.verify(token), unauthorized('the token expired; log in again'));
    await assert.rejects(authority.verify(token), unauthorized('the token expired; log in again'));
    // A fresh authority (nothing remembered) says the same.
    await assert.rejects(TokenAuthority.withKey(KEY).verify(token), unauthorized('the token expired; log in again'));
  });

  it('never takes a token signed with another key, however often it is sent', async () => {
    const authority = TokenAuthority.withKey(KEY);
    const forged = await tokenFor(new Uint8Array(32).fill(4), 'ann', Math.floor(Date.now() / 1000) + 3600);
    for (let i = 0; i < 3; i++) await assert.rejects(authority.verify(forged), unauthorized('the token is not valid'));
    assert.equal(await authority.verify(await authority.issue('bob')), 'bob');
  });
});
