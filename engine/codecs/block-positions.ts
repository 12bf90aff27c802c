// Positions of a block's exceptions (ALP's and ALP-RD's values kept apart), bit-packed at the
// width the block's length needs.
import { bitWidth, GROUP, pack, unpack } from './bit-pack.js';
import type { ByteReader, ByteWriter } from './byte-stream.js';
import { BLOCK } from './delta-for.js';

const written = new Float64Array(BLOCK);
const read = new Float64Array(Math.ceil(BLOCK / GROUP) * GROUP);

/** Writes `positions` (each < m). */
export function writePositions(positions: readonly number[], m: number, out: ByteWriter): void {
  for (let k = 0; k < positions.length; k++) written[k] = positions[k];
  pack(written, positions.length, bitWidth(m - 1), out);
}

/** Reads `count` positions of a block of `m` values (the array is reused by the next call). */
export function readPositions(input: ByteReader, count: number, m: number): Float64Array {
  unpack(input, count, bitWidth(m - 1), read, 0);
  return read;
}
