// The checkpoints folder's layout (engine/durability/checkpoint/checkpoint-folder.ts): every name
// it makes is one its own rules recognise — owned by the checkpoint code, a data file or not, the
// checkpoint that wrote it — and a folder's listing finds the manifests and what one checkpoint
// is made of (what a cluster node uploads), leaving foreign files alone.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  blobFileName, checkpointFiles, checkpointName, entriesFileName, FORMAT_MARKER, isDataFile, isEarlierLayout, isOwned,
  isTableFile, listManifests, manifestName, tableFileName, writeFormatMarker, writerOf,
} from '../../engine/durability/checkpoint/checkpoint-folder.js';
import { tempDir } from './helpers.js';

const SEQ = 1_700_000_123;

describe('the checkpoints folder', () => {
  it('names each file after its checkpoint, and recognises every name it makes', () => {
    const data = [tableFileName(SEQ, 0), tableFileName(SEQ, 11), blobFileName(SEQ, 2), entriesFileName(SEQ, 0)];
    assert.deepEqual(data, ['001700000123-0.cols', '001700000123-11.cols', '001700000123-b2.bin', '001700000123-e0.bin']);
    // Tables' files of formats 2–5 (Arrow IPC) are still recognised: they open, and are rewritten.
    const older = '001700000123-3.arrows';
    assert.ok(isDataFile(older) && isOwned(older) && isTableFile(older));
    for (const name of data) {
      assert.ok(isDataFile(name) && isOwned(name) && isOwned(`${name}.tmp`), name);
      assert.equal(writerOf(name), checkpointName(SEQ));
    }
    assert.deepEqual(data.map(isTableFile), [true, true, false, false]);
    const manifest = manifestName(SEQ);
    assert.equal(manifest, '001700000123.manifest');
    assert.ok(isOwned(manifest) && isOwned(`${manifest}.tmp`) && !isDataFile(manifest));
    for (const foreign of [FORMAT_MARKER, 'LOCK', 'notes.txt', '1-0.arrows', '1-0.cols', '001700000123']) assert.ok(!isOwned(foreign) && !isDataFile(foreign), foreign);
    assert.ok(isEarlierLayout('001700000123') && !isEarlierLayout(manifest));
    // Checkpoint names sort as their numbers, so the newest writer is the greatest name.
    assert.ok(writerOf(tableFileName(99, 0)) < writerOf(tableFileName(100, 0)));
  });

  it('lists complete manifests in order, and the files that make up one checkpoint', async () => {
    const dir = await tempDir('svc-checkpoint-folder-');
    for (const name of [manifestName(20), manifestName(3), `${manifestName(40)}.tmp`, tableFileName(3, 0), 'notes.txt']) await writeFile(join(dir, name), 'x');
    assert.deepEqual(await listManifests(dir), [3, 20]);
    const dataFiles = [tableFileName(3, 0), blobFileName(20, 0)];
    assert.deepEqual(await checkpointFiles(dir, 20, dataFiles), [manifestName(20), ...dataFiles]);
    await writeFormatMarker(dir);
    assert.deepEqual(await checkpointFiles(dir, 20, dataFiles), [manifestName(20), FORMAT_MARKER, ...dataFiles]);
    assert.deepEqual(await listManifests(join(dir, 'missing')), []);
  });
});
