// A data directory written by an earlier checkpoint format (test/fixtures/checkpoint-v5, made by
// checkpoint-fixture.ts) opens and answers exactly what the svc that wrote it answered (its
// checkpoints plus the WAL tail after them); the next checkpoint rewrites it in the current
// format, and the database answers the same again, before and after a reopen.
import assert from 'node:assert/strict';
import { cp, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Database } from '../../engine/database.js';
import { checkpointsDir, listManifests } from '../../engine/durability/checkpoint/checkpoint-folder.js';
import { readManifest } from '../../engine/durability/checkpoint/manifest.js';
import { BATCH_ROWS, canonical, expectedSensorRows, FIXTURE_DIR, fixtureAnswers } from './checkpoint-fixture.js';
import { readRows, tempDir } from './helpers.js';

async function recorded(): Promise<unknown> {
  return JSON.parse(await readFile(join(FIXTURE_DIR, '..', 'checkpoint-v5-answers.json'), 'utf8'));
}

async function newestManifest(dir: string) {
  const seq = (await listManifests(checkpointsDir(dir))).at(-1)!;
  return readManifest(checkpointsDir(dir), seq, (p) => new Error(`damaged ${p}`));
}

function open(dir: string): Promise<Database> {
  return Database.open({ dataDir: dir, batchRows: BATCH_ROWS, sweepIntervalMs: 0 });
}

describe('a data directory of checkpoint format 5', () => {
  it('opens with the same answers, and is rewritten in the current format with the same answers', async () => {
    const dir = await tempDir('svc-fixture-');
    await cp(FIXTURE_DIR, dir, { recursive: true });
    assert.equal((await newestManifest(dir)).version, 5);
    const expected = await recorded() as { bits: { v: string[] } };
    // The NaN with a payload, -0 and a subnormal are stored as their bits.
    for (const bits of ['7ff80000deadbeef', '8000000000000000', '1']) assert.ok(expected.bits.v.includes(bits), bits);

    const db = await open(dir);
    assert.deepEqual(canonical(readRows(db, 'fx.sensors')), canonical(expectedSensorRows()));
    assert.deepEqual(await fixtureAnswers(db), expected);
    await db.checkpoint();
    // Every batch is now in a column file, the Arrow files of format 5 are gone.
    const manifest = await newestManifest(dir);
    assert.equal(manifest.version, 6);
    for (const t of manifest.tables) for (const b of t.batches) assert.ok(b.columns !== undefined && b.place === undefined, `${t.name} batch in ${b.file}`);
    assert.deepEqual((await readdir(checkpointsDir(dir))).filter((n) => n.endsWith('.arrows')), []);
    assert.deepEqual(await fixtureAnswers(db), expected);
    await db.close();

    const reopened = await open(dir);
    assert.deepEqual(await fixtureAnswers(reopened), expected);
    await reopened.close();
  });
});
