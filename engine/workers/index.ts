// Worker threads of a database: the pool, its task contract and figures.
export { defaultParallelism, WorkerPool, workerCount } from './worker-pool.js';
export type { TaskOutput, WorkerFigures, WorkerTask } from './worker-pool.js';
