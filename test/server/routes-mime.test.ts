// MIME detection as the bridge reports it (SPEC §3): magic bytes, then text heuristics, then the
// alias's extension, then application/octet-stream; the content route's Content-Type,
// Content-Length and ?download.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { request, startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';

let t: TestServer;
before(async () => { t = await startTestServer(); });
after(async () => { await t.stop(); });

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');
// A real zip archive holding a.txt = "hello" (written by Python's zipfile).
const ZIP = Buffer.from('504b03041400000000002332775d86a61036050000000500000005000000612e74787468656c6c6f504b010214031400000000002332775d86a610360500000005000000050000000000000000000000800100000000612e747874504b0506000000000100010033000000280000000000', 'hex');

const cases: { rule: string; alias: string; content: Uint8Array; mime: string }[] = [
  { rule: 'magic: PNG (even named .txt)', alias: 'img.txt', content: PNG, mime: 'image/png' },
  { rule: 'magic: PDF', alias: 'doc', content: Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'), mime: 'application/pdf' },
  { rule: 'magic: gzip', alias: 'archive', content: gzipSync('hello'), mime: 'application/gzip' },
  { rule: 'magic: zip', alias: 'bundle', content: ZIP, mime: 'application/zip' },
  { rule: 'text: valid JSON', alias: 'data', content: Buffer.from(' {"a": [1, 2]} '), mime: 'application/json' },
  { rule: 'text: HTML', alias: 'page', content: Buffer.from('<!DOCTYPE html><html><body>hi</body></html>'), mime: 'text/html' },
  { rule: 'text: XML', alias: 'feed', content: Buffer.from('<?xml version="1.0"?><a/>'), mime: 'application/xml' },
  { rule: 'text: other UTF-8 (the extension does not override text)', alias: 'notes.json', content: Buffer.from('héllo wörld, {not json'), mime: 'text/plain; charset=utf-8' },
  { rule: 'extension: binary without magic named .csv', alias: 'table.csv', content: Buffer.from([0x80, 0x81, 0x82, 0x83]), mime: 'text/csv' },
  { rule: 'fallback: binary, no known extension', alias: 'blob.unknownext', content: Buffer.from([0x80, 0x81, 0x82]), mime: 'application/octet-stream' },
  { rule: 'fallback: the empty blob', alias: 'empty.png', content: Buffer.alloc(0), mime: 'application/octet-stream' },
];

for (const c of cases) {
  test(`${c.rule} → ${c.mime}`, async () => {
    const alias = `mime/${c.alias}`;
    const path = `/api/v1/blobs/${encodeURIComponent(alias)}`;
    assert.equal((await request(t.base, 'POST', path, { body: c.content })).status, 201);
    const d = (await request(t.base, 'GET', path)).json();
    assert.equal(d.mime, c.mime);
    assert.equal(d.size, c.content.length);
    const r = await request(t.base, 'GET', `${path}/content`);
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], c.mime);
    assert.equal(r.headers['content-length'], String(c.content.length));
    assert.equal(r.headers['content-disposition'], undefined);
    assert.deepEqual(new Uint8Array(r.body), new Uint8Array(c.content));
  });
}

test('?download adds Content-Disposition: attachment with the last path segment as file name', async () => {
  const alias = 'mime/dir/rapport été.pdf';
  const path = `/api/v1/blobs/${encodeURIComponent(alias)}`;
  await request(t.base, 'POST', path, { body: '%PDF-1.7\n' });
  const r = await request(t.base, 'GET', `${path}/content?download`);
  assert.equal(r.status, 200);
  assert.equal(r.headers['content-disposition'], `attachment; filename="rapport _t_.pdf"; filename*=UTF-8''${encodeURIComponent('rapport été.pdf')}`);
  assert.match(String((await request(t.base, 'GET', `${path}/content?download=1`)).headers['content-disposition']), /^attachment;/);
});

test('content already compressed (PNG) is not gzipped again', async () => {
  const big = Buffer.concat([PNG, Buffer.alloc(4000, 7)]);
  const path = `/api/v1/blobs/${encodeURIComponent('mime/big.png')}`;
  await request(t.base, 'POST', path, { body: big });
  const r = await request(t.base, 'GET', `${path}/content`, { headers: { 'Accept-Encoding': 'gzip' } });
  assert.equal(r.headers['content-type'], 'image/png');
  assert.equal(r.headers['content-encoding'], undefined);
  assert.equal(r.rawBody.length, big.length);
});

test('a blob larger than the socket buffer arrives whole (tryEnd/onWritable)', async () => {
  const big = Buffer.alloc(8 * 1024 * 1024);
  for (let i = 0; i < big.length; i += 4) big.writeUInt32LE(i * 2654435761 >>> 0, i);
  const path = `/api/v1/blobs/${encodeURIComponent('mime/large.bin')}`;
  assert.equal((await request(t.base, 'POST', path, { body: big })).status, 201);
  const plain = await request(t.base, 'GET', `${path}/content`);
  assert.equal(plain.headers['content-length'], String(big.length));
  assert.ok(plain.body.equals(big));
  const gz = await request(t.base, 'GET', `${path}/content`, { headers: { 'Accept-Encoding': 'gzip' } });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.ok(gz.body.equals(big));
});
