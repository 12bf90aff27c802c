// Reading handler inputs with the checks of SPEC §3: paging parameters, required query
// parameters, JSON bodies. Every failure is a 400 whose message says what to send instead.
import type { PageOptions } from '../../engine/index.js';
import { HttpError } from '../errors.js';
import type { QueryParams } from '../http/query-params.js';

export const MAX_PAGE_LIMIT = 10_000;
export const DEFAULT_PAGE_LIMIT = 100;

export interface Paging extends PageOptions {
  readonly skip: number;
  readonly limit: number;
}

/** `limit` 1..10,000 (default 100) and `skip` ≥ 0 (default 0); anything else → 400. */
export function paging(query: QueryParams): Paging {
  return {
    limit: integerParam(query, 'limit', DEFAULT_PAGE_LIMIT, 1, MAX_PAGE_LIMIT),
    skip: integerParam(query, 'skip', 0, 0, Number.MAX_SAFE_INTEGER),
  };
}

function integerParam(query: QueryParams, name: string, fallback: number, min: number, max: number): number {
  const v = query.get(name);
  return v === undefined ? fallback : parseInteger(name, v, min, max);
}

/** Decimal digits only (no sign, exponent or fraction), within [min, max]; else 400. */
export function parseInteger(name: string, v: string, min: number, max: number): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new HttpError('BadRequest', `'${name}' must be an integer from ${min} to ${max}, got '${v}'`);
  }
  return n;
}

/** A query parameter that must be present (it may be empty). */
export function requiredParam(query: QueryParams, name: string, what: string): string {
  const v = query.get(name);
  if (v === undefined) throw new HttpError('BadRequest', `missing query parameter '${name}' (${what})`);
  return v;
}

/** The body parsed as JSON; 400 when it is empty or not JSON. */
export function jsonBody(body: Buffer): unknown {
  if (body.length === 0) throw new HttpError('BadRequest', 'the request body is empty; send JSON');
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch (e) {
    // V8's message may quote the input ("xyz…" is not valid JSON): on /api/login that is the
    // secret key, so only the position goes back.
    const at = /position (\d+)/.exec((e as Error).message);
    throw new HttpError('BadRequest', `the request body is not valid JSON${at === null ? '' : ` (at byte ${at[1]})`}`);
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
