// WAL segment files: `wal/<12-digit number>.wal`, numbered upwards; a checkpoint records the
// first number to replay after it.
import { readdir } from 'node:fs/promises';

export function segmentName(seq: number): string {
  return `${String(seq).padStart(12, '0')}.wal`;
}

/** Segment numbers present in `dir`, ascending. */
export async function listSegments(dir: string): Promise<number[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => /^\d{12}\.wal$/.test(n)).map((n) => Number(n.slice(0, 12))).sort((a, b) => a - b);
}
