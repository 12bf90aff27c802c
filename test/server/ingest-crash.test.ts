// Crash test of line-protocol writes: `svc_rest --durability fsync` runs as a child while a few
// clients POST /write requests (each of several lines, some adding a column or a table on first
// sight, so schema changes are in flight too) and the server is SIGKILLed at a random moment,
// again and again on the same data directory. After each restart every line of every request
// answered 204 is there exactly once; a request whose answer never came is there whole or not
// at all; nothing is there that was never sent — with small requests parsed on the main thread,
// and with large ones parsed in worker threads. CRASH_SEED=<n> replays the choices.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { prng, randInt, tempDir } from '../engine/helpers.js';
import { keepAliveAgent, killServer, send, spawnServer } from './server-process.js';

const ROUNDS = 6;
const WRITERS = 4;

/**
 * The server's options and its requests' sizes: small requests parsed on the main thread, and
 * requests over the 64 KiB past which a server with worker threads parses them there (their
 * columns then cross to the main thread, which applies them).
 */
interface Variant {
  readonly name: string;
  readonly args: readonly string[];
  readonly minLines: number;
  readonly maxLines: number;
  /** Lines of request `b` have ids b * stride + k. */
  readonly stride: number;
  readonly isParsedInWorkers: boolean;
}

const VARIANTS: readonly Variant[] = [
  { name: 'parsed on the main thread', args: ['--parallelism-count', '1'], minLines: 1, maxLines: 31, stride: 100, isParsedInWorkers: false },
  { name: 'parsed in worker threads', args: ['--parallelism-count', '2'], minLines: 900, maxLines: 1400, stride: 2000, isParsedInWorkers: true },
];

function linesOf(v: Variant, b: number): number {
  return v.minLines + Math.floor(prng(b * 17 + 3)() * (v.maxLines - v.minLines));
}

/** Request b: its lines into `lp_crash` (every 7th also into a table of its own), some fields new. */
function requestBody(v: Variant, b: number): string {
  const lines: string[] = [];
  for (let k = 0; k < linesOf(v, b); k++) {
    const id = b * v.stride + k;
    // A field named after b % 13 appears on first sight: columns are added while writes go on.
    lines.push(`lp_crash,writer=w${b % WRITERS} id=${id}i,v=${id / 4},f${b % 13}=${k % 2 === 0 ? 't' : 'f'} ${1_700_000_000_000_000_000n + BigInt(id) * 1_000_000n}`);
  }
  if (b % 7 === 0) lines.push(`lp_crash_side_${b % 3} id=${b * v.stride}i ${b}`);
  return `${lines.join('\n')}\n`;
}

/** Jobs the server's worker threads ran (GET /metrics). */
async function workerJobs(base: string): Promise<number> {
  const r = await send(false, base, 'GET', '/metrics');
  return Number(/^svc_worker_jobs_total (\d+)/m.exec(r.text())?.[1] ?? 0);
}

async function idsIn(base: string, token: string, table: string): Promise<number[]> {
  const r = await send(false, base, 'POST', '/api/query', { body: JSON.stringify({ query: `SELECT id FROM "${table}"` }), headers: { authorization: `Bearer ${token}` } });
  if (r.status === 400 && /no table/.test(r.text())) return [];
  assert.equal(r.status, 200, r.text());
  return (r.json().tables[0]?.columns[0].data ?? []) as number[];
}

async function login(base: string): Promise<string> {
  const r = await send(false, base, 'POST', '/api/login', { body: '{}' });
  assert.equal(r.status, 200, r.text());
  return r.json().token as string;
}

for (const v of VARIANTS) describe(`line-protocol writes under SIGKILL, ${v.name}`, () => {
  it(`every 204-answered line survives, exactly once; unanswered requests whole or absent (${ROUNDS} kills)`, async () => {
    const STRIDE = v.stride;
    let jobs = 0;
    const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const rand = prng(seed);
    const dataDir = await tempDir('svc-lp-crash-');
    const acked = new Set<number>();
    const open = new Set<number>();
    let next = 0;
    try {
      for (let round = 0; round <= ROUNDS; round++) {
        const server = await spawnServer(dataDir, ['--durability', 'fsync', '--log-file', `${dataDir}.log`, ...v.args]);
        try {
          const token = await login(server.base);
          // Check what the previous rounds left.
          const ids = await idsIn(server.base, token, 'lp_crash');
          const count = new Map<number, number>();
          for (const id of ids) count.set(id, (count.get(id) ?? 0) + 1);
          for (const [id, n] of count) assert.equal(n, 1, `seed ${seed}: line ${id} is there ${n} times`);
          const present = new Set([...count.keys()].map((id) => Math.floor(id / STRIDE)));
          // A request writing two tables is one unit: its side-table line is there iff its lines are.
          const side = new Set<number>();
          for (let t = 0; t < 3; t++) for (const id of await idsIn(server.base, token, `lp_crash_side_${t}`)) side.add(id / STRIDE);
          for (const b of present) if (b % 7 === 0) assert.ok(side.has(b), `seed ${seed}: request ${b} lost its side-table line`);
          for (const b of side) assert.ok(present.has(b), `seed ${seed}: request ${b} left only its side-table line`);
          for (const b of acked) {
            for (let k = 0; k < linesOf(v, b); k++) assert.ok(count.has(b * STRIDE + k), `seed ${seed}: acknowledged line ${b * STRIDE + k} (request ${b}) is missing`);
          }
          for (const b of present) {
            assert.ok(acked.has(b) || open.has(b), `seed ${seed}: request ${b} was never sent`);
            for (let k = 0; k < linesOf(v, b); k++) assert.ok(count.has(b * STRIDE + k), `seed ${seed}: request ${b} is there in part (line ${k} missing)`);
          }
          for (const b of open) if (present.has(b)) acked.add(b);
          open.clear();
          if (round === ROUNDS) break;
          // Write until the kill.
          const agent = keepAliveAgent(WRITERS);
          let isKilled = false;
          const writer = async () => {
            while (!isKilled) {
              const b = next++;
              open.add(b);
              try {
                const r = await send(agent, server.base, 'POST', '/write', { body: requestBody(v, b), timeoutMs: 10_000 });
                if (r.status !== 204) throw new Error(`seed ${seed}: request ${b} → ${r.status} ${r.text()}`);
                open.delete(b);
                acked.add(b);
              } catch (e) {
                if (!isKilled) throw e;
                return;
              }
            }
          };
          const writers = Array.from({ length: WRITERS }, writer);
          await new Promise((resolve) => setTimeout(resolve, randInt(rand, 100, 600)));
          jobs += await workerJobs(server.base);
          isKilled = true;
          await killServer(server);
          await Promise.all(writers);
          agent.destroy();
        } finally {
          await killServer(server);
        }
      }
      assert.ok(acked.size > ROUNDS * 5, `seed ${seed}: only ${acked.size} requests were acknowledged`);
      // The variant ran where it says: worker threads parsed the large bodies, none the small ones.
      if (v.isParsedInWorkers) assert.ok(jobs > ROUNDS, `seed ${seed}: the worker threads ran ${jobs} jobs`);
      else assert.equal(jobs, 0);
    } catch (e) {
      (e as Error).message += ` (CRASH_SEED=${seed})`;
      throw e;
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      await rm(`${dataDir}.log`, { force: true });
    }
  });
});
