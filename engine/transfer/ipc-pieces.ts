// The bytes apache-arrow's IPC writers produce, gathered as they are written and packed into
// ~64 KiB chunks for a socket or a file: small pieces (message headers, padding) are copied
// together, large ones (column buffers, views of the result's own arrays) handed on as views.
// The server's Arrow answers and the export's Arrow stream both go through here.
import { AsyncByteQueue } from 'apache-arrow';

const CHUNK_BYTES = 64 * 1024;
/** Pieces below this are copied into a shared chunk; larger ones are passed on as views. */
const SMALL_PIECE = 8 * 1024;

/** Receives the writer's byte pieces synchronously instead of queueing them for a reader. */
export class PieceSink extends AsyncByteQueue {
  private pieces: Uint8Array[] = [];
  override write(value: Uint8Array): void {
    if (value.byteLength > 0) this.pieces.push(value);
  }

  /** The pieces written since the last take. */
  take(): Uint8Array[] {
    const out = this.pieces;
    this.pieces = [];
    return out;
  }
}

/** `pieces` as chunks of about CHUNK_BYTES (small pieces copied together, large ones as views). */
export function packPieces(pieces: readonly Uint8Array[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let pending = new Uint8Array(CHUNK_BYTES);
  let used = 0;
  const flush = (): void => {
    if (used === 0) return;
    out.push(pending.subarray(0, used));
    pending = new Uint8Array(CHUNK_BYTES);
    used = 0;
  };
  for (const piece of pieces) {
    if (piece.byteLength < SMALL_PIECE) {
      if (used + piece.byteLength > CHUNK_BYTES) flush();
      pending.set(piece, used);
      used += piece.byteLength;
      continue;
    }
    flush();
    for (let at = 0; at < piece.byteLength; at += CHUNK_BYTES) out.push(piece.subarray(at, Math.min(piece.byteLength, at + CHUNK_BYTES)));
  }
  flush();
  return out;
}
