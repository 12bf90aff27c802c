// The error boundary: a bug becomes a 500 whose message reveals nothing, logged once with its
// stack; every engine error code has a status; a client that goes away mid-answer leaves the
// server serving.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, test } from 'node:test';
import { ERROR_CODES } from '../../engine/index.js';
import { HTTP_ERROR_CODES, STATUS_OF, errorReply, HttpError } from '../../server/errors.js';
import { SvcError } from '../../engine/index.js';
import type { QuerySignal } from '../../engine/index.js';
import { assertError, request, startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';

let t: TestServer;
before(async () => { t = await startTestServer(); });
after(async () => { await t.stop(); });

test('every engine and HTTP error code maps to a 4xx or 5xx status', () => {
  for (const code of [...ERROR_CODES, ...HTTP_ERROR_CODES]) {
    const status = STATUS_OF[code];
    assert.ok(status >= 400 && status < 600, code);
  }
  assert.deepEqual(JSON.parse(errorReply(new SvcError('QuerySyntax', 'bad', { position: 3 })).body), { code: 400, error: 'QuerySyntax', message: 'bad', position: 3 });
  assert.deepEqual(errorReply(new HttpError('MethodNotAllowed', 'no', { Allow: 'GET' })).headers, { Allow: 'GET' });
});

test('an unexpected exception → 500 without internals, its stack logged once to stderr', async () => {
  const db = t.server.db;
  const original = db.describeBlob.bind(db);
  const written: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  db.describeBlob = () => { throw new TypeError('secret internal detail'); };
  process.stderr.write = ((chunk: string | Uint8Array) => { written.push(String(chunk)); return true; }) as typeof process.stderr.write;
  let r;
  try {
    r = await request(t.base, 'GET', '/api/v1/blobs/anything');
  } finally {
    process.stderr.write = write;
    db.describeBlob = original;
  }
  assertError(r, 500, 'InternalError');
  assert.ok(!r.text().includes('secret internal detail'));
  const logged = written.filter((l) => l.includes('secret internal detail'));
  assert.equal(logged.length, 1);
  assert.match(logged[0]!, /TypeError: secret internal detail\\n\s+at /);
  assert.equal((await request(t.base, 'GET', '/api/status/liveness')).status, 200);
});

test('a client that disconnects in the middle of a large streamed answer leaves the server serving', async () => {
  const db = t.server.db;
  await db.createTable('err.big', [{ name: 'v', type: 'DOUBLE' }]);
  const n = 200_000;
  const ts = new BigInt64Array(n);
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) { ts[i] = BigInt(i) * 1_000_000_000n; v[i] = i / 3; }
  await db.insert('err.big', { $timestamp: ts, v });
  const url = new URL(t.base);
  for (const encoding of ['identity', 'gzip']) {
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: `/query_exp?query=${encodeURIComponent('SELECT v FROM err.big')}`, headers: { 'Accept-Encoding': encoding }, agent: false }, (res) => {
        res.once('data', () => { req.destroy(); resolve(); });
        res.on('error', () => undefined);
      });
      req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(e)));
      req.end();
    });
  }
  assert.equal((await request(t.base, 'GET', '/api/status/liveness')).status, 200);
  const r = await request(t.base, 'GET', `/query_exp?query=${encodeURIComponent('SELECT count(v) FROM err.big')}`);
  assert.equal(r.json().tables[0].results[0][1], n);
});

test('a client that disconnects while its query runs aborts the query\'s signal', { timeout: 10_000 }, async () => {
  const db = t.server.db;
  const original = db.query.bind(db);
  let seen: QuerySignal | undefined;
  const aborted = new Promise<void>((resolve) => {
    db.query = ((text: string, options: { signal?: QuerySignal } = {}) => {
      seen = options.signal;
      // Stands in for a long query: it polls its signal, as the engine does between slices.
      return new Promise((resolveQuery, reject) => {
        const poll = setInterval(() => {
          if (options.signal?.aborted !== true) return;
          clearInterval(poll);
          resolve();
          reject(new SvcError('QueryCancelled', 'cancelled'));
        }, 5);
      });
    }) as typeof db.query;
  });
  try {
    const url = new URL(t.base);
    const req = httpRequest({ host: url.hostname, port: url.port, path: `/query_exp?query=${encodeURIComponent('SELECT * FROM slow')}`, agent: false });
    req.on('error', () => undefined);
    req.end();
    while (seen === undefined) await new Promise((r) => setTimeout(r, 10));
    assert.equal(seen.aborted, false);
    req.destroy();
    await aborted;
    assert.equal(seen.aborted, true);
  } finally {
    db.query = original;
  }
  assert.equal((await request(t.base, 'GET', '/api/status/liveness')).status, 200);
});

test('a client that disconnects in the middle of its body leaves nothing in flight (close does not hang)', { timeout: 20_000 }, async () => {
  const other = await startTestServer();
  const url = new URL(other.base);
  const { connect } = await import('node:net');
  await new Promise<void>((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write('POST /api/v1/blobs/half HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly part of it');
      setTimeout(() => { socket.destroy(); resolve(); }, 100);
    });
  });
  await other.stop();
});
