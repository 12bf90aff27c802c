// The assets directory served for non-API GET/HEAD paths: types from the extension, ETag and 304,
// gzip when accepted (and not for already-compressed types), `/` → index.html, and every way of
// walking out of the directory refused without reading the file outside it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';
import { assetPath, matchesEtag } from '../../server/http/assets.js';

const SECRET = 'top-secret-outside-assets';
const INDEX = `<!doctype html><title>svc</title>${'<p>dashboard</p>'.repeat(200)}`;

describe('assets', () => {
  let t: TestServer;
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'svc-assets-'));
    const assets = join(root, 'assets');
    await mkdir(join(assets, 'dist'), { recursive: true });
    await writeFile(join(assets, 'index.html'), INDEX);
    await writeFile(join(assets, 'dist', 'app.js'), `console.log(${JSON.stringify('x'.repeat(4000))});`);
    await writeFile(join(assets, 'dist', 'app.css'), 'body{color:red}');
    await writeFile(join(assets, 'logo.png'), Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(4000)]));
    await writeFile(join(root, 'secret.txt'), SECRET);
    await symlink(join(root, 'secret.txt'), join(assets, 'link.txt'));
    t = await startTestServer({ assetsDir: assets });
  });
  after(async () => {
    await t.stop();
    await rm(root, { recursive: true, force: true });
  });

  const types: [string, string][] = [
    ['/', 'text/html; charset=utf-8'],
    ['/index.html', 'text/html; charset=utf-8'],
    ['/dist/app.js', 'text/javascript; charset=utf-8'],
    ['/dist/app.css', 'text/css; charset=utf-8'],
    ['/logo.png', 'image/png'],
  ];
  for (const [path, type] of types) {
    it(`GET ${path} → 200 ${type}`, async () => {
      const r = await request(t.base, 'GET', path);
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-type'], type);
      assert.match(String(r.headers['etag']), /^"[A-Za-z0-9_-]+"$/);
    });
  }

  it('/ is index.html', async () => {
    const r = await request(t.base, 'GET', '/');
    assert.equal(r.text(), INDEX);
  });

  it('HEAD has the headers of GET and no body', async () => {
    const g = await request(t.base, 'GET', '/dist/app.css');
    const h = await request(t.base, 'HEAD', '/dist/app.css');
    assert.equal(h.status, 200);
    assert.equal(h.headers['etag'], g.headers['etag']);
    assert.equal(h.body.length, 0);
  });

  it('If-None-Match with the ETag → 304 without a body; another tag → 200', async () => {
    const first = await request(t.base, 'GET', '/dist/app.js');
    const etag = String(first.headers['etag']);
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const r = await request(t.base, 'GET', '/dist/app.js', { headers: { 'If-None-Match': inm } });
      assert.equal(r.status, 304, inm);
      assert.equal(r.body.length, 0);
      assert.equal(r.headers['etag'], etag);
    }
    const r = await request(t.base, 'GET', '/dist/app.js', { headers: { 'If-None-Match': '"stale"' } });
    assert.equal(r.status, 200);
  });

  it('gzip when accepted for text, never for PNG', async () => {
    const js = await request(t.base, 'GET', '/dist/app.js', { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(js.headers['content-encoding'], 'gzip');
    assert.ok(js.rawBody.length < js.body.length);
    assert.match(js.text(), /^console\.log/);
    const plain = await request(t.base, 'GET', '/dist/app.js');
    assert.equal(plain.headers['content-encoding'], undefined);
    const png = await request(t.base, 'GET', '/logo.png', { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(png.headers['content-encoding'], undefined);
  });

  const refused: [string, number][] = [
    ['/../secret.txt', 400],
    ['/dist/../../secret.txt', 400],
    ['/%2e%2e/secret.txt', 400],
    ['/%2E%2E/secret.txt', 400],
    ['/dist/%2e%2e%2f%2e%2e%2fsecret.txt', 400],
    ['/..%2fsecret.txt', 400],
    ['/.%2e/secret.txt', 400],
    ['/%2f%2e%2e%2fsecret.txt', 400],
    ['//etc/passwd', 400],
    ['/%2fetc%2fpasswd', 400],
    ['/..%5csecret.txt', 400],
    ['/index.html%00.png', 400],
    ['/%c0%ae%c0%ae/secret.txt', 400],
    ['/./index.html', 400],
    ['/link.txt', 404],
    ['/missing.js', 404],
    ['/dist', 404],
  ];
  for (const [path, status] of refused) {
    it(`GET ${path} → ${status} with the JSON error body`, async () => {
      const r = await request(t.base, 'GET', path);
      assert.equal(r.status, status);
      assert.ok(!r.text().includes(SECRET));
      const body = r.json();
      assert.equal(body.code, status);
      assert.equal(typeof body.message, 'string');
    });
  }

  it('API paths keep their own answers: an unknown /api path is a 404, POST to an asset is not served', async () => {
    const r = await request(t.base, 'GET', '/api/status/liveness');
    assert.equal(r.status, 200);
    const unknown = await request(t.base, 'GET', '/api/nope');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json().error, 'RouteNotFound');
    assert.doesNotMatch(unknown.json().message, /asset/);
    const post = await request(t.base, 'POST', '/index.html', { body: '' });
    assert.equal(post.status, 404);
    assert.ok(!post.text().includes('dashboard'));
  });

  it('assetPath maps paths and refuses escapes (table)', () => {
    assert.equal(assetPath('/'), 'index.html');
    assert.equal(assetPath('/dist/'), 'dist/index.html');
    assert.equal(assetPath('/a%20b.txt'), 'a b.txt');
    for (const bad of ['/..', '/a/../b', '/%2e%2e', '//x', '/a\\b', '/a%00', '/%E0%A4%A']) assert.throws(() => assetPath(bad), /BadRequest|path/);
  });

  it('matchesEtag: weak comparison and lists', () => {
    assert.equal(matchesEtag('', '"a"'), false);
    assert.equal(matchesEtag('"a"', '"a"'), true);
    assert.equal(matchesEtag('W/"a"', '"a"'), true);
    assert.equal(matchesEtag('"b", "a"', '"a"'), true);
    assert.equal(matchesEtag('"b"', '"a"'), false);
  });
});

describe('assets: none configured', () => {
  it('GET / → 404 JSON', async () => {
    const t = await startTestServer();
    try {
      const r = await request(t.base, 'GET', '/');
      assert.equal(r.status, 404);
      assert.equal(r.json().code, 404);
    } finally {
      await t.stop();
    }
  });
});
