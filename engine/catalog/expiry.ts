// Expiry of entries (SPEC §2): UNIX seconds, 0 = never; only blobs expire. An expired entry is
// absent to every read until the sweep removes it.
import type { Entry } from './entry-store.js';

export function isExpired(e: Entry, nowSec: number): boolean {
  return e.type === 'blob' && e.expiry !== 0 && e.expiry <= nowSec;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
