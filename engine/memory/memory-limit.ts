// The memory limit's default and its written form. By default the budget is 60 % of the smaller
// of the machine's memory and the cgroup's limit (a container sees the host's memory in
// os.totalmem(), and is killed at its cgroup's): the rest is V8, code, buffers and the page cache.
import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';

/** The budget's share of the memory the process may use. */
const DEFAULT_SHARE = 0.6;

const UNITS: Record<string, number> = {
  '': 1, b: 1,
  k: 1e3, kb: 1e3, m: 1e6, mb: 1e6, g: 1e9, gb: 1e9, t: 1e12, tb: 1e12,
  kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40,
};

/** 60 % of the smaller of the machine's memory and its cgroup memory limit, in bytes. */
export function defaultMemoryLimit(): number {
  const cgroup = cgroupLimit();
  const memory = cgroup === null ? totalmem() : Math.min(totalmem(), cgroup);
  return Math.floor(memory * DEFAULT_SHARE);
}

/**
 * Bytes from `512MiB`, `8GiB`, `1.5GB`, `1048576` (units: k/M/G/T with B or iB, case-insensitive);
 * null when the text is none of these.
 */
export function parseBytes(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  if (m === null) return null;
  const unit = UNITS[m[2].toLowerCase()];
  if (unit === undefined) return null;
  const bytes = Math.floor(Number(m[1]) * unit);
  return Number.isSafeInteger(bytes) ? bytes : null;
}

/** The cgroup (v2, else v1) memory limit of this process, or null when there is none. */
function cgroupLimit(): number | null {
  for (const path of ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes']) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8').trim();
    } catch {
      continue;
    }
    const n = Number(text);
    // "max" (v2) or a huge number (v1's "unlimited") mean no limit.
    if (Number.isSafeInteger(n) && n > 0 && n < 2 ** 60) return n;
    return null;
  }
  return null;
}
