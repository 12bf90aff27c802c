// A minimal protobuf wire-format reader over bytes: enough for Prometheus' remote storage
// messages (varints, length-delimited fields, fixed64 doubles), reading fields in place without
// building message objects. Malformed input throws ProtoError.

export class ProtoError extends Error {}

export class ProtoReader {
  pos: number;
  private readonly view: DataView;

  constructor(readonly bytes: Uint8Array, start = 0, readonly end = bytes.length) {
    this.pos = start;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** A field's key: field number × 8 + wire type. */
  tag(): number {
    return this.varint();
  }

  /** A varint up to 2^53 (larger ones lose low bits; int64 fields use int64()). */
  varint(): number {
    const b = this.bytes;
    let result = 0;
    let shift = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtoError('truncated varint');
      const byte = b[this.pos++];
      result += (byte & 0x7f) * shift;
      if (byte < 0x80) return result;
      shift *= 128;
    }
    throw new ProtoError('varint over 10 bytes');
  }

  /** An int64 varint (two's complement over 10 bytes for negatives) as a number (ms fit exactly). */
  int64(): number {
    const start = this.pos;
    const v = this.varint();
    // Negative values take 10 bytes with the top bit set: read them again as a BigInt.
    if (this.pos - start < 10) return v;
    let big = 0n;
    for (let i = this.pos - 1; i >= start; i--) big = (big << 7n) | BigInt(this.bytes[i] & 0x7f);
    return Number(BigInt.asIntN(64, big));
  }

  double(): number {
    if (this.pos + 8 > this.end) throw new ProtoError('truncated double');
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** Content of the embedded message next() stopped at: [from, to). */
  from = 0;
  to = 0;

  /**
   * Moves to the next length-delimited field number `field`, skipping other fields; its content
   * is then [from, to). False at the end of the message.
   */
  next(field: number): boolean {
    const want = field * 8 + 2;
    while (!this.done) {
      const tag = this.tag();
      if (tag === want) {
        [this.from, this.to] = this.delimited();
        return true;
      }
      this.skip(tag & 7);
    }
    return false;
  }

  /** The [start, end) of a length-delimited field's content, skipped over. */
  delimited(): [number, number] {
    const n = this.varint();
    const start = this.pos;
    if (n > this.end - start) throw new ProtoError('length-delimited field runs past its message');
    this.pos = start + n;
    return [start, this.pos];
  }

  /** Skips a field of wire type `type`. */
  skip(type: number): void {
    switch (type) {
      case 0: this.varint(); break;
      case 1: this.pos += 8; break;
      case 2: this.delimited(); break;
      case 5: this.pos += 4; break;
      default: throw new ProtoError(`unsupported wire type ${type}`);
    }
    if (this.pos > this.end) throw new ProtoError('field runs past its message');
  }
}

/** Appends protobuf fields to a growing buffer (the remote-read answer). */
export class ProtoWriter {
  private buf = new Uint8Array(1024);
  private at = 0;

  get length(): number {
    return this.at;
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.at);
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.at + n));
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
  }

  varint(v: number): void {
    this.room(10);
    while (v >= 0x80) {
      this.buf[this.at++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.at++] = v;
  }

  /** An int64 field value (negative ones as 10-byte two's complement). */
  int64(v: number): void {
    if (v >= 0) return this.varint(v);
    let big = BigInt.asUintN(64, BigInt(v));
    this.room(10);
    while (big >= 0x80n) {
      this.buf[this.at++] = Number(big & 0x7fn) | 0x80;
      big >>= 7n;
    }
    this.buf[this.at++] = Number(big);
  }

  double(v: number): void {
    this.room(8);
    new DataView(this.buf.buffer, this.buf.byteOffset).setFloat64(this.at, v, true);
    this.at += 8;
  }

  bytes(b: Uint8Array): void {
    this.varint(b.length);
    this.room(b.length);
    this.buf.set(b, this.at);
    this.at += b.length;
  }

  /** A length-delimited field written by `body`: its length is patched in afterwards. */
  message(field: number, body: () => void): void {
    this.varint(field * 8 + 2);
    this.room(5);
    const lengthAt = this.at;
    this.at += 5; // a fixed 5-byte varint slot, filled below
    body();
    let n = this.at - lengthAt - 5;
    for (let i = 0; i < 4; i++) {
      this.buf[lengthAt + i] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buf[lengthAt + 4] = n;
  }
}
