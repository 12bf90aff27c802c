// FIND, CREATE TABLE, DROP TABLE, INSERT and SHOW: each parses exactly once to the expected AST.
import { describe, it } from 'node:test';
import { assertMatches, DAY, HOUR, ns, parseOne } from './helpers.js';

const CASES: { name: string; query: string; expected: unknown }[] = [
  {
    name: 'find on a tag (seed 000)',
    query: "find(tag='stocks')",
    expected: { kind: 'Find', offset: 0, conditions: [{ kind: 'FindTag', offset: 5, tag: 'stocks', isNegated: false }] },
  },
  {
    name: 'find with NOT and type',
    query: "FIND(tag='a' AND NOT tag='b''s' AND type=blob);",
    expected: {
      kind: 'Find',
      conditions: [
        { kind: 'FindTag', tag: 'a', isNegated: false },
        { kind: 'FindTag', tag: "b's", isNegated: true, offset: 17 },
        { kind: 'FindType', type: 'blob', offset: 36 },
      ],
    },
  },
  { name: 'find by type, any case', query: 'find( TYPE = TS ) ', expected: { conditions: [{ kind: 'FindType', type: 'ts' }] } },
  { name: 'find type=tag', query: 'find(type=tag)', expected: { conditions: [{ kind: 'FindType', type: 'tag' }] } },
  {
    name: 'create table',
    query: 'CREATE TABLE stocks (open DOUBLE, close DOUBLE, volume INT64)',
    expected: {
      kind: 'CreateTable', offset: 0, name: 'stocks', hasIfNotExists: false, hasTimestampColumn: false, shardSize: null,
      columns: [
        { kind: 'ColumnDefinition', name: 'open', type: 'DOUBLE', offset: 21 },
        { kind: 'ColumnDefinition', name: 'close', type: 'DOUBLE' },
        { kind: 'ColumnDefinition', name: 'volume', type: 'INT64' },
      ],
    },
  },
  {
    name: 'create table with every type, explicit $timestamp, IF NOT EXISTS and SHARD_SIZE =',
    query: 'create table if not exists t ($timestamp TIMESTAMP, symbol SYMBOL(sym_table), b blob, s String, at timestamp, type symbol) SHARD_SIZE = 1h',
    expected: {
      name: 't', hasIfNotExists: true, hasTimestampColumn: true,
      columns: [
        { name: 'symbol', type: 'SYMBOL' }, { name: 'b', type: 'BLOB' }, { name: 's', type: 'STRING' },
        { name: 'at', type: 'TIMESTAMP' }, { name: 'type', type: 'SYMBOL' },
      ],
      shardSize: { kind: 'Duration', nanos: HOUR, months: 0 },
    },
  },
  {
    name: 'create table, SHARD_SIZE without = and a quoted name',
    query: 'CREATE TABLE "my.table" ("timestamp" TIMESTAMP) shard_size 1d',
    expected: { name: 'my.table', columns: [{ name: 'timestamp', type: 'TIMESTAMP' }], hasTimestampColumn: false, shardSize: { nanos: DAY, calendarUnit: 'd' } },
  },
  { name: 'drop table', query: 'DROP TABLE t', expected: { kind: 'DropTable', offset: 0, name: 't', nameOffset: 11, hasIfExists: false } },
  { name: 'drop table if exists', query: 'drop table if exists stocks.apple;', expected: { kind: 'DropTable', name: 'stocks.apple', hasIfExists: true } },
  {
    name: 'alter table add column',
    query: 'ALTER TABLE t ADD COLUMN b INT64, ADD c SYMBOL(x), d BOOLEAN',
    expected: {
      kind: 'AlterTable', offset: 0, name: 't', nameOffset: 12,
      columns: [
        { kind: 'ColumnDefinition', offset: 25, name: 'b', type: 'INT64' },
        { kind: 'ColumnDefinition', offset: 38, name: 'c', type: 'SYMBOL' },
        { kind: 'ColumnDefinition', offset: 51, name: 'd', type: 'BOOLEAN' },
      ],
    },
  },
  {
    name: 'insert with now (seed 001)',
    query: 'INSERT INTO t ($timestamp, x) VALUES (now, 3)',
    expected: {
      kind: 'Insert', offset: 0, table: 't', tableOffset: 12,
      columns: [{ kind: 'Column', name: '$timestamp', offset: 15 }, { kind: 'Column', name: 'x' }],
      rows: [[{ kind: 'TimePoint', base: 'now', offset: 38 }, { kind: 'Number', isInteger: true, value: 3n }]],
    },
  },
  {
    name: 'insert several rows of every value kind',
    query: "insert into stocks ($timestamp, a, b, c, d) values (2017-01-01T00:00:00Z, -1.5, 'x', NULL, -9223372036854775808), (now(), +2, '', null, 1e3), (2017, 0, 'it''s', NULL, 7)",
    expected: {
      rows: [
        [
          { kind: 'TimePoint', base: 'absolute', ns: ns('2017-01-01T00:00:00Z') },
          { kind: 'Number', isInteger: false, value: -1.5 },
          { kind: 'String', value: 'x' },
          { kind: 'Null' },
          { kind: 'Number', isInteger: true, value: -9223372036854775808n },
        ],
        [{ kind: 'TimePoint', base: 'now' }, { kind: 'Number', value: 2n }, { kind: 'String', value: '' }, { kind: 'Null' }, { kind: 'Number', isInteger: false, value: 1000 }],
        [{ kind: 'Number', value: 2017n }, { value: 0n }, { value: "it's" }, { kind: 'Null' }, { value: 7n }],
      ],
    },
  },
  {
    name: 'create materialized view (its SELECT an ordinary one, names filled in)',
    query: 'CREATE MATERIALIZED VIEW cpu_1h AS SELECT avg(usage), max(usage) AS top FROM cpu WHERE host ~ \'^web\' GROUP BY 1h, host',
    expected: {
      kind: 'CreateView', offset: 0, name: 'cpu_1h', nameOffset: 25, hasIfNotExists: false, ttl: null,
      select: {
        kind: 'Select', offset: 35,
        columns: [{ kind: 'SelectColumn', name: 'avg(usage)', alias: null }, { kind: 'SelectColumn', name: 'top', text: 'max(usage)' }],
        sources: [{ kind: 'TableRef', name: 'cpu' }],
        where: { kind: 'Binary', op: '~' },
        groupBy: [{ kind: 'Duration', nanos: HOUR }, { kind: 'Column', name: 'host' }],
      },
    },
  },
  {
    name: 'create materialized view: IF NOT EXISTS, a TTL, a quoted name, any case, a semicolon',
    query: 'create Materialized VIEW if not exists "rollups/cpu" ttl = 365d as select count(v) from t group by day;',
    expected: { kind: 'CreateView', name: 'rollups/cpu', hasIfNotExists: true, ttl: { kind: 'Duration', nanos: 365n * DAY }, select: { groupBy: [{ kind: 'Duration', nanos: DAY, calendarUnit: 'd' }] } },
  },
  { name: 'drop materialized view', query: 'DROP MATERIALIZED VIEW cpu_1h', expected: { kind: 'DropView', offset: 0, name: 'cpu_1h', nameOffset: 23, hasIfExists: false } },
  { name: 'drop materialized view if exists', query: 'drop materialized view if exists "a b";', expected: { kind: 'DropView', name: 'a b', hasIfExists: true } },
  { name: 'view and materialized are names elsewhere', query: 'SELECT view, materialized FROM view', expected: { kind: 'Select', columns: [{ name: 'view' }, { name: 'materialized' }], sources: [{ name: 'view' }] } },
  { name: 'show', query: 'SHOW stocks', expected: { kind: 'Show', offset: 0, table: 'stocks', tableOffset: 5 } },
  { name: 'show a quoted name', query: 'show "weird name";', expected: { kind: 'Show', table: 'weird name' } },
];

describe('FIND, CREATE, DROP, INSERT, SHOW', () => {
  for (const c of CASES) {
    it(c.name, () => assertMatches(parseOne(c.query), c.expected));
  }
});
