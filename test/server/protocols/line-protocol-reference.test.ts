// The line-protocol parser against the one it was before its speed work (kept in
// reference-line-protocol-parser.ts): random requests over a small pool of series — escapes in
// every position, keys that prefix one another, every field type and spelling, CRLF, comments,
// missing timestamps, bad lines — parsed request after request by one instance of each, so the
// caches (series guesses, field-order guesses, table sizes) carry over as they do in a server.
// Both must return the same tables, or fail on the same line for the same reason.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineProtocolParser } from '../../../server/protocols/line-protocol/line-protocol-parser.js';
import { LineProtocolParser as ReferenceParser } from './reference-line-protocol-parser.js';
import { prng, type Rng } from '../../prng.js';

const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

const MEASUREMENTS = ['cpu', 'cpu2', 'c\\,pu', 'c\\ pu', 'm\\\\', 'w\\x', 'disk'];
const TAG_KEYS = ['host', 'h\\=k', 'region', 'r\\ g', 'a\\,b'];
const TAG_VALUES = ['a', 'ab', 'a\\ b', 'x\\=y', 'x\\,y', 'back\\\\', 'é', 'host-1'];
const FIELD_KEYS = ['v', 'value', 'val\\=ue', 'f\\ k', 'f\\,k', 'n', 'b', 's'];
const KINDS: readonly (readonly string[])[] = [
  ['1', '-1.5', '.5', '1.', '12345678901234567', '1.7976931348623157e308', '2.5E-3', '-0', '0.30000000000000004', '4.35'],
  ['1i', '-9223372036854775808i', '9223372036854775807i', '0i', '-12i'],
  ['t', 'T', 'true', 'True', 'TRUE', 'f', 'false', 'FALSE'],
  ['"str"', '"with \\"quote\\" and \\\\"', '"a,b c=d"', '""', '"line\nbreak"'],
];
const VALUES = ['1', '-1.5', '.5', '1.', '12345678901234567', '1.7976931348623157e308', '2.5E-3', '-0', '0.30000000000000004',
  '1i', '-9223372036854775808i', '9223372036854775807u', '0u', 't', 'T', 'true', 'True', 'TRUE', 'f', 'false', 'FALSE',
  '"str"', '"with \\"quote\\" and \\\\"', '"a,b c=d"', '""', '"line\nbreak"', '12x', '1.5i', '-1u', 'tru', '"open'];

function series(r: Rng): string {
  let key = pick(r, MEASUREMENTS);
  const n = Math.floor(r() * 3);
  const used = new Set<string>();
  for (let i = 0; i < n; i++) {
    const k = pick(r, TAG_KEYS);
    if (used.has(k) && r() < 0.98) continue;
    used.add(k);
    key += `,${k}=${pick(r, TAG_VALUES)}`;
  }
  return key;
}

function line(r: Rng, pool: readonly string[], bad: boolean): string {
  if (r() < 0.03) return '# a comment, with = signs';
  if (r() < 0.03) return '';
  const fields: string[] = [];
  const n = 1 + Math.floor(r() * 4);
  for (let i = 0; i < n; i++) {
    // A steady field per key (types rarely conflict), now and then anything.
    const key = pick(r, FIELD_KEYS);
    const value = bad && r() < 0.3 ? pick(r, VALUES) : pick(r, KINDS[FIELD_KEYS.indexOf(key) % KINDS.length]);
    fields.push(`${key}=${value}`);
  }
  const ts = r() < 0.2 ? '' : r() < 0.5 ? ` ${1_700_000_000_000_000_000 + Math.floor(r() * 1e6)}` : ` ${Math.floor(r() * 1e12) - 1e6}`;
  return `${pick(r, pool)} ${fields.join(',')}${ts}${r() < 0.1 ? ' ' : ''}`;
}

type Outcome = { tables: unknown } | { error: string };

function outcome(parse: () => { tables: unknown }): Outcome {
  try {
    return { tables: parse().tables };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

describe('line-protocol parser against its reference', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`parses random requests alike (seed ${seed})`, () => {
      const r = prng(seed);
      const pool = Array.from({ length: 12 }, () => series(r));
      const parser = new LineProtocolParser();
      const reference = new ReferenceParser();
      const schemas: Record<string, Map<string, string>> = {};
      const options = { multiplier: 1, now: 1_700_000_000_000_000_000n, schemaOf: (t: string) => schemas[t] ?? null };
      let failures = 0;
      for (let request = 0; request < 300; request++) {
        const bad = r() < 0.3;
        const lines = Array.from({ length: 1 + Math.floor(r() * 40) }, () => line(r, pool, bad));
        const body = Buffer.from(lines.join(r() < 0.3 ? '\r\n' : '\n') + (r() < 0.5 ? '\n' : ''));
        const got = outcome(() => parser.parse(body, options));
        const want = outcome(() => reference.parse(body, options));
        assert.deepEqual(got, want, `seed ${seed}, request ${request}:\n${body.toString()}`);
        if ('error' in want) failures++;
        // Now and then a table comes to exist with the columns a request gave it.
        else if (r() < 0.2) {
          for (const t of want.tables as { name: string; columns: { name: string; values: { type: string } }[] }[]) {
            schemas[t.name] ??= new Map(t.columns.map((c) => [c.name, c.values.type]));
          }
        }
      }
      assert.ok(failures > 10 && failures < 250, `${failures} failing requests: both paths exercised`);
    });
  }
});
