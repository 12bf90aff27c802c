// The `benchmark` package wrapped for one repeatable async operation: deferred mode, so a case
// may return a promise; at least 5 samples within `maxTimeSeconds`; mean time per call in ms.
import Benchmark from 'benchmark';

/** Mean milliseconds per call of `fn` as measured by benchmark.js (deferred, so async works). */
export function measureOps(fn: () => unknown, maxTimeSeconds: number): Promise<{ ms: number; rme: number; samples: number }> {
  return new Promise((resolve, reject) => {
    let failure: unknown = null;
    const bench = new Benchmark({
      defer: true,
      maxTime: maxTimeSeconds,
      minSamples: 5,
      fn(deferred: Benchmark.Deferred) {
        Promise.resolve()
          .then(fn)
          .then(() => deferred.resolve(), (e: unknown) => { failure = e; deferred.resolve(); });
      },
    });
    bench.on('complete', () => {
      if (failure !== null) reject(failure);
      else if (bench.error !== undefined && bench.error !== null) reject(bench.error);
      else resolve({ ms: bench.stats.mean * 1000, rme: bench.stats.rme, samples: bench.stats.sample.length });
    });
    bench.run({ async: true });
  });
}
