// Numbers in the dashboard's grid (assets/src/number-format.ts): one number of decimals per
// column, as many as its values need once float noise is gone, at most ten significant digits of
// the column's largest value; integers as they are; exponent form for extreme magnitudes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { numberFormat } from '../../assets/src/number-format.js';

const shown = (values: number[], isInteger = false): string[] => {
  const f = numberFormat(Float64Array.from(values), isInteger);
  return values.map((v) => f.format(v));
};

describe('number format', () => {
  it('drops float noise and aligns the column', () => {
    assert.deepEqual(shown([42.26818399999999, 42.142308, 41.5]), ['42.268184', '42.142308', '41.500000']);
    assert.deepEqual(shown([12.5, 12.75, 13]), ['12.50', '12.75', '13.00']);
    assert.deepEqual(shown([0.5960000000000001, -0.04300000000000015, 1.2009999999999998]), ['0.596', '-0.043', '1.201']);
  });

  it('keeps ten significant digits of the largest value', () => {
    assert.deepEqual(shown([0.4403157894736842]), ['0.4403157895']);
    assert.deepEqual(shown([25.00943000000001, 1234.5678901234]), ['25.00943', '1234.56789']);
  });

  it('whole numbers have no decimals; integers are exact', () => {
    assert.deepEqual(shown([1, 2, 300]), ['1', '2', '300']);
    assert.deepEqual(shown([9007199254740991, -5], true), ['9007199254740991', '-5']);
  });

  it('extreme magnitudes in exponent form; NaN and infinities named', () => {
    assert.deepEqual(shown([1.5e-9, 2e-8]), ['1.5e-9', '2e-8']);
    assert.deepEqual(shown([6.02214076e23]), ['6.02214076e+23']);
    assert.deepEqual(shown([1.5, NaN, Infinity, -Infinity]), ['1.5', 'NaN', '∞', '-∞']);
  });
});
