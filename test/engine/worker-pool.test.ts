// The worker pool (engine/workers/): tasks of a loaded module run on the least busy worker and
// their buffers come back transferred; a task that throws fails its job alone (an SvcError keeps
// its code, anything else is WorkerFailed) and the worker goes on; a worker that dies fails the
// jobs it held with WorkerFailed and is replaced, also for workers that die one after the other;
// past a crash loop the pool refuses work (the callers then do it on the main thread); closed, it
// refuses too.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { WorkerPool } from '../../engine/workers/index.js';
import { isSvcError } from '../../engine/errors.js';
import { tempDir } from './helpers.js';

let tasks: URL;

before(async () => {
  const dir = await tempDir('svc-pool-');
  const file = join(dir, 'tasks.mjs');
  const errors = pathToFileURL(join(process.cwd(), 'dist/engine/errors.js')).href;
  await writeFile(file, `
    import { SvcError } from ${JSON.stringify(errors)};
    import { threadId } from 'node:worker_threads';
    export const workerTasks = {
      double(a) { for (let i = 0; i < a.length; i++) a[i] *= 2; return { value: { a, threadId }, transfer: [a.buffer] }; },
      fails() { throw new TypeError('not this'); },
      refuses() { throw new SvcError('QueryLimit', 'too many groups'); },
      dies() { process.exit(7); },
      waits(ms) { const t = Date.now(); while (Date.now() - t < ms); return { value: threadId }; },
    };`);
  tasks = pathToFileURL(file);
});

describe('worker pool', () => {
  let pool: WorkerPool;
  before(() => {
    pool = new WorkerPool(2);
    pool.load(tasks);
  });
  after(() => pool.close());

  it('runs a task and transfers its buffers both ways', async () => {
    const a = new Float64Array([1, 2.5, -3]);
    const out = await pool.run<{ a: Float64Array; threadId: number }>('double', a, [a.buffer as ArrayBuffer]);
    assert.equal(a.length, 0, 'the input was moved, not copied');
    assert.deepEqual([...out.a], [2, 5, -6]);
    assert.ok(pool.threadIds.includes(out.threadId));
  });

  it('sends each job to the least busy worker', async () => {
    const ids = await Promise.all([pool.run<number>('waits', 50), pool.run<number>('waits', 50)]);
    assert.notEqual(ids[0], ids[1]);
  });

  it('fails a job whose task throws, keeping an SvcError\'s code, and the worker goes on', async () => {
    const before = pool.threadIds;
    await assert.rejects(pool.run('fails'), (e) => isSvcError(e) && e.code === 'WorkerFailed' && /TypeError: not this/.test(e.message));
    await assert.rejects(pool.run('refuses'), (e) => isSvcError(e) && e.code === 'QueryLimit' && e.message === 'too many groups');
    assert.deepEqual(pool.threadIds, before);
    assert.equal(pool.figures.restarts, 0);
  });

  it('fails the jobs of a worker that dies and replaces it', async () => {
    const before = pool.threadIds;
    await assert.rejects(pool.run('dies'), (e) => isSvcError(e) && e.code === 'WorkerFailed' && /exit code 7/.test(e.message));
    assert.equal(pool.figures.restarts, 1);
    assert.notDeepEqual(pool.threadIds, before);
    const a = new Float64Array([4]);
    assert.deepEqual([...(await pool.run<{ a: Float64Array }>('double', a)).a], [8]);
  });
});

describe('worker pool in a crash loop', () => {
  it('stops replacing after eight deaths in ten seconds and refuses work meanwhile; closed, it refuses', async () => {
    const messages: string[] = [];
    const pool = new WorkerPool(1, (m) => messages.push(m));
    pool.load(tasks);
    try {
      for (let i = 0; i < 8; i++) await assert.rejects(pool.run('dies'), (e) => isSvcError(e) && e.code === 'WorkerFailed');
      assert.equal(pool.isAvailable, false);
      assert.ok(messages.some((m) => /not replacing them/.test(m)), messages.join('\n'));
      await assert.rejects(pool.run('waits', 1), (e) => isSvcError(e) && e.code === 'WorkerFailed' && /replacing workers/.test(e.message));
    } finally {
      await pool.close();
    }
    await assert.rejects(pool.run('waits', 1), (e) => isSvcError(e) && e.code === 'WorkerFailed' && /closed/.test(e.message));
  });
});
