// The start-up steps of a cluster node (engine/cluster/start-steps.ts): a step is asked again
// until it answers, a step that takes long says so in the log while it waits — also one whose
// attempt hangs, which no error would reveal (a restarted node once printed no ready line within
// 60 s and left no trace of why) — and the summary names each step with its time.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StartSteps } from '../../engine/cluster/start-steps.js';

describe('cluster start-up steps', () => {
  it('asks a failing step again until it answers, and the summary names each step', async () => {
    const lines: string[] = [];
    const steps = new StartSteps((m) => lines.push(m), 1_000);
    let attempts = 0;
    const value = await steps.run('config', async () => {
      if (++attempts < 3) throw new Error('no responders');
      return 42;
    });
    assert.equal(value, 42);
    assert.equal(attempts, 3);
    assert.match(steps.summary(), /^joined the cluster in \d+ ms \(ms per step: config \d+\)$/);
  });

  it('a step that hangs is said in the log while it waits, with the last error seen', async () => {
    const lines: string[] = [];
    const steps = new StartSteps((m) => lines.push(m), 50);
    let attempts = 0;
    await steps.run('checkpoint', async () => {
      if (++attempts === 1) throw new Error('timeout');
      await new Promise((r) => setTimeout(r, 300));
    });
    assert.ok(lines.length >= 2, lines.join('\n'));
    assert.match(lines.at(-1)!, /^start: checkpoint: no answer after \d+ ms \(last error: timeout\); asking for up to 60000 ms$/);
  });

  it('a step with no time to retry fails with its own error at once', async () => {
    const steps = new StartSteps(undefined, 50);
    await assert.rejects(steps.run('versions', async () => { throw new Error('nats-server 2.9.10 is too old'); }, 0), /2\.9\.10 is too old/);
  });
});
