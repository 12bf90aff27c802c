// An export of any size holds a chunk at a time (issue 29's "done when"): 20 M rows exported as
// Parquet by an engine with a 256 MiB budget, in a child process whose RSS is sampled from /proc,
// stays within the budget + 400 MiB (SPEC §10's fixed overhead, with margin), and the file says
// it holds every row.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { childRunner } from '../child-rss.js';
import { tempDir } from '../helpers.js';

const runChild = childRunner(fileURLToPath(new URL('./export-child.js', import.meta.url)));
const MIB = 1024 * 1024;
const BUDGET = 256 * MIB;
const OVERHEAD = 400 * MIB;
const ROWS = 20_000_000;

describe('export under a memory budget', () => {
  it(`exports ${ROWS} rows as Parquet with RSS under the budget + 400 MiB`, async () => {
    const dir = await tempDir('svc-export-rss-');
    try {
      const run = await runChild([dir, String(ROWS), String(BUDGET), 'parquet'], 240_000);
      assert.equal(run.signal, null, run.stderr);
      const result = JSON.parse(run.lines.at(-1)!);
      assert.equal(result.rows, ROWS);
      // 24 bytes of values a row are more than the budget: the export read evicted batches back.
      assert.ok(ROWS * 24 > BUDGET && result.memory.readBacks > 0, JSON.stringify(result.memory));
      assert.ok(run.maxRss <= BUDGET + OVERHEAD, `peak RSS ${(run.maxRss / MIB).toFixed(0)} MiB over ${(BUDGET + OVERHEAD) / MIB} MiB`);
      process.stderr.write(`export-rss: ${ROWS} rows, ${(result.bytes / MIB).toFixed(0)} MiB of Parquet, peak RSS ${(run.maxRss / MIB).toFixed(0)} MiB\n`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
