// A byte writer for the JSON encoders: digits, times and ASCII go straight into a Buffer, and
// the encoder takes a ~64 KiB chunk whenever `isFull` (checked between values). Building JSON as
// JS strings costs a string allocation per cell and a flattening pass; writing integers and
// times digit by digit does neither, which is where most of a time-series result's cells are.
// Each chunk is a fresh buffer (a range of a slab never handed out before), so chunks already
// handed out are never written again. The first buffer is sized to the encoder's estimate of the
// whole answer and the next one is made only when something is written after a take: a one-row
// answer used to cost two 68 KiB buffers, whose allocation and the garbage collections they
// caused were most of its encoding time.

/** Bytes per chunk handed out (a chunk may run over by one value). */
export const CHUNK_BYTES = 64 * 1024;
const SLACK = 4096;
/** Room beyond the size hint before the first buffer has to grow. */
const SMALL_SLACK = 256;

/** "00" … "99" as byte pairs, for writing two digits at a time. */
export const DIGIT_PAIRS = new Uint8Array(200);
for (let i = 0; i < 100; i++) {
  DIGIT_PAIRS[2 * i] = 48 + Math.floor(i / 10);
  DIGIT_PAIRS[2 * i + 1] = 48 + (i % 10);
}

/**
 * Writers' buffers are views carved from shared 1 MiB slabs: in a server process with a large
 * heap, each new ArrayBuffer (even Node's 8 KiB pool refills) measured several µs per small
 * answer, and a view costs a fraction of that. Views never overlap and a carved range is never
 * handed out again, so a chunk still held by a slow socket is never written over; a slab is
 * freed once no view of it is left.
 */
const SLAB_BYTES = 1024 * 1024;
let slab = new ArrayBuffer(0);
let slabUsed = 0;

export function carve(n: number): Buffer {
  if (n > SLAB_BYTES / 8) return Buffer.allocUnsafe(n);
  if (slabUsed + n > slab.byteLength) {
    slab = new ArrayBuffer(SLAB_BYTES);
    slabUsed = 0;
  }
  const b = Buffer.from(slab, slabUsed, n);
  slabUsed += (n + 7) & ~7; // 8-byte aligned starts
  return b;
}

/** A writer's buffer between a take and the next write. */
const NO_BYTES = Buffer.alloc(0);

export class JsonBytes {
  buf: Buffer;
  pos = 0;

  /** `sizeHint`: the bytes the encoder expects the whole answer to take (a guess; it may grow). */
  constructor(sizeHint = CHUNK_BYTES) {
    this.buf = carve(Math.min(CHUNK_BYTES, Math.max(0, sizeHint)) + SMALL_SLACK);
  }

  get isFull(): boolean {
    return this.pos >= CHUNK_BYTES;
  }

  /** The bytes written since the last take; the writer continues in a fresh buffer. */
  take(): Uint8Array {
    const out = this.buf.subarray(0, this.pos);
    this.buf = NO_BYTES;
    this.pos = 0;
    return out;
  }

  /** Room for n more bytes: a new chunk after a take, a bigger buffer when the guess was short. */
  reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    if (this.pos === 0) {
      this.buf = carve(Math.max(CHUNK_BYTES + SLACK, n));
      return;
    }
    const bigger = carve(Math.max(this.buf.length * 2, this.pos + n + SLACK));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }

  byte(c: number): void {
    this.reserve(1);
    this.buf[this.pos++] = c;
  }

  /** Text known to be ASCII (keys, numbers as JS prints them, base64). */
  ascii(s: string): void {
    const n = s.length;
    this.reserve(n);
    const { buf } = this;
    let p = this.pos;
    if (n > 64) p += buf.write(s, p, 'latin1');
    else for (let i = 0; i < n; i++) buf[p++] = s.charCodeAt(i);
    this.pos = p;
  }

  /** Any text as UTF-8 (JSON.stringify output: lone surrogates already escaped). */
  text(s: string): void {
    const n = s.length;
    this.reserve(n * 3);
    const { buf } = this;
    let p = this.pos;
    if (n <= 32) {
      for (let i = 0; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) {
          this.pos += buf.write(s, this.pos, 'utf8');
          return;
        }
        buf[p++] = c;
      }
      this.pos = p;
    } else {
      this.pos += buf.write(s, p, 'utf8');
    }
  }

  /** An integer with |n| < 2^53, as decimal digits. */
  int(n: number): void {
    this.reserve(20);
    if (n < 0) {
      this.buf[this.pos++] = 45; // '-'
      n = -n;
    }
    if (n < 4294967296) {
      this.uint32(n, 1);
      return;
    }
    const high = Math.floor(n / 1e9);
    this.uint32(high, 1);
    this.uint32(n - high * 1e9, 9);
  }

  /** A uint32 as at least `minDigits` digits (zero-padded). Caller reserved room. */
  uint32(n: number, minDigits: number): void {
    let digits = n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 1e4 ? 4 : n < 1e5 ? 5 : n < 1e6 ? 6 : n < 1e7 ? 7 : n < 1e8 ? 8 : n < 1e9 ? 9 : 10;
    if (digits < minDigits) digits = minDigits;
    const { buf } = this;
    let p = this.pos + digits;
    this.pos = p;
    while (n >= 100) {
      const q = Math.floor(n / 100);
      const r = (n - q * 100) * 2;
      buf[--p] = DIGIT_PAIRS[r + 1];
      buf[--p] = DIGIT_PAIRS[r];
      n = q;
    }
    if (n >= 10) {
      buf[--p] = DIGIT_PAIRS[2 * n + 1];
      buf[--p] = DIGIT_PAIRS[2 * n];
    } else {
      buf[--p] = 48 + n;
    }
    while (p > this.pos - digits) buf[--p] = 48;
  }
}
