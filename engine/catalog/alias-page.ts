// Paging of alias lists: byte-wise ascending order (UTF-8, as SPEC §3 promises) and skip/limit.
import { SvcError } from '../errors.js';

export interface PageOptions {
  readonly skip?: number;
  readonly limit?: number;
}

/** One page of aliases; `hasMore` says whether a next page exists. */
export interface AliasPage {
  readonly aliases: string[];
  readonly hasMore: boolean;
}

export const DEFAULT_PAGE_LIMIT = 100;

export function page(aliases: Iterable<string>, options: PageOptions = {}): AliasPage {
  const skip = options.skip ?? 0;
  const limit = options.limit ?? DEFAULT_PAGE_LIMIT;
  if (!Number.isSafeInteger(skip) || skip < 0) throw new SvcError('InvalidArgument', `skip must be an integer >= 0, got ${skip}`);
  if (!Number.isSafeInteger(limit) || limit < 1) throw new SvcError('InvalidArgument', `limit must be an integer >= 1, got ${limit}`);
  const sorted = sortAliases(aliases);
  return { aliases: sorted.slice(skip, skip + limit), hasMore: sorted.length > skip + limit };
}

/** Sorts by UTF-8 bytes. UTF-16 order differs from it only around surrogate pairs. */
export function sortAliases(aliases: Iterable<string>): string[] {
  return [...aliases].sort(compareUtf8);
}

export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (D800–DFFF) encode code points above FFFF, which sort after E000–FFFF in UTF-8.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys && (x >= 0xe000 || y >= 0xe000)) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
