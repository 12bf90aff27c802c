// Group commit across HTTP write requests (SPEC §9, issue 30): requests that arrive while the
// WAL's fdatasync runs wait for the next one, and that one fdatasync acknowledges every one of
// them — on a slow disk (each fdatasync made to take 40 ms here) a burst of concurrent line-
// protocol requests costs a few fdatasyncs, not one each; every request is answered only once
// its rows are durable, and all its rows are there.
import assert from 'node:assert/strict';
import { promisify } from 'node:util';
import { fdatasync } from 'node:fs';
import { after, afterEach, describe, test } from 'node:test';
import { walIo } from '../../engine/durability/wal/wal-writer.js';
import { request, startTestServer } from './helpers.js';
import type { TestServer } from './helpers.js';

const real = { ...walIo };
afterEach(() => Object.assign(walIo, real));

let t: TestServer | null = null;
after(async () => { await t?.stop(); });

/** A request body of `lines` points of table `table`, distinct times. */
function body(table: string, request: number, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`${table},host=h${i % 7} v=${i}.5,n=${request}i ${1_700_000_000_000_000_000n + BigInt(request * lines + i) * 1_000_000n}`);
  return out.join('\n');
}

describe('group commit across HTTP write requests', () => {
  test('a burst of concurrent requests shares fdatasyncs, each answered once durable', async () => {
    t = await startTestServer({ durability: 'fsync' });
    const db = t.server.db;
    let completed = 0;
    let acknowledgedEarly = 0;
    const sync = promisify(fdatasync);
    walIo.fdatasync = async (fd: number) => {
      await new Promise((r) => setTimeout(r, 40));
      await sync(fd);
      completed += 1;
    };
    const before = db.figures().walFsyncs;
    const REQUESTS = 16;
    const LINES = 500;
    const answers = await Promise.all(Array.from({ length: REQUESTS }, async (_, k) => {
      const r = await request(t!.base, 'POST', '/write?precision=ns', { body: body('burst', k, LINES) });
      if (completed === 0) acknowledgedEarly++;
      return r.status;
    }));
    assert.deepEqual(answers, new Array(REQUESTS).fill(204));
    assert.equal(acknowledgedEarly, 0, 'a request was answered before any fdatasync returned');
    const syncs = db.figures().walFsyncs - before;
    assert.ok(syncs >= 1 && syncs <= 3, `${syncs} fdatasyncs for ${REQUESTS} concurrent requests`);
    const count = await db.query('SELECT count(v), sum(n) FROM burst');
    assert.equal(count.tables[0].columns[0].values[0], BigInt(REQUESTS * LINES));
    assert.equal(count.tables[0].columns[1].values[0], BigInt(LINES * (REQUESTS * (REQUESTS - 1)) / 2));
  });
});
