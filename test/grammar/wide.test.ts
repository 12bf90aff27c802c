// Wide and deep expressions: AND/OR chains are one node however long (a flat chain is not
// nesting), IN lists take any number of values, and real nesting stays bounded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatExpr, QuerySyntaxError } from '../../grammar/index.js';
import type { Expr, Select } from '../../grammar/index.js';
import { parseOne } from './helpers.js';

const where = (text: string): Expr => (parseOne(`SELECT a FROM t WHERE ${text}`) as Select).where!;
const terms = (n: number, f: (k: number) => string): string[] => Array.from({ length: n }, (_, k) => f(k));

describe('wide and deep expressions', () => {
  const CHAINS: { name: string; text: string; op: 'AND' | 'OR'; operands: number }[] = [
    { name: '257 ORs (refused as nesting before)', text: terms(258, (k) => `a = ${k}`).join(' OR '), op: 'OR', operands: 258 },
    { name: '10,000 ORs', text: terms(10_000, (k) => `a = ${k}`).join(' OR '), op: 'OR', operands: 10_000 },
    { name: '10,000 ANDs', text: terms(10_000, (k) => `a != ${k}`).join(' AND '), op: 'AND', operands: 10_000 },
    { name: '5,000 ORs of ANDs', text: terms(5_000, (k) => `a = ${k} AND b < ${k}`).join(' OR '), op: 'OR', operands: 5_000 },
    { name: '10,000 ORs, each in parentheses', text: terms(10_000, (k) => `(a = ${k})`).join(' OR '), op: 'OR', operands: 10_000 },
  ];
  for (const c of CHAINS) {
    it(`a flat chain parses to one node: ${c.name}`, () => {
      const e = where(c.text);
      assert.ok(e.kind === 'Logical', e.kind);
      assert.equal(e.op, c.op);
      assert.equal(e.operands.length, c.operands);
      assert.equal(e.offset, c.text.startsWith('(') ? 23 : 22); // a node starts at its first token inside any parentheses
      assert.ok(e.operands.every((o) => o.kind !== 'Logical' || o.op !== c.op), 'an operand repeats the operator');
    });
  }

  it('a 10,000-value IN list parses, and names its select item', () => {
    const values = terms(10_000, (k) => String(k));
    const e = where(`a IN (${values.join(', ')})`);
    assert.ok(e.kind === 'InList' && !e.isNegated);
    assert.equal(e.values.length, 10_000);
    const item = (parseOne(`SELECT a NOT IN (${values.slice(0, 3).join(', ')}) FROM t`) as Select).columns[0];
    assert.ok(item.kind === 'SelectColumn');
    assert.equal(item.text, '(a NOT IN (0,1,2))');
  });

  it('the normalized text of a chain reads back as the same chain', () => {
    const text = terms(300, (k) => `a = ${k}`).join(' OR ');
    const e = where(text);
    const again = where(formatExpr(e));
    assert.equal(formatExpr(again), formatExpr(e));
    assert.ok(again.kind === 'Logical' && again.operands.length === 300);
  });

  it('256 nested parentheses parse; real nesting beyond the limit is still refused', () => {
    assert.equal(where(`${'('.repeat(256)}a > 1${')'.repeat(256)}`).kind, 'Binary');
    // Each level adds a NOT and an OR chain: 130 levels of parentheses are 260 levels of nesting.
    let text = 'a > 1';
    for (let k = 0; k < 130; k++) text = `NOT (a = ${k} OR ${text})`;
    assert.throws(() => where(text), (e: unknown) => e instanceof QuerySyntaxError && /nested more than 256/.test(e.message) && e.offset > 0 && e.offset < text.length + 22);
    // An OR chain inside 200 levels of alternating AND/OR is fine.
    let ok = 'a > 1';
    for (let k = 0; k < 120; k++) ok = `(a = ${k} ${k % 2 === 0 ? 'OR' : 'AND'} ${ok})`;
    assert.equal(where(ok).kind, 'Logical');
  });
});
