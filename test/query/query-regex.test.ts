// The regexes of `~ !~ ~* !~*` cannot hold the process (plan/query-regex.ts): catastrophic
// patterns finish in linear time, patterns V8's linear engine cannot run are refused with a
// QuerySemantic error, and `~*`, rewritten without the `i` flag, matches exactly what the `i`
// flag would (random patterns over strings of letters whose cases are not just upper and lower).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SvcError } from '../../engine/errors.js';
import { executeQuery } from '../../engine/query/index.js';
import { compileQueryRegex } from '../../engine/query/plan/query-regex.js';
import { prng } from '../prng.js';
import { FakeCatalog } from './fake-catalog.js';
import { rowsOf } from './helpers.js';

/** Letters with more than two cases or none (σ ς Σ, µ μ Μ, ſ, Kelvin K, ß ẞ, İ ı), and others. */
const ALPHABET = ['a', 'A', 'b', 'B', 'k', 'K', '\u212a', 's', 'S', 'ſ', 'σ', 'ς', 'Σ', 'µ', 'μ', 'Μ', 'ß', 'ẞ', 'é', 'É', 'i', 'I', 'İ', 'ı', 'z', '0', '7', '_', '-', ' ', '.', '[', ']'];

const ATOMS = ['a', 'B', 'k', 's', 'σ', 'µ', 'ß', 'é', 'I', 'ı', '.', '\\d', '\\w', '\\W', '\\s', '\\.', '\\x41', '\\u03c3', '\\u212a',
  '[a-c]', '[^a-c]', '[A-Z]', '[^\\W_]', '[σk-m]', '[\\x61-\\x7a]', '[Z-a]', '[-s]', '[s-]', '[µ]', '[^İ]', '[\\b]', '(?:ab|S)', '(?<g>k)'];
const QUANTIFIERS = ['', '', '', '*', '+', '?', '{2}', '{1,3}', '*?'];

function randomPattern(rnd: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  let p = rnd() < 0.2 ? '^' : '';
  const n = 1 + Math.floor(rnd() * 4);
  // Group names must differ: each atom's is made unique.
  for (let k = 0; k < n; k++) p += pick(ATOMS).replace('(?<g>', `(?<g${k}>`) + pick(QUANTIFIERS);
  if (rnd() < 0.2) p += `|${pick(ATOMS).replace('(?<g>', '(?<h>')}`;
  return rnd() < 0.2 ? `${p}$` : p;
}

function randomString(rnd: () => number): string {
  const n = Math.floor(rnd() * 8);
  return Array.from({ length: n }, () => ALPHABET[Math.floor(rnd() * ALPHABET.length)]).join('');
}

const isSemantic = (pattern: RegExp) => (e: unknown): boolean => e instanceof SvcError && e.code === 'QuerySemantic' && pattern.test(e.message);

describe('query regexes', () => {
  it('~* matches what the i flag matches, on 3,000 random patterns × 40 strings', () => {
    const rnd = prng(0x1ca5e);
    let matched = 0;
    for (let k = 0; k < 3000; k++) {
      const pattern = randomPattern(rnd);
      const ours = compileQueryRegex(pattern, true);
      const theirs = new RegExp(pattern, 'i');
      assert.equal(ours.flags, '', 'compiled without the i flag');
      for (let s = 0; s < 40; s++) {
        const text = randomString(rnd);
        const expected = theirs.test(text);
        assert.equal(ours.test(text), expected, `/${pattern}/i on ${JSON.stringify(text)} (rewritten /${ours.source}/)`);
        if (expected) matched++;
      }
    }
    assert.ok(matched > 10_000, `only ${matched} matches: the strings hardly exercise the patterns`);
  });

  it('~* matches what the i flag matches on escapes at the edges of the syntax', { timeout: 10_000 }, () => {
    // \k without named groups is the letter k; \c, \x and \u without their digits are letters too.
    for (const pattern of ['\\k<a', '\\k<a>', 'x\\k', '[\\k]', '\\ca', '\\c', '\\x4', '\\u00e', '\\p{L}', '[\\c]', '[\\c1]', '[a\\c-e]', '(?<n>a)\\k<n>|b']) {
      let ours: RegExp;
      try {
        ours = compileQueryRegex(pattern, true);
      } catch (e) {
        assert.match((e as Error).message, /linear time/, pattern); // the backreference
        continue;
      }
      for (const text of ['k<a>', 'K<A>', 'xK', 'K', '\x01', 'C', 'X4', 'u00E', 'PPPL}', 'p{l}', 'B', '\\', 'D', '\x11']) {
        assert.equal(ours.test(text), new RegExp(pattern, 'i').test(text), `/${pattern}/i on ${JSON.stringify(text)} (rewritten /${ours.source}/)`);
      }
    }
  });

  it('catastrophic patterns finish quickly, case-insensitive ones too', async () => {
    const catalog = new FakeCatalog(64);
    await catalog.createTable('t', [{ name: 's', type: 'STRING' }], { ifNotExists: false });
    // (a+)+$ backtracks 2^n times on n a's and a '!': 2^40 here, hours with the i flag as well.
    const rows = Array.from({ length: 200 }, (_, k) => `${'a'.repeat(30 + (k % 11))}!`);
    await catalog.insert('t', { $timestamp: BigInt64Array.from(rows, (_, k) => BigInt(k)), s: rows });
    for (const op of ['~', '~*', '!~', '!~*']) {
      const r = await executeQuery(catalog, `SELECT count(s) FROM t WHERE s ${op} '(a+)+$'`, { deadlineMs: 20_000 });
      const count = r.tables.length === 0 ? 0n : rowsOf(r.tables[0]!)[0]![1];
      assert.equal(count, op.startsWith('!') ? 200n : 0n, op);
    }
  });

  it('the deadline stops a regex over long strings inside one batch', async () => {
    const catalog = new FakeCatalog(4096);
    await catalog.createTable('t', [{ name: 's', type: 'STRING' }], { ifNotExists: false });
    const rows = Array.from({ length: 4096 }, (_, k) => `${'word '.repeat(400)}${k}`);
    await catalog.insert('t', { $timestamp: BigInt64Array.from(rows, (_, k) => BigInt(k)), s: rows });
    // Polynomial backtracking, then the linear engine: ~2 ms a row, ~8 s for the batch.
    await assert.rejects(executeQuery(catalog, "SELECT count(s) FROM t WHERE s ~ '.*w.*z'", { deadlineMs: 100 }), (e) => e instanceof SvcError && e.code === 'QueryTimeout');
  });

  it('refuses what cannot be matched in linear time, saying so', async () => {
    const catalog = new FakeCatalog(8);
    await catalog.createTable('t', [{ name: 's', type: 'STRING' }], { ifNotExists: false });
    for (const pattern of ['(a*)*\\1$', 'a(?=b)', '(?<!x)y', '[0-9a-f]{32}', '(?<n>a)\\k<n>']) {
      for (const op of ['~', '~*']) {
        await assert.rejects(executeQuery(catalog, `SELECT count(s) FROM t WHERE s ${op} '${pattern}'`), isSemantic(/linear time/), `${op} '${pattern}'`);
      }
    }
    // Invalid syntax is still reported as such.
    await assert.rejects(executeQuery(catalog, "SELECT count(s) FROM t WHERE s ~ '(a'"), isSemantic(/invalid regular expression/));
    // What the message suggests works.
    await executeQuery(catalog, "SELECT count(s) FROM t WHERE s ~* '[0-9a-f]{16}[0-9a-f]{16}'");
  });
});
