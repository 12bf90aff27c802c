// The main of each worker thread of the pool (worker-pool.ts): imports the task modules it is
// told of (those loaded before it started come in workerData), then runs jobs as they come —
// one at a time, in order, each task's answer posted with the buffers it names transferred. A
// task that throws fails its job alone; the thread goes on.
import { parentPort, workerData } from 'node:worker_threads';
import type { FromWorker, TaskOutput, ToWorker, WireError, WorkerTask } from './worker-pool.js';

const tasks = new Map<string, WorkerTask>();
/** Modules load in order; a job waits for those told of before it. */
let loaded: Promise<void> = Promise.resolve();

/** Why a task module failed to load: its jobs fail with it (the thread lives on, not a crash loop). */
const loadErrors: string[] = [];

function load(url: string): void {
  loaded = loaded.then(async () => {
    const module = (await import(url)) as { workerTasks?: Record<string, WorkerTask> };
    for (const [name, task] of Object.entries(module.workerTasks ?? {})) tasks.set(name, task);
  }).catch((e: unknown) => { loadErrors.push(`${url} did not load: ${(e as Error).message}`); });
}

for (const url of (workerData as { modules: readonly string[] }).modules) load(url);

parentPort!.on('message', (m: ToWorker) => {
  if (m.kind === 'load') return load(m.url);
  void loaded.then(() => run(m.id, m.task, m.input));
});

async function run(id: number, name: string, input: unknown): Promise<void> {
  let out: TaskOutput;
  try {
    const task = tasks.get(name);
    if (task === undefined) throw new Error(`no task '${name}' is loaded in this worker${loadErrors.length > 0 ? ` (${loadErrors.join('; ')})` : ''}`);
    out = await task(input as never);
  } catch (e) {
    parentPort!.postMessage({ kind: 'failed', id, error: toWire(e) } satisfies FromWorker);
    return;
  }
  parentPort!.postMessage({ kind: 'done', id, value: out.value } satisfies FromWorker, [...new Set(out.transfer ?? [])]);
}

function toWire(e: unknown): WireError {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  const { code, position } = e as { code?: unknown; position?: unknown };
  return {
    name: e.name,
    message: e.message,
    ...(typeof code === 'string' && e.name === 'SvcError' ? { code } : {}),
    ...(typeof position === 'number' ? { position } : {}),
  };
}
