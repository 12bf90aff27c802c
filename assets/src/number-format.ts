// How a numeric column is shown in the grid: every value with the same number of decimals, as
// many as the column's values need once float noise is gone (42.26818399999999 → 42.268184),
// and at most ten significant digits of the column's largest value (so an average does not run
// to sixteen decimals). Integers stay exact; a cell's hover shows the exact value.

/** Decimals shown at most: enough for ten significant digits of the column's largest value. */
const SIGNIFICANT = 10;
/** Values read to choose a column's decimals (spread over the column). */
const SAMPLE = 4000;

export interface NumberFormat {
  /** The shown text of a value (not null). */
  format(v: number): string;
}

/** Decimals `v` needs when written with at most `cap` decimals (trailing zeros dropped). */
function decimalsOf(v: number, cap: number): number {
  const fraction = v.toFixed(cap).split('.')[1] ?? '';
  return fraction.replace(/0+$/, '').length;
}

function special(v: number): string | null {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '∞';
  if (v === -Infinity) return '-∞';
  return null;
}

/** The format of a column of doubles (`isInteger` false) or of integers (shown as they are). */
export function numberFormat(values: Float64Array, isInteger: boolean): NumberFormat {
  if (isInteger) return { format: (v) => special(v) ?? String(v) };
  const step = Math.max(1, Math.floor(values.length / SAMPLE));
  let maxAbs = 0;
  for (let i = 0; i < values.length; i += step) if (Number.isFinite(values[i]!)) maxAbs = Math.max(maxAbs, Math.abs(values[i]!));
  // Very large or very small magnitudes read better in exponent form, value by value.
  if (maxAbs >= 1e15 || (maxAbs > 0 && maxAbs < 1e-6)) return { format: (v) => special(v) ?? Number(v.toPrecision(SIGNIFICANT)).toExponential() };
  // Float noise sits far below the column's largest value: rounding there removes it
  // (a delta of 0.043 computed from values near 50 arrives as 0.04300000000000015).
  const intDigits = maxAbs === 0 ? 1 : Math.floor(Math.log10(maxAbs)) + 1;
  const cap = Math.min(20, Math.max(0, SIGNIFICANT - intDigits));
  let decimals = 0;
  for (let i = 0; i < values.length && decimals < cap; i += step) if (Number.isFinite(values[i]!)) decimals = Math.max(decimals, decimalsOf(values[i]!, cap));
  return { format: (v) => special(v) ?? v.toFixed(decimals) };
}
