// Thrift's compact protocol, the writing half Parquet needs for its page headers and footer:
// structs of fields (i32, i64, bool, binary/string, list, struct), each field header carrying
// the delta from the previous field id and the type in one byte where it fits. (Parquet's
// format: parquet.thrift; the encoding: Thrift's compact protocol specification.)

const BOOL_TRUE = 1;
const BOOL_FALSE = 2;
const I8 = 3;
const I32 = 5;
const I64 = 6;
const BINARY = 8;
const LIST = 9;
const STRUCT = 12;

/** A struct to write: its fields by id; undefined fields are left out. */
export type ThriftStruct = { readonly [id: number]: ThriftValue | undefined };
export type ThriftValue =
  | { readonly t: 'i8' | 'i32'; readonly v: number }
  | { readonly t: 'i64'; readonly v: number | bigint }
  | { readonly t: 'bool'; readonly v: boolean }
  | { readonly t: 'binary'; readonly v: string | Uint8Array }
  | { readonly t: 'struct'; readonly v: ThriftStruct }
  | { readonly t: 'list'; readonly elem: 'i32' | 'binary' | 'struct'; readonly v: readonly (number | string | Uint8Array | ThriftStruct)[] };

export const i8 = (v: number): ThriftValue => ({ t: 'i8', v });
export const i32 = (v: number): ThriftValue => ({ t: 'i32', v });
export const i64 = (v: number | bigint): ThriftValue => ({ t: 'i64', v });
export const bool = (v: boolean): ThriftValue => ({ t: 'bool', v });
export const binary = (v: string | Uint8Array): ThriftValue => ({ t: 'binary', v });
export const struct = (v: ThriftStruct): ThriftValue => ({ t: 'struct', v });
export const list = (elem: 'i32' | 'binary' | 'struct', v: readonly (number | string | Uint8Array | ThriftStruct)[]): ThriftValue => ({ t: 'list', elem, v });

/** The compact encoding of `s`. */
export function encodeStruct(s: ThriftStruct): Uint8Array {
  const out = new ByteOut();
  writeStruct(out, s);
  return out.bytes();
}

class ByteOut {
  private buf = new Uint8Array(256);
  private at = 0;

  byte(b: number): void {
    if (this.at === this.buf.length) this.grow(1);
    this.buf[this.at++] = b;
  }

  varint(n: bigint): void {
    let v = BigInt.asUintN(64, n);
    while (v >= 0x80n) {
      this.byte(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.byte(Number(v));
  }

  /** An unsigned varint of a number below 2^31 (lengths, sizes), without a BigInt. */
  smallVarint(n: number): void {
    while (n >= 0x80) {
      this.byte((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    this.byte(n);
  }

  zigzag(n: number | bigint): void {
    if (typeof n === 'number' && n >= -(2 ** 30) && n < 2 ** 30) {
      this.smallVarint(n >= 0 ? n * 2 : -n * 2 - 1);
      return;
    }
    const b = BigInt(n);
    this.varint((b << 1n) ^ (b >> 63n));
  }

  raw(bytes: Uint8Array): void {
    if (this.at + bytes.length > this.buf.length) this.grow(bytes.length);
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
  }

  bytes(): Uint8Array {
    return this.buf.subarray(0, this.at);
  }

  private grow(n: number): void {
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.at + n));
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
  }
}

const TYPE_IDS = { i8: I8, i32: I32, i64: I64, binary: BINARY, list: LIST, struct: STRUCT } as const;

function writeStruct(out: ByteOut, s: ThriftStruct): void {
  let last = 0;
  const ids = Object.keys(s).map(Number).filter((id) => s[id] !== undefined).sort((a, b) => a - b);
  for (const id of ids) {
    const value = s[id]!;
    const type = value.t === 'bool' ? (value.v ? BOOL_TRUE : BOOL_FALSE) : TYPE_IDS[value.t];
    const delta = id - last;
    if (delta > 0 && delta <= 15) out.byte((delta << 4) | type);
    else {
      out.byte(type);
      out.zigzag(id);
    }
    last = id;
    if (value.t !== 'bool') writeValue(out, value);
  }
  out.byte(0);
}

function writeValue(out: ByteOut, value: Exclude<ThriftValue, { t: 'bool' }>): void {
  switch (value.t) {
    case 'i8': out.byte(value.v & 0xff); return;
    case 'i32':
    case 'i64': out.zigzag(value.v); return;
    case 'binary': {
      const bytes = typeof value.v === 'string' ? Buffer.from(value.v, 'utf8') : value.v;
      out.smallVarint(bytes.length);
      out.raw(bytes);
      return;
    }
    case 'struct': writeStruct(out, value.v); return;
    case 'list': {
      const elem = TYPE_IDS[value.elem];
      if (value.v.length < 15) out.byte((value.v.length << 4) | elem);
      else {
        out.byte(0xf0 | elem);
        out.smallVarint(value.v.length);
      }
      for (const item of value.v) {
        if (value.elem === 'i32') out.zigzag(item as number);
        else if (value.elem === 'binary') writeValue(out, { t: 'binary', v: item as string | Uint8Array });
        else writeStruct(out, item as ThriftStruct);
      }
    }
  }
}
