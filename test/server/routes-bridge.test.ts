// The web bridge against a real server: every row of seed 000's state table (§3) and error table
// (§7), SPEC §3's decisions (PATCH spellings, missing/unknown action, paging, pattern, extra
// routes), aliases in paths, 404 vs 405, and 413 decided before the body.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { assertError, request, startTestServer } from './helpers.js';
import type { Response, TestServer } from './helpers.js';

let t: TestServer;
before(async () => { t = await startTestServer({ maxInBufferSize: 4096 }); });
after(async () => { await t.stop(); });

const enc = encodeURIComponent;
const req = (method: string, path: string, body?: string | Uint8Array): Promise<Response> => request(t.base, method, path, body === undefined ? {} : { body });
let counter = 0;
/** A fresh alias per test so cases never depend on each other. */
const fresh = (label: string): string => `${label}-${++counter}`;

async function blob(alias: string, content = 'hello'): Promise<void> {
  assert.equal((await req('POST', `/api/v1/blobs/${enc(alias)}`, content)).status, 201);
}
async function attach(alias: string, tag: string): Promise<Response> {
  return req('PATCH', `/api/v1/entries/${enc(alias)}?action=attachTag&tag=${enc(tag)}`);
}

describe('seed 000 §3: states and transitions', () => {
  const cases: { name: string; setup: (a: string, tag: string) => Promise<void>; run: (a: string, tag: string) => Promise<Response>; status: number; after?: (a: string, tag: string) => Promise<void> }[] = [
    { name: 'entry absent + POST blob → 201, blob exists', setup: async () => {}, run: (a) => req('POST', `/api/v1/blobs/${enc(a)}`, 'abc'), status: 201,
      after: async (a) => assert.equal((await req('GET', `/api/v1/blobs/${enc(a)}/content`)).text(), 'abc') },
    { name: 'entry exists + POST blob → 422, unchanged', setup: (a) => blob(a, 'first'), run: (a) => req('POST', `/api/v1/blobs/${enc(a)}`, 'second'), status: 422,
      after: async (a) => assert.equal((await req('GET', `/api/v1/blobs/${enc(a)}/content`)).text(), 'first') },
    { name: 'tag not attached + attachTag → 200, attached', setup: (a) => blob(a), run: (a, tag) => attach(a, tag), status: 200,
      after: async (a, tag) => assert.deepEqual((await req('GET', `/api/v1/entries/${enc(a)}/tags`)).json().aliases, [tag]) },
    { name: 'tag attached + attachTag → 304', setup: async (a, tag) => { await blob(a); await attach(a, tag); }, run: (a, tag) => attach(a, tag), status: 304 },
    { name: 'tag attached + detachTag → 200, not attached', setup: async (a, tag) => { await blob(a); await attach(a, tag); },
      run: (a, tag) => req('PATCH', `/api/v1/entries/${enc(a)}?action=detachTag&tag=${enc(tag)}`), status: 200,
      after: async (a) => assert.deepEqual((await req('GET', `/api/v1/entries/${enc(a)}/tags`)).json().aliases, []) },
    { name: 'tag not attached + detachTag → 304', setup: async (a, tag) => { await blob(a); await attach(`${a}-other`, tag).catch(() => undefined); },
      run: (a, tag) => req('PATCH', `/api/v1/entries/${enc(a)}?action=detachTag&tag=${enc(tag)}`), status: 304 },
    { name: 'entry exists + setExpiry → 204, expiry changed', setup: (a) => blob(a),
      run: (a) => req('PATCH', `/api/v1/entries/${enc(a)}?action=setExpiry&expiry=${Math.floor(Date.now() / 1000) + 3600}`), status: 204,
      after: async (a) => assert.ok((await req('GET', `/api/v1/blobs/${enc(a)}`)).json().expiry > 0) },
    { name: 'setExpiry 0 → 204, never expires', setup: (a) => blob(a), run: (a) => req('PATCH', `/api/v1/entries/${enc(a)}?action=setExpiry&expiry=0`), status: 204,
      after: async (a) => assert.equal((await req('GET', `/api/v1/blobs/${enc(a)}`)).json().expiry, 0) },
    { name: 'entry exists + DELETE → 200, absent', setup: (a) => blob(a), run: (a) => req('DELETE', `/api/v1/entries/${enc(a)}`), status: 200,
      after: async (a) => assert.equal((await req('GET', `/api/v1/blobs/${enc(a)}`)).status, 404) },
    { name: 'blob exists + PUT content → 204, replaced', setup: (a) => blob(a, 'old'), run: (a) => req('PUT', `/api/v1/blobs/${enc(a)}/content`, 'new'), status: 204,
      after: async (a) => assert.equal((await req('GET', `/api/v1/blobs/${enc(a)}/content`)).text(), 'new') },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const a = fresh('state');
      const tag = fresh('tag');
      await c.setup(a, tag);
      const r = await c.run(a, tag);
      assert.equal(r.status, c.status, r.text());
      await c.after?.(a, tag);
    });
  }
});

describe('seed 000 §7: error table', () => {
  const missing = (): string => fresh('missing');
  const cases: { name: string; run: () => Promise<Response>; status: number; code: string }[] = [
    { name: '2 attach: entry does not exist → 404', run: () => attach(missing(), 't'), status: 404, code: 'AliasNotFound' },
    { name: '2 attach: alias in tag is not a tag → 422', run: async () => { const a = fresh('e'); const b = fresh('b'); await blob(a); await blob(b); return attach(a, b); }, status: 422, code: 'IncompatibleType' },
    { name: '3 detach: entry does not exist → 404', run: () => req('PATCH', `/api/v1/entries/${missing()}?action=detachTag&tag=t`), status: 404, code: 'AliasNotFound' },
    { name: '3 detach: alias is not a tag → 422', run: async () => { const a = fresh('e'); const b = fresh('b'); await blob(a); await blob(b); return req('PATCH', `/api/v1/entries/${a}?action=detachTag&tag=${b}`); }, status: 422, code: 'IncompatibleType' },
    { name: '4 remove: entry does not exist → 404', run: () => req('DELETE', `/api/v1/entries/${missing()}`), status: 404, code: 'AliasNotFound' },
    { name: '5 set expiry: entry does not exist → 404', run: () => req('PATCH', `/api/v1/entries/${missing()}?action=setExpiry&expiry=0`), status: 404, code: 'AliasNotFound' },
    { name: '5 set expiry: type without expiry (tag) → 422', run: async () => { const a = fresh('e'); const tag = fresh('t'); await blob(a); await attach(a, tag); return req('PATCH', `/api/v1/entries/${tag}?action=setExpiry&expiry=0`); }, status: 422, code: 'ExpiryNotSupported' },
    { name: '5 set expiry: in the past → 422', run: async () => { const a = fresh('e'); await blob(a); return req('PATCH', `/api/v1/entries/${a}?action=setExpiry&expiry=1000`); }, status: 422, code: 'ExpiryInPast' },
    { name: '8 create: entry already exists → 422', run: async () => { const a = fresh('e'); await blob(a); return req('POST', `/api/v1/blobs/${a}`, 'x'); }, status: 422, code: 'AliasAlreadyExists' },
    { name: '9 update: exists but not a blob → 422', run: async () => { const a = fresh('e'); const tag = fresh('t'); await blob(a); await attach(a, tag); return req('PUT', `/api/v1/blobs/${tag}/content`, 'x'); }, status: 422, code: 'IncompatibleType' },
    { name: '10 read: entry does not exist → 404', run: () => req('GET', `/api/v1/blobs/${missing()}/content`), status: 404, code: 'AliasNotFound' },
    { name: '10 read: exists but not a blob → 422', run: async () => { const a = fresh('e'); const tag = fresh('t'); await blob(a); await attach(a, tag); return req('GET', `/api/v1/blobs/${tag}/content`); }, status: 422, code: 'IncompatibleType' },
    { name: '7 describe blob: missing → 404', run: () => req('GET', `/api/v1/blobs/${missing()}`), status: 404, code: 'AliasNotFound' },
    { name: '7 describe blob: a tag → 422', run: async () => { const a = fresh('e'); const tag = fresh('t'); await blob(a); await attach(a, tag); return req('GET', `/api/v1/blobs/${tag}`); }, status: 422, code: 'IncompatibleType' },
    { name: '12 describe tag: missing → 404', run: () => req('GET', `/api/v1/tags/${missing()}`), status: 404, code: 'AliasNotFound' },
    { name: '12 describe tag: a blob → 422', run: async () => { const a = fresh('e'); await blob(a); return req('GET', `/api/v1/tags/${a}`); }, status: 422, code: 'IncompatibleType' },
    { name: '13 tagged entries: missing tag → 404', run: () => req('GET', `/api/v1/tags/${missing()}/entries`), status: 404, code: 'AliasNotFound' },
    { name: '1 tags of a missing entry → 404', run: () => req('GET', `/api/v1/entries/${missing()}/tags`), status: 404, code: 'AliasNotFound' },
    { name: 'PATCH without action → 400', run: async () => { const a = fresh('e'); await blob(a); return req('PATCH', `/api/v1/entries/${a}?tag=x`); }, status: 400, code: 'BadRequest' },
    { name: 'PATCH with an unknown action → 422', run: async () => { const a = fresh('e'); await blob(a); return req('PATCH', `/api/v1/entries/${a}?action=explode&tag=x`); }, status: 422, code: 'UnknownAction' },
    { name: 'attachTag without tag → 400', run: async () => { const a = fresh('e'); await blob(a); return req('PATCH', `/api/v1/entries/${a}?action=attachTag`); }, status: 400, code: 'BadRequest' },
    { name: 'setExpiry without expiry → 400', run: async () => { const a = fresh('e'); await blob(a); return req('PATCH', `/api/v1/entries/${a}?action=setExpiry`); }, status: 400, code: 'BadRequest' },
    { name: 'setExpiry with a negative expiry → 400', run: async () => { const a = fresh('e'); await blob(a); return req('PATCH', `/api/v1/entries/${a}?action=setExpiry&expiry=-5`); }, status: 400, code: 'BadRequest' },
    { name: 'setExpiry with a fractional expiry → 400', run: async () => { const a = fresh('e'); await blob(a); return req('PATCH', `/api/v1/entries/${a}?action=setExpiry&expiry=1.5`); }, status: 400, code: 'BadRequest' },
    { name: 'entries without prefix or pattern → 400', run: () => req('GET', '/api/v1/entries'), status: 400, code: 'BadRequest' },
    { name: 'blobs without pattern → 400', run: () => req('GET', '/api/v1/blobs'), status: 400, code: 'BadRequest' },
    { name: 'malformed percent-encoding in the alias → 400', run: () => req('GET', '/api/v1/blobs/%zz'), status: 400, code: 'BadRequest' },
    { name: 'invalid UTF-8 in the alias → 400', run: () => req('GET', '/api/v1/blobs/%ff%fe'), status: 400, code: 'BadRequest' },
  ];
  for (const c of cases) {
    test(c.name, async () => assertError(await c.run(), c.status, c.code));
  }
});

describe('SPEC §3: both PATCH spellings', () => {
  for (const [attachName, detachName] of [['attachTag', 'detachTag'], ['addTag', 'removeTag']]) {
    test(`${attachName} / ${detachName}`, async () => {
      const a = fresh('spell');
      await blob(a);
      assert.equal((await req('PATCH', `/api/v1/entries/${a}?action=${attachName}&tag=sp`)).status, 200);
      assert.deepEqual((await req('GET', `/api/v1/entries/${a}/tags`)).json().aliases, ['sp']);
      assert.equal((await req('PATCH', `/api/v1/entries/${a}?action=${detachName}&tag=sp`)).status, 200);
      assert.deepEqual((await req('GET', `/api/v1/entries/${a}/tags`)).json().aliases, []);
    });
  }
});

describe('paging', () => {
  let prefix: string;
  before(async () => {
    prefix = fresh('page');
    for (let i = 0; i < 5; i++) await blob(`${prefix}/${i}`);
  });
  const list = (q: string): Promise<Response> => req('GET', `/api/v1/entries?prefix=${enc(`${prefix}/`)}${q}`);
  const cases: { name: string; query: string; aliases: number[]; nextSkip: number | null }[] = [
    { name: 'default limit, everything on one page', query: '', aliases: [0, 1, 2, 3, 4], nextSkip: null },
    { name: 'first of several pages', query: '&limit=2', aliases: [0, 1], nextSkip: 2 },
    { name: 'middle page', query: '&limit=2&skip=2', aliases: [2, 3], nextSkip: 4 },
    { name: 'last page, partly filled', query: '&limit=2&skip=4', aliases: [4], nextSkip: null },
    { name: 'exact page: the page ends at the last alias', query: '&limit=5', aliases: [0, 1, 2, 3, 4], nextSkip: null },
    { name: 'exact last page after a first one', query: '&limit=1&skip=4', aliases: [4], nextSkip: null },
    { name: 'skip past the end → empty page', query: '&skip=99', aliases: [], nextSkip: null },
    { name: 'limit at the maximum', query: '&limit=10000', aliases: [0, 1, 2, 3, 4], nextSkip: null },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const r = await list(c.query);
      assert.equal(r.status, 200, r.text());
      const body = r.json();
      assert.deepEqual(body.aliases, c.aliases.map((i) => `${prefix}/${i}`));
      if (c.nextSkip === null) {
        assert.equal(body.links?.next, undefined);
      } else {
        const next = new URL(body.links.next, t.base);
        assert.equal(next.pathname, '/api/v1/entries');
        assert.equal(next.searchParams.get('skip'), String(c.nextSkip));
        assert.equal(next.searchParams.get('prefix'), `${prefix}/`);
        assert.equal(next.searchParams.get('limit'), new URLSearchParams(c.query).get('limit'));
        // Following the link gives the next page.
        assert.equal((await req('GET', body.links.next)).status, 200);
      }
    });
  }
  test('an empty list has no next link', async () => {
    const r = await req('GET', `/api/v1/entries?prefix=${fresh('nothing')}`);
    assert.deepEqual(r.json(), { aliases: [], links: {} });
  });
  test('following next links visits every alias once', async () => {
    const seen: string[] = [];
    let path: string | undefined = `/api/v1/entries?prefix=${enc(`${prefix}/`)}&limit=2`;
    while (path !== undefined) {
      const body = (await req('GET', path)).json();
      seen.push(...body.aliases);
      path = body.links.next;
    }
    assert.deepEqual(seen, [0, 1, 2, 3, 4].map((i) => `${prefix}/${i}`));
  });
  for (const bad of ['limit=0', 'limit=10001', 'limit=-1', 'limit=abc', 'limit=1.5', 'limit=', 'skip=-1', 'skip=x', 'skip=1e3']) {
    test(`${bad} → 400`, async () => assertError(await list(`&${bad}`), 400, 'BadRequest'));
  }
  test('tags and tagged-entries pages page too', async () => {
    const a = fresh('many-tags');
    await blob(a);
    for (const tag of ['t-c', 't-a', 't-b']) await attach(a, `${a}/${tag}`);
    const first = (await req('GET', `/api/v1/entries/${enc(a)}/tags?limit=2`)).json();
    assert.deepEqual(first.aliases, [`${a}/t-a`, `${a}/t-b`]);
    assert.deepEqual((await req('GET', first.links.next)).json(), { aliases: [`${a}/t-c`], links: {} });
    assert.deepEqual((await req('GET', `/api/v1/tags/${enc(`${a}/t-a`)}/entries`)).json(), { aliases: [a], links: {} });
  });
});

describe('pattern: blobs containing a byte sequence', () => {
  test('on /api/v1/entries and /api/v1/blobs, URL-decoded as bytes', async () => {
    const base = fresh('pat');
    await blob(`${base}/a`, 'the needle is here');
    await blob(`${base}/b`, 'no such thing');
    await req('POST', `/api/v1/blobs/${enc(`${base}/bin`)}`, new Uint8Array([0x00, 0xff, 0xfe, 0x01]));
    for (const route of ['/api/v1/entries', '/api/v1/blobs']) {
      const text = (await req('GET', `${route}?pattern=needle+is`)).json().aliases.filter((s: string) => s.startsWith(base));
      assert.deepEqual(text, [`${base}/a`], route);
      const bytes = (await req('GET', `${route}?pattern=%ff%fe`)).json().aliases.filter((s: string) => s.startsWith(base));
      assert.deepEqual(bytes, [`${base}/bin`], route);
    }
  });
});

describe('descriptions and the web client routes', () => {
  test('blob description: keys in the seed order, links with the alias encoded', async () => {
    const a = `${fresh('desc')}/report q3.json`;
    await blob(a, '{"ok":true}');
    const r = await req('GET', `/api/v1/blobs/${enc(a)}`);
    assert.equal(r.status, 200);
    assert.equal(r.text(), JSON.stringify({
      alias: a, type: 'blob', mime: 'application/json', size: 11, expiry: 0,
      links: { self: `/api/v1/blobs/${enc(a)}`, content: `/api/v1/blobs/${enc(a)}/content`, tags: `/api/v1/blobs/${enc(a)}/tags` },
    }));
    for (const link of Object.values(r.json().links) as string[]) assert.equal((await req('GET', link)).status, 200, link);
  });
  test('tag description and its links', async () => {
    const a = fresh('d');
    const tag = `${fresh('tg')}/x`;
    await blob(a);
    await attach(a, tag);
    await attach(tag, tag); // a tag may carry itself
    const r = (await req('GET', `/api/v1/tags/${enc(tag)}`)).json();
    assert.deepEqual(r, { alias: tag, type: 'tag', links: { self: `/api/v1/tags/${enc(tag)}`, entries: `/api/v1/tags/${enc(tag)}/entries`, tags: `/api/v1/tags/${enc(tag)}/tags` } });
    assert.deepEqual((await req('GET', r.links.entries)).json().aliases, [a, tag].sort());
    assert.deepEqual((await req('GET', r.links.tags)).json().aliases, [tag]);
  });
  test('GET /api/v1/entries/:alias redirects to the blob or tag, describes a table', async () => {
    const a = fresh('redir');
    const tag = fresh('redir-tag');
    await blob(a);
    await attach(a, tag);
    const rb = await req('GET', `/api/v1/entries/${a}`);
    assert.equal(rb.status, 302);
    assert.equal(rb.headers.location, `/api/v1/blobs/${a}`);
    const rt = await req('GET', `/api/v1/entries/${tag}`);
    assert.equal(rt.status, 302);
    assert.equal(rt.headers.location, `/api/v1/tags/${tag}`);
    await t.server.db.createTable(`${a}.table`, [{ name: 'v', type: 'DOUBLE' }]);
    const rs = await req('GET', `/api/v1/entries/${a}.table`);
    assert.equal(rs.status, 200);
    assert.deepEqual(rs.json(), { alias: `${a}.table`, type: 'ts', links: { self: `/api/v1/entries/${a}.table`, tags: `/api/v1/entries/${a}.table/tags` } });
    assertError(await req('GET', `/api/v1/entries/${fresh('nope')}`), 404, 'AliasNotFound');
  });
  test('PUT /api/v1/blobs/:alias replaces (204) or creates (201)', async () => {
    const a = fresh('put');
    const created = await req('PUT', `/api/v1/blobs/${a}`, 'one');
    assert.equal(created.status, 201);
    assert.equal((await req('PUT', `/api/v1/blobs/${a}`, 'two')).status, 204);
    assert.equal((await req('GET', `/api/v1/blobs/${a}/content`)).text(), 'two');
  });
  test('PATCH and DELETE on /blobs/:alias and /tags/:alias act on that type only', async () => {
    const a = fresh('typed');
    const tag = fresh('typed-tag');
    await blob(a);
    assert.equal((await req('PATCH', `/api/v1/blobs/${a}?action=attachTag&tag=${tag}`)).status, 200);
    assert.equal((await req('PATCH', `/api/v1/tags/${tag}?action=attachTag&tag=${tag}`)).status, 200);
    assertError(await req('PATCH', `/api/v1/tags/${a}?action=attachTag&tag=${tag}`), 422, 'IncompatibleType');
    assertError(await req('DELETE', `/api/v1/blobs/${tag}`), 422, 'IncompatibleType');
    assert.deepEqual((await req('GET', `/api/v1/blobs/${a}/tags`)).json().aliases, [tag]);
    assert.deepEqual((await req('GET', `/api/v1/tags/${tag}/tags`)).json().aliases, [tag]);
    assertError(await req('GET', `/api/v1/blobs/${tag}/tags`), 422, 'IncompatibleType');
    assertError(await req('GET', `/api/v1/tags/${a}/tags`), 422, 'IncompatibleType');
    assert.equal((await req('DELETE', `/api/v1/tags/${tag}`)).status, 200);
    assert.deepEqual((await req('GET', `/api/v1/blobs/${a}/tags`)).json().aliases, []);
    assert.equal((await req('DELETE', `/api/v1/blobs/${a}`)).status, 200);
    assertError(await req('GET', `/api/v1/blobs/${a}`), 404, 'AliasNotFound');
  });
});

describe('aliases in paths', () => {
  const aliases = ['plain', 'with/slash', 'a/b/c.json', 'spaces and+plus', 'ünïcødé/日本', 'ends/content', 'ends/tags', 'pct%41', '?#&='];
  for (const alias of aliases) {
    test(`'${alias}' percent-encoded whole`, async () => {
      const a = `${fresh('path')}:${alias}`;
      assert.equal((await req('POST', `/api/v1/blobs/${enc(a)}`, 'x')).status, 201);
      assert.equal((await req('GET', `/api/v1/blobs/${enc(a)}`)).json().alias, a);
      assert.equal((await req('GET', `/api/v1/blobs/${enc(a)}/content`)).text(), 'x');
      assert.equal((await req('GET', `/api/v1/entries?prefix=${enc(a)}`)).json().aliases[0], a);
    });
  }
  test('a literal / in the alias is accepted; the suffixes still win', async () => {
    const a = `${fresh('lit')}/dir/file`;
    assert.equal((await req('POST', `/api/v1/blobs/${a}`, 'raw')).status, 201);
    assert.equal((await req('GET', `/api/v1/blobs/${a}`)).json().alias, a);
    assert.equal((await req('GET', `/api/v1/blobs/${a}/content`)).text(), 'raw');
    assert.deepEqual((await req('GET', `/api/v1/blobs/${a}/tags`)).json().aliases, []);
  });
});

describe('routing errors', () => {
  const cases: [string, string, number, string][] = [
    ['GET', '/nope', 404, 'RouteNotFound'],
    ['GET', '/api/v1', 404, 'RouteNotFound'],
    ['GET', '/api/v1/blobs/', 404, 'RouteNotFound'],
    ['GET', '/api/v2/entries', 404, 'RouteNotFound'],
    ['POST', '/api/v1/entries', 405, 'MethodNotAllowed'],
    ['DELETE', '/query_exp', 405, 'MethodNotAllowed'],
    ['POST', '/api/v1/blobs/x/tags', 405, 'MethodNotAllowed'],
    ['DELETE', '/api/v1/blobs/x/content', 405, 'MethodNotAllowed'],
    ['POST', '/api/v1/tags/x', 405, 'MethodNotAllowed'],
    ['GET', '/api/login', 405, 'MethodNotAllowed'],
  ];
  for (const [method, path, status, code] of cases) {
    test(`${method} ${path} → ${status}`, async () => {
      const r = await req(method, path);
      assertError(r, status, code);
      if (status === 405) assert.ok(typeof r.headers.allow === 'string' && r.headers.allow.length > 0);
    });
  }
});

describe('413: bodies over max_in_buffer_size (4096 here)', () => {
  test('a declared Content-Length over the limit is refused before the body is sent', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const url = new URL(t.base);
      const socket = connect(Number(url.port), url.hostname, () => {
        // Headers only: the server must answer without waiting for the 1 MB it was promised.
        socket.write(`POST /api/v1/blobs/${fresh('big')} HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n`);
      });
      let text = '';
      socket.on('data', (d) => { text += d.toString(); if (text.includes('}')) { socket.destroy(); resolve(text); } });
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
    });
    assert.match(answer, /^HTTP\/1\.1 413 /);
    assert.match(answer, /"error":"BodyTooLarge"/);
  });
  test('a chunked body that passes the limit → 413, nothing stored', async () => {
    const a = fresh('chunked');
    const answer = await new Promise<string>((resolve, reject) => {
      const url = new URL(t.base);
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(`POST /api/v1/blobs/${a} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n`);
        const chunk = 'x'.repeat(3000);
        socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
        socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      });
      let text = '';
      socket.on('data', (d) => { text += d.toString(); if (text.includes('}')) { socket.destroy(); resolve(text); } });
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
    });
    assert.match(answer, /^HTTP\/1\.1 413 /);
    assertError(await req('GET', `/api/v1/blobs/${a}`), 404, 'AliasNotFound');
  });
  test('a body at the limit is accepted', async () => {
    const a = fresh('limit');
    assert.equal((await req('POST', `/api/v1/blobs/${a}`, 'y'.repeat(4096))).status, 201);
    assert.equal((await req('GET', `/api/v1/blobs/${a}`)).json().size, 4096);
    assertError(await req('POST', `/api/v1/blobs/${fresh('over')}`, 'y'.repeat(4097)), 413, 'BodyTooLarge');
  });
});

describe('bridge compression', () => {
  test('answers over 1 KiB are gzipped when accepted, small ones are not', async () => {
    const a = fresh('gz');
    await blob(a, 'z'.repeat(3000));
    const big = await request(t.base, 'GET', `/api/v1/blobs/${a}/content`, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(big.headers['content-encoding'], 'gzip');
    assert.ok(big.rawBody.length < 3000);
    assert.equal(big.text(), 'z'.repeat(3000));
    const small = await request(t.base, 'GET', `/api/v1/blobs/${a}`, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(small.headers['content-encoding'], undefined);
    const plain = await request(t.base, 'GET', `/api/v1/blobs/${a}/content`);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers['content-length'], '3000');
  });
});

describe('5xx', () => {
  test('a database that cannot serve → 503 with the message in the body', async () => {
    const other = await startTestServer();
    try {
      await other.server.db.close();
      const r = await request(other.base, 'POST', `/api/v1/blobs/${fresh('closed')}`, { body: 'x' });
      assertError(r, 503, 'DatabaseClosed');
    } finally {
      await other.stop();
    }
  });
});

describe('HEAD', () => {
  test('runs the GET route and sends its status and headers without a body', { timeout: 20_000 }, async () => {
    const a = fresh('head');
    await blob(a, 'twelve bytes');
    const url = new URL(t.base);
    const raw = (path: string): Promise<string> => new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write(`HEAD ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
      let text = '';
      // After the head, wait a moment: any body bytes a HEAD answer wrongly carried would arrive.
      socket.on('data', (d) => { text += d.toString(); if (text.includes('\r\n\r\n')) setTimeout(() => socket.destroy(), 150); });
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
    });
    const content = await raw(`/api/v1/blobs/${a}/content`);
    assert.match(content, /^HTTP\/1\.1 200 /);
    assert.match(content, /\r\nContent-Length: 12\r\n/);
    assert.ok(content.endsWith('\r\n\r\n'), 'a HEAD answer has no body');
    const missing = await raw(`/api/v1/blobs/${fresh('none')}`);
    assert.match(missing, /^HTTP\/1\.1 404 /);
    assert.ok(missing.endsWith('\r\n\r\n'));
    const query = await raw(`/query_exp?query=${encodeURIComponent("find(tag='x')")}`);
    assert.match(query, /^HTTP\/1\.1 200 /);
    assert.ok(query.endsWith('\r\n\r\n'));
    const wrong = await raw('/api/query');
    assert.match(wrong, /^HTTP\/1\.1 405 /);
    assert.ok(wrong.endsWith('\r\n\r\n'));
  });
  test('Allow lists HEAD beside GET', async () => {
    assert.equal((await req('POST', '/api/v1/entries')).headers.allow, 'GET, HEAD');
  });
});

describe('413 on every route, before anything changes', () => {
  const routes: { method: string; path: (a: string) => string }[] = [
    { method: 'PATCH', path: (a) => `/api/v1/entries/${a}?action=attachTag&tag=t413` },
    { method: 'PATCH', path: (a) => `/api/v1/blobs/${a}?action=setExpiry&expiry=0` },
    { method: 'DELETE', path: (a) => `/api/v1/entries/${a}` },
    { method: 'DELETE', path: (a) => `/api/v1/blobs/${a}` },
    { method: 'PUT', path: (a) => `/api/v1/blobs/${a}/content` },
    { method: 'GET', path: (a) => `/api/v1/blobs/${a}` },
  ];
  for (const r of routes) {
    test(`${r.method} ${r.path(':alias')} with a body over the limit → 413, unchanged`, async () => {
      const a = fresh('big413');
      await blob(a, 'kept');
      assertError(await req(r.method, r.path(a), 'b'.repeat(5000)), 413, 'BodyTooLarge');
      assert.equal((await req('GET', `/api/v1/blobs/${a}/content`)).text(), 'kept');
      assert.deepEqual((await req('GET', `/api/v1/entries/${a}/tags`)).json().aliases, []);
    });
  }
  test('a small body on a route that takes none is read and ignored', async () => {
    const a = fresh('smallbody');
    await blob(a);
    assert.equal((await req('DELETE', `/api/v1/entries/${a}`, 'ignored')).status, 200);
    assertError(await req('GET', `/api/v1/blobs/${a}`), 404, 'AliasNotFound');
  });
});
