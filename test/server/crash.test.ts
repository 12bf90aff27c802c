// Crash test over HTTP: `svc_rest --durability fsync` runs as a child process while a few
// concurrent clients create blobs (POST), replace their content (PUT …/content), attach and detach
// tags (PATCH) and insert rows (INSERT through POST /api/query with a token); the server is
// SIGKILLed at a random moment, over and over on the same data directory. After each restart the
// test reads everything back over HTTP and checks: every write answered with a 2xx (or a 304) is
// there; nothing is there that was never written; no row appears twice and an INSERT is all or
// nothing; a write whose answer never came is either absent or there whole. Some start-ups are
// killed too, mid-recovery, before anything is read. Writes to one alias are sent one at a time
// (the order of two in-flight writes to one alias is not defined), so at the kill each alias has
// at most one write whose fate is open: its state after the restart is either the acknowledged
// one or that plus the open write. The seed is printed on failure;
// CRASH_SEED=<n> replays the choices (not the kill moments' effects, which depend on timing).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type http from 'node:http';
import { describe, it } from 'node:test';
import { prng, randInt, tempDir } from '../engine/helpers.js';
import type { Rng } from '../prng.js';
import { aliasPath, allPages, CLI, keepAliveAgent, killServer, send, spawnServer } from './server-process.js';
import type { ServerProcess } from './server-process.js';

const ROUNDS = 20;
const TABLE = 'crash_rows';
const TAGS = ['t/0', 't/1', 't/2', 't/3'];
/** Rows of INSERT `b` have ids b * ROW_STRIDE + k, so an id names its statement. */
const ROW_STRIDE = 100;
/** New blobs stop being created past this many, so reading them all back stays cheap. */
const MAX_BLOBS = 250;

function blobAlias(id: number): string {
  return `b/${id}`;
}

/** Content of version `version` of blob `id`: unique per (id, version), sometimes tiny. */
function blobFor(id: number, version: number): Buffer {
  const rand = prng(id * 7919 + version * 104729 + 1);
  const head = Buffer.from(`blob ${id} v${version}\n`);
  const size = rand() < 0.2 ? 0 : Math.floor(rand() * 4000);
  const tail = Buffer.alloc(size);
  for (let i = 0; i < size; i++) tail[i] = Math.floor(rand() * 256);
  return Buffer.concat([head, tail]);
}

/** Number of rows of INSERT statement `batch` (1..40). */
function rowsOf(batch: number): number {
  return 1 + Math.floor(prng(batch * 31 + 7)() * 40);
}

function rowV(id: number): number {
  return id * 0.5 - 3;
}

function rowS(id: number): string {
  return `r${id}'x`;
}

function insertText(batch: number): string {
  const values: string[] = [];
  for (let k = 0; k < rowsOf(batch); k++) {
    const id = batch * ROW_STRIDE + k;
    const ts = new Date(Date.UTC(2020, 0, 1) + id).toISOString().slice(0, 23);
    values.push(`(${ts}, ${id}, ${rowV(id)}, '${rowS(id).replaceAll("'", "''")}')`);
  }
  return `INSERT INTO ${TABLE} ($timestamp, id, v, s) VALUES ${values.join(', ')}`;
}

interface BlobState {
  readonly version: number;
  readonly tags: ReadonlySet<string>;
}

type Op =
  | { readonly kind: 'create' }
  | { readonly kind: 'put'; readonly version: number }
  | { readonly kind: 'attach' | 'detach'; readonly tag: string };

function applyOp(state: BlobState | undefined, op: Op): BlobState | undefined {
  switch (op.kind) {
    case 'create': return { version: 0, tags: new Set() };
    case 'put': return state === undefined ? undefined : { version: op.version, tags: state.tags };
    case 'attach': return state === undefined ? undefined : { version: state.version, tags: new Set([...state.tags, op.tag]) };
    case 'detach': return state === undefined ? undefined : { version: state.version, tags: new Set([...state.tags].filter((t) => t !== op.tag)) };
  }
}

function sameState(a: BlobState | undefined, b: BlobState | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.version === b.version && a.tags.size === b.tags.size && [...a.tags].every((t) => b.tags.has(t));
}

function show(s: BlobState | undefined): string {
  return s === undefined ? 'absent' : `v${s.version} tags [${[...s.tags].sort().join(',')}]`;
}

/** What the data directory holds: exact after each verification, then advanced by every acknowledged write. */
interface Model {
  readonly blobs: Map<string, BlobState>;
  /** The write of each alias whose answer has not come (at most one per alias). */
  readonly open: Map<string, Op>;
  /** Tag entries known to exist (attaching creates a tag; detaching never removes it). */
  readonly tagEntries: Set<string>;
  /** Tags named by any attach ever sent. */
  readonly tagsTried: Set<string>;
  readonly batchesPresent: Set<number>;
  readonly batchesAbsent: Set<number>;
  /** INSERTs sent since the last verification, and those of them answered. */
  readonly batchesSent: Set<number>;
  readonly batchesAcked: Set<number>;
  isTableCreated: boolean;
  nextBlob: number;
  nextBatch: number;
  acked: number;
}

class Client {
  constructor(readonly agent: http.Agent, readonly base: string, readonly token: string) {}

  send(method: string, path: string, body?: string | Uint8Array, headers: Record<string, string> = {}) {
    return send(this.agent, this.base, method, path, { body, headers });
  }

  async query(text: string) {
    return this.send('POST', '/api/query', JSON.stringify({ query: text }), { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' });
  }
}

async function login(agent: http.Agent, base: string): Promise<string> {
  const reply = await send(agent, base, 'POST', '/api/login', { body: JSON.stringify({ username: '', secret_key: '' }), headers: { 'content-type': 'application/json' } });
  assert.equal(reply.status, 200, `login: ${reply.text()}`);
  const token = reply.json().token;
  assert.equal(typeof token, 'string');
  return token as string;
}

/** Reads everything back over HTTP and checks it against the model; then the model is what was read. */
async function verify(c: Client, m: Model): Promise<void> {
  // ---- blobs and tags --------------------------------------------------------------------
  const present = new Set(await allPages(c.agent, c.base, '/api/v1/entries?prefix=b%2F&limit=1000'));
  const tagsPresent = new Set(await allPages(c.agent, c.base, '/api/v1/entries?prefix=t%2F&limit=1000'));
  const stray = (await allPages(c.agent, c.base, '/api/v1/entries?prefix=&limit=1000')).filter((a) => !present.has(a) && !tagsPresent.has(a) && a !== TABLE);
  assert.deepEqual(stray, [], 'entries nobody wrote');
  for (const t of tagsPresent) assert.ok(m.tagsTried.has(t), `tag entry ${t} appeared but no attach ever named it`);
  for (const t of m.tagEntries) assert.ok(tagsPresent.has(t), `tag entry ${t} existed before and is gone`);
  const actualTags = new Map<string, Set<string>>();
  for (const t of tagsPresent) {
    for (const alias of await allPages(c.agent, c.base, `/api/v1/tags/${aliasPath(t)}/entries?limit=1000`)) {
      assert.ok(present.has(alias), `tag ${t} lists ${alias}, which is not an entry`);
      if (!actualTags.has(alias)) actualTags.set(alias, new Set());
      actualTags.get(alias)!.add(t);
    }
  }
  const aliases = new Set([...present, ...m.blobs.keys(), ...m.open.keys()]);
  const actual = new Map<string, BlobState>();
  for (const alias of aliases) {
    const before = m.blobs.get(alias);
    const op = m.open.get(alias);
    const candidates = op === undefined ? [before] : [before, applyOp(before, op)];
    let state: BlobState | undefined;
    if (present.has(alias)) {
      const id = Number(alias.slice(2));
      assert.ok(Number.isInteger(id) && candidates.some((s) => s !== undefined), `${alias} is there but was never created (${candidates.map(show)})`);
      const reply = await c.send('GET', `/api/v1/blobs/${aliasPath(alias)}/content`);
      assert.equal(reply.status, 200, `GET content of ${alias}: ${reply.text()}`);
      const versions = candidates.filter((s) => s !== undefined).map((s) => s!.version);
      const version = versions.find((v) => blobFor(id, v).equals(reply.body));
      assert.ok(version !== undefined, `${alias} holds content that was never written (candidates v${versions.join(', v')}; got ${reply.body.length} bytes starting ${JSON.stringify(reply.body.subarray(0, 24).toString('latin1'))})`);
      state = { version, tags: actualTags.get(alias) ?? new Set() };
      if (op !== undefined) {
        // The entry's own tag list must agree with the tags' entry lists.
        const own = await allPages(c.agent, c.base, `/api/v1/entries/${aliasPath(alias)}/tags?limit=1000`);
        assert.deepEqual(own.sort(), [...state.tags].sort(), `tags of ${alias}: its own list and the tags' entry lists differ`);
      }
      actual.set(alias, state);
    }
    assert.ok(candidates.some((s) => sameState(s, state)), `${alias} is ${show(state)}; expected ${candidates.map(show).join(' or ')}`);
  }
  m.blobs.clear();
  for (const [alias, s] of actual) m.blobs.set(alias, s);
  m.open.clear();
  m.tagEntries.clear();
  for (const t of tagsPresent) m.tagEntries.add(t);

  // ---- rows ------------------------------------------------------------------------------
  const reply = await c.query(`SELECT id, v, s FROM ${TABLE}`);
  const seen = new Map<number, Set<number>>();
  if (reply.status !== 200) {
    assert.ok(!m.isTableCreated, `SELECT after restart: ${reply.status} ${reply.text()}`);
  } else {
    m.isTableCreated = true;
    const tables = reply.json().tables as { columns: { name: string; data: unknown[] }[] }[];
    if (tables.length > 0) {
      const [idC, vC, sC] = tables[0]!.columns;
      assert.deepEqual([idC!.name, vC!.name, sC!.name], ['id', 'v', 's']);
      idC!.data.forEach((raw, r) => {
        const id = raw as number;
        const batch = Math.floor(id / ROW_STRIDE);
        const k = id % ROW_STRIDE;
        const where = `row id ${id}`;
        assert.ok(m.batchesPresent.has(batch) || m.batchesSent.has(batch), `${where}: its INSERT was never sent`);
        assert.ok(!m.batchesAbsent.has(batch), `${where}: its INSERT was absent after an earlier restart and came back`);
        assert.ok(k < rowsOf(batch), `${where}: beyond its INSERT's ${rowsOf(batch)} rows`);
        if (!seen.has(batch)) seen.set(batch, new Set());
        assert.ok(!seen.get(batch)!.has(k), `${where}: appears twice`);
        seen.get(batch)!.add(k);
        assert.equal(vC!.data[r], rowV(id), `${where}: v`);
        assert.equal(sC!.data[r], rowS(id), `${where}: s`);
      });
    }
  }
  for (const [batch, ks] of seen) assert.equal(ks.size, rowsOf(batch), `INSERT ${batch} is only partly there (${ks.size} of ${rowsOf(batch)} rows)`);
  for (const batch of [...m.batchesPresent, ...m.batchesAcked]) assert.ok(seen.has(batch), `acknowledged INSERT ${batch} is missing`);
  for (const batch of m.batchesSent) if (!seen.has(batch)) m.batchesAbsent.add(batch);
  for (const batch of seen.keys()) m.batchesPresent.add(batch);
  m.batchesSent.clear();
  m.batchesAcked.clear();
}

/** Writes until the server is gone. Each write expects an exact status, from the model. */
async function writer(c: Client, m: Model, rand: Rng, busy: Set<string>, isKilled: () => boolean): Promise<void> {
  for (;;) {
    const r = rand();
    const idle = [...m.blobs.keys()].filter((a) => !busy.has(a));
    let alias: string;
    let op: Op;
    let expect: number;
    let request: () => ReturnType<Client['send']>;
    if (r < 0.3) {
      const batch = m.nextBatch++;
      m.batchesSent.add(batch);
      let reply;
      try {
        reply = await c.query(insertText(batch));
      } catch (e) {
        if (isKilled()) return;
        throw e;
      }
      assert.equal(reply.status, 200, `INSERT ${batch}: ${reply.text()}`);
      assert.deepEqual(reply.json(), { tables: [] }, `INSERT ${batch}`);
      m.batchesAcked.add(batch);
      m.acked++;
      continue;
    } else if ((r < 0.5 || idle.length === 0) && m.blobs.size + busy.size < MAX_BLOBS) {
      alias = blobAlias(m.nextBlob++);
      op = { kind: 'create' };
      expect = 201;
      const id = Number(alias.slice(2));
      request = () => c.send('POST', `/api/v1/blobs/${aliasPath(alias)}`, blobFor(id, 0));
    } else if (idle.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (isKilled()) return;
      continue;
    } else {
      alias = idle[randInt(rand, 0, idle.length - 1)]!;
      const state = m.blobs.get(alias)!;
      if (r < 0.7) {
        const version = state.version + 1;
        op = { kind: 'put', version };
        expect = 204;
        request = () => c.send('PUT', `/api/v1/blobs/${aliasPath(alias)}/content`, blobFor(Number(alias.slice(2)), version));
      } else {
        const tag = TAGS[randInt(rand, 0, TAGS.length - 1)]!;
        const kind = rand() < 0.6 ? 'attach' : 'detach';
        op = { kind, tag };
        expect = (kind === 'attach') === state.tags.has(tag) ? 304 : 200;
        if (kind === 'attach') m.tagsTried.add(tag);
        // Both spellings of the action (SPEC §3).
        const action = kind === 'attach' ? (rand() < 0.5 ? 'attachTag' : 'addTag') : (rand() < 0.5 ? 'detachTag' : 'removeTag');
        request = () => c.send('PATCH', `/api/v1/entries/${aliasPath(alias)}?action=${action}&tag=${encodeURIComponent(tag)}`);
      }
    }
    busy.add(alias);
    m.open.set(alias, op);
    let reply;
    try {
      reply = await request();
    } catch (e) {
      if (isKilled()) return; // the open write stays open: it may or may not be there
      throw e;
    }
    assert.equal(reply.status, expect, `${op.kind} ${alias} (state ${show(m.blobs.get(alias))}): ${reply.status} ${reply.text()}`);
    const next = applyOp(m.blobs.get(alias), op)!;
    m.blobs.set(alias, next);
    if (op.kind === 'attach') m.tagEntries.add(op.tag);
    m.open.delete(alias);
    busy.delete(alias);
    m.acked++;
  }
}

async function round(dataDir: string, m: Model, rand: Rng, killAfterMs: number, writers: number): Promise<void> {
  const server = await spawnServer(dataDir, ['--durability', 'fsync']);
  const agent = keepAliveAgent(writers + 2);
  try {
    const c = new Client(agent, server.base, await login(agent, server.base));
    await verify(c, m);
    const created = await c.query(`CREATE TABLE IF NOT EXISTS ${TABLE} (id INT64, v DOUBLE, s STRING)`);
    assert.equal(created.status, 200, `CREATE TABLE: ${created.text()}`);
    m.isTableCreated = true;
    let isKilled = false;
    let failure: unknown = null;
    const busy = new Set<string>();
    const running = Array.from({ length: writers }, () => writer(c, m, rand, busy, () => isKilled).catch((e) => { failure ??= e; }));
    await new Promise((resolve) => setTimeout(resolve, killAfterMs));
    const early = server.isRunning() ? null : await server.exited;
    isKilled = true;
    await killServer(server);
    await Promise.all(running);
    if (early !== null) assert.fail(`the server exited on its own (code ${early.code}, signal ${early.signal}): ${server.stderr().slice(-4000)}`);
    if (failure !== null) throw failure;
  } finally {
    agent.destroy();
    await killServer(server);
  }
}

/** Starts the server and SIGKILLs it `ms` later, most likely while it is still recovering. */
async function killDuringStartup(dataDir: string, ms: number): Promise<void> {
  const child = spawn(process.execPath, [CLI, '--data-dir', dataDir, '--port', '0', '--host', '127.0.0.1', '--durability', 'fsync'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on('exit', (c, sig) => resolve([c, sig])));
  clearTimeout(timer);
  assert.equal(signal, 'SIGKILL', `svc_rest exited on its own during start-up (code ${code}): ${stderr}`);
}

/** Starts the server, checks the data, and stops it with SIGTERM: exit 0 after a checkpoint. */
async function verifyAndStop(dataDir: string, m: Model): Promise<void> {
  const server = await spawnServer(dataDir, ['--durability', 'fsync']);
  const agent = keepAliveAgent(4);
  try {
    await verify(new Client(agent, server.base, await login(agent, server.base)), m);
    agent.destroy();
    server.child.kill('SIGTERM');
    const { code, signal } = await server.exited;
    assert.deepEqual({ code, signal }, { code: 0, signal: null }, `SIGTERM: ${server.stderr().slice(-4000)}`);
  } finally {
    agent.destroy();
    await killServer(server);
  }
}

describe('svc_rest crash recovery over HTTP', () => {
  it(`loses no acknowledged write over ${ROUNDS} SIGKILLs`, async (t) => {
    const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 1e9));
    const rand = prng(seed);
    const dataDir = await tempDir('svc-http-crash-');
    const m: Model = {
      blobs: new Map(), open: new Map(), tagEntries: new Set(), tagsTried: new Set(),
      batchesPresent: new Set(), batchesAbsent: new Set(), batchesSent: new Set(), batchesAcked: new Set(),
      isTableCreated: false, nextBlob: 0, nextBatch: 1, acked: 0,
    };
    try {
      for (let i = 0; i < ROUNDS; i++) {
        // Mostly mid-stream kills; now and then one right after the writers start.
        const killAfterMs = rand() < 0.15 ? randInt(rand, 0, 30) : randInt(rand, 50, 1000);
        await round(dataDir, m, rand, killAfterMs, randInt(rand, 1, 6));
        // Now and then the next start-up (its WAL replay) is killed too, before anything is read.
        if (i % 4 === 1) await killDuringStartup(dataDir, randInt(rand, 0, 400));
      }
      // The last kill's open writes are settled by this restart; then a clean stop (checkpoint)
      // and one more start check the checkpoint path too.
      await verifyAndStop(dataDir, m);
      await verifyAndStop(dataDir, m);
    } catch (e) {
      throw new Error(`HTTP crash test failed with CRASH_SEED=${seed}: ${(e as Error).message}`, { cause: e });
    }
    assert.ok(m.acked > 0, 'the server acknowledged no writes at all');
    assert.ok(m.batchesPresent.size > 0 && m.blobs.size > 0, 'no rows or no blobs survived: the test checked nothing');
    t.diagnostic(`seed ${seed}: ${m.acked} writes acknowledged; ${m.blobs.size} blobs, ${m.batchesPresent.size} INSERTs present, ${m.batchesAbsent.size} unanswered INSERTs lost`);
  });
});
