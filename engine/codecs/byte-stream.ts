// The byte layout every codec writes and reads: a growable little-endian buffer of fixed-width
// fields and 4-byte-aligned runs of 32-bit words (bit-packed values are read in place as a
// Uint32Array over the encoded bytes, never copied). Encoded bytes are always decoded from a
// buffer that starts 8-byte aligned in its ArrayBuffer, so an aligned offset in the stream is an
// aligned offset in memory. Typed arrays use the machine's byte order: svc runs on
// little-endian machines only (x86-64, arm64), which the module checks once.
if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('svc codecs need a little-endian machine');

export class ByteWriter {
  private bytes: Uint8Array;
  private view: DataView;
  length = 0;

  constructor(capacity = 1024) {
    this.bytes = new Uint8Array(capacity);
    this.view = new DataView(this.bytes.buffer);
  }

  /** Room for `n` more bytes. */
  private reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }

  u8(v: number): void {
    this.reserve(1);
    this.bytes[this.length++] = v;
  }

  u16(v: number): void {
    this.reserve(2);
    this.view.setUint16(this.length, v, true);
    this.length += 2;
  }

  u32(v: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, v >>> 0, true);
    this.length += 4;
  }

  f64(v: number): void {
    this.reserve(8);
    this.view.setFloat64(this.length, v, true);
    this.length += 8;
  }

  /** Zero bytes up to a multiple of `n` (4 or 8). */
  align(n: number): void {
    const pad = (n - (this.length % n)) % n;
    this.reserve(pad);
    this.bytes.fill(0, this.length, this.length + pad);
    this.length += pad;
  }

  /** `n` zeroed 32-bit words at an aligned offset, to fill in place (bit packing). */
  words(n: number): Uint32Array {
    this.align(4);
    this.reserve(n * 4);
    this.bytes.fill(0, this.length, this.length + n * 4);
    const out = new Uint32Array(this.bytes.buffer, this.length, n);
    this.length += n * 4;
    return out;
  }

  raw(src: Uint8Array): void {
    this.reserve(src.length);
    this.bytes.set(src, this.length);
    this.length += src.length;
  }

  /**
   * A part: u32 length, zeros to 8, what `write` appends, zeros to 8 — so the part starts 8-byte
   * aligned (ByteReader.part reads it).
   */
  part(write: (out: ByteWriter) => void): void {
    this.reserve(4);
    const at = this.length;
    this.length += 4;
    this.align(8);
    const start = this.length;
    write(this);
    this.view.setUint32(at, this.length - start, true);
    this.align(8);
  }

  /** The bytes written (a copy: the writer may be reused). */
  finish(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }

  /** Empties the writer, keeping its memory. */
  reset(): this {
    this.length = 0;
    return this;
  }
}

const shared = new ByteWriter(1 << 16);
let isSharedInUse = false;

/**
 * The bytes `write` appends to a writer (one reused writer: encoding allocates only its result;
 * a fresh writer per column made V8 collect hundreds of KB per column of a checkpoint).
 */
export function encoded(write: (out: ByteWriter) => void): Uint8Array {
  if (isSharedInUse) {
    const out = new ByteWriter();
    write(out);
    return out.finish();
  }
  isSharedInUse = true;
  try {
    write(shared);
    return shared.finish();
  } finally {
    shared.reset();
    isSharedInUse = false;
  }
}

export class ByteReader {
  private readonly view: DataView;
  at = 0;

  /** `bytes` must start 8-byte aligned in its buffer (see the header). */
  constructor(readonly bytes: Uint8Array) {
    if (bytes.byteOffset % 8 !== 0) throw new Error('encoded bytes must start 8-byte aligned');
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private need(n: number): number {
    const at = this.at;
    if (at + n > this.bytes.length) throw new RangeError(`encoded column ends at byte ${this.bytes.length}, before ${at + n}`);
    this.at = at + n;
    return at;
  }

  u8(): number {
    return this.bytes[this.need(1)];
  }

  u16(): number {
    return this.view.getUint16(this.need(2), true);
  }

  u32(): number {
    return this.view.getUint32(this.need(4), true);
  }

  f64(): number {
    return this.view.getFloat64(this.need(8), true);
  }

  align(n: number): void {
    this.need((n - (this.at % n)) % n);
  }

  /** `n` 32-bit words in place (no copy). */
  words(n: number): Uint32Array {
    this.align(4);
    const at = this.need(n * 4);
    return new Uint32Array(this.bytes.buffer, this.bytes.byteOffset + at, n);
  }

  raw(n: number): Uint8Array {
    const at = this.need(n);
    return this.bytes.subarray(at, at + n);
  }

  /** A part ByteWriter.part wrote (8-byte aligned). */
  part(): Uint8Array {
    const n = this.u32();
    this.align(8);
    const bytes = this.raw(n);
    this.align(8);
    return bytes;
  }

  get isDone(): boolean {
    return this.at === this.bytes.length;
  }
}
