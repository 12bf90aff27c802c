// Hand-written loops for the language bench (cases/language.ts), over svc's own batches like
// peers/hand.ts: the practical limit of each query in JavaScript, and its reference answer. The
// as-of merge keeps the current quote in a local and compares times by their 32-bit halves; the
// GROUP BY loops find each minute's edge by walking the sorted rows.
import type { Database } from '../../engine/index.js';
import type { SealedBatch } from '../../engine/storage/sealed-batch.js';
import type { Answer, Value } from '../answer.js';
import { scanTable, valuesOf } from './hand.js';

const TWO32 = 4294967296;

function halves(ts: BigInt64Array): { lo: Uint32Array; hi: Int32Array } {
  return { lo: new Uint32Array(ts.buffer, ts.byteOffset, ts.length * 2), hi: new Int32Array(ts.buffer, ts.byteOffset, ts.length * 2) };
}

/** `SELECT avg(price - bid), count(bid) FROM trades ASOF JOIN quotes`: one merge walk. */
export function handAsofSpread(db: Database): Answer {
  const quotes = scanTable(db, 'quotes');
  const qTimes = quotes.map((v) => halves(v.ts));
  const qBids = quotes.map((v) => valuesOf(v, 1));
  let qb = 0;
  let qr = -1;
  let bid = NaN;
  let isMatched = false;
  // The next quote's time (Infinity past the last).
  let nextHi = quotes.length > 0 ? qTimes[0].hi[1] : Infinity;
  let nextLo = quotes.length > 0 ? qTimes[0].lo[0] : 0;
  let sum = 0;
  let count = 0;
  for (const view of scanTable(db, 'trades')) {
    const { lo: tl, hi: th } = halves(view.ts);
    const price = valuesOf(view, 1);
    for (let i = 0; i < view.rowCount; i++) {
      const h = th[(i << 1) | 1];
      const l = tl[i << 1];
      while (nextHi < h || (nextHi === h && nextLo <= l)) {
        qr++;
        if (qr >= quotes[qb].rowCount) { qb++; qr = 0; }
        bid = qBids[qb][qr];
        isMatched = true;
        const r = qr + 1;
        if (r < quotes[qb].rowCount) { nextHi = qTimes[qb].hi[(r << 1) | 1]; nextLo = qTimes[qb].lo[r << 1]; }
        else if (qb + 1 < quotes.length) { nextHi = qTimes[qb + 1].hi[1]; nextLo = qTimes[qb + 1].lo[0]; }
        else nextHi = Infinity;
      }
      if (!isMatched) continue;
      sum += price[i] - bid;
      count++;
    }
  }
  return { spread: [count === 0 ? null : sum / count], 'count(bid)': [BigInt(count)] };
}

/** Per-bucket aggregate of column 1 over [from, to) (`merge` folds a value into the bucket's state). */
function buckets(views: readonly SealedBatch[], from: bigint, to: bigint, width: bigint, merge: (state: number, v: number, isFirst: boolean) => number): { starts: bigint[]; states: number[]; counts: number[] } {
  const starts: bigint[] = [];
  const states: number[] = [];
  const counts: number[] = [];
  const w = Number(width);
  for (const view of views) {
    const v = valuesOf(view, 1);
    const { lo: tl, hi: th } = halves(view.ts);
    let i = 0;
    while (i < view.rowCount && view.ts[i] < from) i++;
    let end = view.rowCount;
    while (end > i && view.ts[end - 1] >= to) end--;
    if (i >= end) continue;
    // Offsets from the first row's bucket start, as plain numbers (a batch spans far below 2^53 ns).
    const base = view.ts[i] - (view.ts[i] % width);
    const baseHi = Number(base >> 32n);
    const baseLo = Number(base & 0xffffffffn);
    let current = -1;
    for (; i < end; i++) {
      const m = Math.floor(((th[(i << 1) | 1] - baseHi) * TWO32 + (tl[i << 1] - baseLo)) / w);
      if (m !== current) {
        current = m;
        const start = base + BigInt(m) * width;
        if (starts.length === 0 || starts[starts.length - 1] !== start) { starts.push(start); states.push(0); counts.push(0); }
      }
      const k = states.length - 1;
      states[k] = merge(states[k], v[i], counts[k] === 0);
      counts[k]++;
    }
  }
  return { starts, states, counts };
}

/** `SELECT avg(v) … IN RANGE(from, to) GROUP BY <width> FILL(LINEAR)`. */
export function handFillLinear(db: Database, table: string, from: bigint, to: bigint, width: bigint): Answer {
  const { starts, states, counts } = buckets(scanTable(db, table, from, to), from, to, width, (s, v) => s + v);
  const axis: bigint[] = [];
  const out: Value[] = [];
  let k = 0;
  for (let b = from - (from % width); b < to; b += width) {
    axis.push(b);
    if (k < starts.length && starts[k] === b) { out.push(states[k] / counts[k]); k++; continue; }
    if (k === 0 || k >= starts.length) { out.push(null); continue; }
    const p = states[k - 1] / counts[k - 1];
    const n = states[k] / counts[k];
    out.push(p + ((n - p) * Number(b - starts[k - 1])) / Number(starts[k] - starts[k - 1]));
  }
  return { $timestamp: BigInt64Array.from(axis), 'avg(v)': out };
}

/** `SELECT derivative(max(price), <width>) FROM t GROUP BY <width>`. */
export function handDerivativeOfMax(db: Database, table: string, width: bigint): Answer {
  const { starts, states } = buckets(scanTable(db, table), -(2n ** 63n), 2n ** 63n - 1n, width, (s, v, isFirst) => (isFirst || v > s ? v : s));
  const out: Value[] = [null];
  for (let k = 1; k < starts.length; k++) out.push((states[k] - states[k - 1]) / (Number(starts[k] - starts[k - 1]) / Number(width)));
  return { $timestamp: BigInt64Array.from(starts), 'derivative(max(price),1min)': out };
}
