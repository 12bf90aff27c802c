// Materialized views on a cluster (SPEC §15, §12): 3 nats-servers + 3 svc_rest nodes play the
// views workload (test/engine/view-workload.ts), each statement through another node; after each
// round, on every node, once its views say they are up to date, every view holds exactly what its
// SELECT answers over that node's source — and the nodes' views hold the same rows. In between,
// an svc node and then the NATS leader of the source's group are SIGKILLed and restarted: the
// restarted node's views come from its checkpoint and the log, and end equal too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { groupOf } from '../../engine/cluster/table-groups.js';
import { compare, CREATE_SOURCE, createView, roundSteps, SOURCE, sourceQuery, viewQuery, VIEWS } from '../engine/view-workload.js';
import type { Row, ViewCase } from '../engine/view-workload.js';
import { missingNatsServer, NatsCluster } from './nats-cluster.js';
import { SvcNode } from './svc-nodes.js';

const missing = missingNatsServer();
const ROUNDS = 6;

interface ExpTable {
  readonly results: [{ tv_sec: number; tv_nsec: number }, ...unknown[]][];
}

/** The rows of a query_exp answer's first table, as the workload compares them. */
async function rowsOn(node: SvcNode, query: string): Promise<Row[]> {
  const r = await node.request('POST', '/query_exp', { query, date_format: 'native' });
  assert.equal(r.status, 200, `${node.id}: ${query} → ${JSON.stringify(r.body).slice(0, 300)}`);
  const t = (r.body as { tables: ExpTable[] }).tables[0];
  if (t === undefined) return [];
  return t.results.map(([time, ...values]) => [(BigInt(time.tv_sec) * 1_000_000_000n + BigInt(time.tv_nsec)).toString(), values as (number | string | boolean | null)[]]);
}

/** Waits until SHOW says each view is up to date on `node` (its query route reads after the node caught up with the log). */
async function viewsUpToDate(node: SvcNode, views: readonly ViewCase[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (const v of views) {
    for (;;) {
      const show = await node.query(`SHOW ${v.name}`);
      const names = show.tables[0].columns[0].data;
      const refresh = show.tables[0].columns[1].data[names.indexOf('$refresh')];
      if (refresh === 'up to date') break;
      assert.ok(Date.now() < deadline, `${node.id}: view ${v.name} still says '${String(refresh)}' after 60 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** The first INSERT of another seed's round: rows written while a node or a NATS server is down. */
function firstInsert(seed: number, round: number): string {
  return roundSteps(seed, round).find((s) => s.startsWith('INSERT'))!;
}

describe('materialized views on a cluster: 3 nats-servers + 3 svc nodes', { skip: missing ?? false }, () => {
  let nats: NatsCluster;
  const nodes: SvcNode[] = [];

  before(async () => {
    nats = await NatsCluster.start();
    // Two table groups; a checkpoint once 64 KiB were applied, so restarts load views from one.
    for (const id of ['svc1', 'svc2', 'svc3']) nodes.push(await SvcNode.start(id, `${nats.url}?groups=2&checkpoint=65536`));
    for (const n of nodes) await n.ready();
  });

  after(async () => {
    for (const n of nodes) await n.stop();
    await nats?.stop();
  });

  it('every node keeps every view equal to its SELECT, through an svc node and a NATS leader killed', async (t) => {
    const seed = Math.floor(Math.random() * 1e6);
    t.diagnostic(`seed ${seed}`);
    await nodes[0].query(CREATE_SOURCE);
    let turn = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const v of VIEWS.filter((x) => x.round === round)) await nodes[turn++ % 3].query(createView(v));
      for (const step of roundSteps(seed, round)) await nodes[turn++ % 3].query(step);
      if (round === 1) {
        t.diagnostic('killing svc3');
        await nodes[2].kill();
        await nodes[0].query(firstInsert(seed + 1, round));
        await nodes[2].restart();
        await nodes[2].ready();
      }
      if (round === 3) {
        const leader = await nats.leaderOf(`svc_g${groupOf(SOURCE, 2)}`);
        t.diagnostic(`killing NATS ${nats.name(leader)}, leader of the source's group`);
        await nats.kill(leader);
        await nodes[1].query(firstInsert(seed + 2, round));
        await nats.restart(leader);
      }
      const due = VIEWS.filter((x) => x.round <= round);
      const first: Row[][] = [];
      for (const [i, node] of nodes.entries()) {
        await viewsUpToDate(node, due);
        for (const [k, v] of due.entries()) {
          const inView = await rowsOn(node, viewQuery(v));
          const problems = compare(v, inView, await rowsOn(node, sourceQuery(v)));
          assert.deepEqual(problems.slice(0, 10), [], `${node.id}, seed ${seed}, after round ${round}`);
          if (i === 0) first.push(inView);
          else assert.deepEqual(compare(v, inView, first[k]).slice(0, 10), [], `${node.id} and ${nodes[0].id} differ, seed ${seed}, after round ${round}`);
        }
      }
    }
  });
});
