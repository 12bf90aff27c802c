// The lexer: keyword case, comments, quoting, dotted names and the number / time / duration
// distinctions the grammar relies on.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tokenize } from '../../grammar/index.js';

const types = (text: string) => tokenize(text).map((t) => `${t.type}:${t.text}`);

describe('lexer', () => {
  const CASES: [string, string, string[]][] = [
    ['keywords in any case', 'SeLeCt FROM from', ['SELECT:SeLeCt', 'FROM:FROM', 'FROM:from']],
    ['non-reserved words stay names', 'tag type day symbol double', ['ident:tag', 'ident:type', 'ident:day', 'ident:symbol', 'ident:double']],
    ['comments and whitespace vanish', 'a -- comment ; here\n\t b', ['ident:a', 'ident:b']],
    ['a comment at the end without newline', 'a --x', ['ident:a']],
    ['dotted and $ names', 'stocks.apple $timestamp $table a_1.b$', ['ident:stocks.apple', 'ident:$timestamp', 'ident:$table', 'ident:a_1.b$']],
    ['non-ASCII letters', 'température données', ['ident:température', 'ident:données']],
    ['quoted names keep their quotes in the token', '"a ""b"" c"', ['qident:"a ""b"" c"']],
    ['strings with doubled quotes', "'it''s' ''", ["string:'it''s'", "string:''"]],
    ['a year is a number', '2017', ['number:2017']],
    ['a date is one token', '2017-01-01', ['datetime:2017-01-01']],
    ['spaced dashes are arithmetic', '2017 - 01 - 01', ['number:2017', 'op:-', 'number:01', 'op:-', 'number:01']],
    ['a full time literal', '2017-01-01T10:00:35.123456789Z', ['datetime:2017-01-01T10:00:35.123456789Z']],
    ['durations', '10min 1h30min', ['duration:10min 1h30min']],
    ['durations separated by a comma', '10min, 1h30min', ['duration:10min', 'op:,', 'duration:1h30min']],
    ['a spaced duration', '1y 2mon', ['duration:1y 2mon']],
    ['a number then a keyword', '10 OFFSET 5', ['number:10', 'OFFSET:OFFSET', 'number:5']],
    ['exponents are numbers', '1e5 2.5E-3', ['number:1e5', 'number:2.5E-3']],
    ['multi-character operators', 'a!~*b!~c~*d!=e<=f>=g', ['ident:a', 'op:!~*', 'ident:b', 'op:!~', 'ident:c', 'op:~*', 'ident:d', 'op:!=', 'ident:e', 'op:<=', 'ident:f', 'op:>=', 'ident:g']],
    ['minus before a number is an operator', '-5', ['op:-', 'number:5']],
  ];
  for (const [name, text, expected] of CASES) {
    it(name, () => assert.deepEqual(types(text), expected));
  }

  it('tokens carry their offsets', () => {
    assert.deepEqual(tokenize('  SELECT\n  a').map((t) => t.offset), [2, 11]);
  });

  it('malformed tokens throw QuerySyntaxError at their offset', () => {
    for (const [text, offset] of [['a 5m', 3], ['a 1.5h', 2], ["a 'open", 2], ['a @', 2], ['x 2017-02-30', 2]] as const) {
      assert.throws(() => tokenize(text), { name: 'QuerySyntaxError', offset }, text);
    }
  });
});
