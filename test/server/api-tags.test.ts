// GET /api/tags as qdb_rest answers it, replaying QuasarDB's Grafana plugin (bureau14/
// qdb-grafana-plugin, pkg/qdb-grafana-plugin.go): an anonymous login posting `{}` with its
// Content-Type, then `GET /api/tags` and `GET /api/tags?regex=<raw \S+>` with the bearer token,
// answers compared byte for byte with what qdb_rest's Go encoder writes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { goJsonString, tagsAnswer } from '../../server/protocols/qdb-rest/go-json.js';
import { assertError, request, startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';

let t: TestServer;
let token: string;
const TAGS = ['cpu.load', 'cpu.temp', 'disk', 'tag "quoted"', 'é\u2028x', '<html>&'];

before(async () => {
  t = await startTestServer();
  await t.server.db.createBlob('some/blob', 'x');
  for (const tag of TAGS) await t.server.db.attachTag('some/blob', tag);
  // The plugin's getToken: json.Marshal of {SecretKey, Username} with omitempty → `{}`.
  const r = await request(t.base, 'POST', '/api/login', { body: '{}', headers: { 'Content-Type': 'application/json; charset=utf-8' } });
  assert.equal(r.status, 200, r.text());
  token = r.json().token;
});
after(async () => { await t.stop(); });

const plugin = (path: string) => request(t.base, 'GET', path, { headers: { Authorization: `Bearer ${token}`, 'Accept-Encoding': 'gzip' } });

describe('GET /api/tags: the Grafana plugin\'s requests', () => {
  test('`show tags` → every tag, in byte-wise order, in qdb_rest\'s bytes', async () => {
    const r = await plugin('/api/tags');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(r.text(), '{"tables":[{"columns":[{"data":["<html>&","cpu.load","cpu.temp","disk","tag \\"quoted\\"","é\\u2028x"],"name":"name","type":"string"}]}]}\n');
  });

  test('`show tags where tag ~ ^cpu\\.` → ?regex= sent raw, matched anywhere as Go\'s MatchString does', async () => {
    const r = await plugin('/api/tags?regex=^cpu\\.');
    assert.equal(r.text(), '{"tables":[{"columns":[{"data":["cpu.load","cpu.temp"],"name":"name","type":"string"}]}]}\n');
    const partial = await plugin('/api/tags?regex=temp');
    assert.deepEqual(partial.json().tables[0].columns[0].data, ['cpu.temp']);
  });

  test('no tag matches → an empty data list, not null', async () => {
    const r = await plugin('/api/tags?regex=^nothing$');
    assert.equal(r.text(), '{"tables":[{"columns":[{"data":[],"name":"name","type":"string"}]}]}\n');
  });

  test('the plugin reads the answer as its QueryResult', async () => {
    const body = (await plugin('/api/tags')).json();
    assert.equal(body.tables.length, 1);
    assert.equal(body.tables[0].name, undefined);
    assert.equal(body.tables[0].columns[0].type, 'string');
  });

  test('an invalid or non-linear regex is a 400, and no token a 401', async () => {
    assertError(await plugin('/api/tags?regex=(a'), 400, 'BadRequest');
    assertError(await plugin('/api/tags?regex=(a)\\1'), 400, 'BadRequest');
    assertError(await request(t.base, 'GET', '/api/tags'), 401, 'Unauthorized');
  });
});

describe('Go 1.17 encoding/json strings', () => {
  const cases: [string, string][] = [
    ['plain', '"plain"'], ['a"b\\c', '"a\\"b\\\\c"'], ['\n\r\t', '"\\n\\r\\t"'], ['\b\f\u0001\u001f', '"\\u0008\\u000c\\u0001\\u001f"'],
    ['<>&', '"<>&"'], ['\u2028\u2029', '"\\u2028\\u2029"'], ['😀', '"😀"'], ['a\ud800b', '"a\\ufffdb"'], ['\u007f', '"\u007f"'],
  ];
  for (const [input, expected] of cases) test(JSON.stringify(input), () => assert.equal(goJsonString(input), expected));
  test('the tags answer ends with the encoder\'s newline', () => assert.equal(tagsAnswer([]).at(-1), '\n'));
});
