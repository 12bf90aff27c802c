// The codecs: each a pure pair encode(typed array) → bytes, decode(bytes, into) over blocks of
// BLOCK values, choosing per block by measured size. Only the checkpoint writer and its read-back
// call them (engine/durability/checkpoint/column-codec.ts); no executor code sees encoded bytes.
// Decoding is a pure function of bytes into a given buffer, so it may run on any thread.
export { BLOCK } from './delta-for.js';
export { decodeBitmap, encodeBitmap } from './bitmap-codec.js';
export { decodeFloat64, encodeFloat64 } from './float64-codec.js';
export { decodeInt32, encodeInt32 } from './int32-codec.js';
export { decodeInt64, encodeInt64 } from './int64-codec.js';
export { decodeBytes, encodeBytes } from './zstd-codec.js';
