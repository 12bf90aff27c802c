// Series order: the series of each row from SYMBOL codes (nulls a series of their own), a stable
// series-major permutation, and the ids coded against one fleet cycle earlier — exact round trips;
// a fleet reporting in a fixed order costs almost nothing; too many series → no series order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeSeriesOrder, encodeSeriesOrder, seriesMajor, seriesOf } from '../../../engine/codecs/series-order.js';
import { prng } from '../../prng.js';
import { aligned } from './inputs.js';

describe('series order', () => {
  it('finds series from code tuples, nulls included, and round-trips ids and codes', () => {
    const r = prng(8);
    const rows = 5000;
    const a = Int32Array.from({ length: rows }, () => Math.floor(r() * 7));
    const b = Int32Array.from({ length: rows }, () => Math.floor(r() * 3));
    const nullA = (row: number) => row % 13 === 0;
    const order = seriesOf([a, b], (k, row) => k !== 0 || !nullA(row), rows, 8)!;
    assert.ok(order.series <= 24);
    for (let row = 0; row < rows; row++) {
      const id = order.ids[row];
      assert.equal(order.codes[0][id], nullA(row) ? -1 : a[row]);
      assert.equal(order.codes[1][id], b[row]);
    }
    const back = decodeSeriesOrder(aligned(encodeSeriesOrder(order)));
    assert.deepEqual(back.ids, order.ids);
    assert.deepEqual(back.codes, order.codes);
  });

  it('orders rows series by series, keeping each series in time order', () => {
    const ids = Int32Array.from([2, 0, 1, 0, 2, 2, 1, 0]);
    assert.deepEqual([...seriesMajor(ids, 3)], [1, 3, 7, 2, 6, 0, 4, 5]);
  });

  it('codes a fleet reporting in a fixed shuffled order in under a bit a row', () => {
    const r = prng(9);
    const fleet = Array.from({ length: 300 }, (_, i) => i).sort(() => r() - 0.5);
    const codes = Int32Array.from({ length: 65_536 }, (_, i) => fleet[i % 300]);
    const order = seriesOf([codes], () => true, codes.length, 8)!;
    const bytes = encodeSeriesOrder(order);
    assert.ok(bytes.length * 8 < codes.length, `${bytes.length} bytes`);
    assert.deepEqual(decodeSeriesOrder(aligned(bytes)).ids, order.ids);
  });

  it('gives up when series average fewer rows than asked', () => {
    const codes = Int32Array.from({ length: 1000 }, (_, i) => i % 200);
    assert.equal(seriesOf([codes], () => true, 1000, 8), null);
    assert.notEqual(seriesOf([codes], () => true, 1000, 5), null);
  });
});
