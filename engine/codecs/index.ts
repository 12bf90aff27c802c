// The codecs: each a pure pair encode(typed array) → bytes, decode(bytes, into) over blocks of
// BLOCK values, choosing per block by measured size. Only the checkpoint writer and its read-back
// call them (engine/durability/checkpoint/column-codec.ts); no executor code sees encoded bytes.
// Decoding is a pure function of bytes into a given buffer, so it may run on any thread.
export { BLOCK } from './delta-for.js';
export { ByteReader, ByteWriter, encoded } from './byte-stream.js';
export { decodeBitmap, encodeBitmap, encodeBitmapInto } from './bitmap-codec.js';
export { decodeFloat64, encodeFloat64, encodeFloat64Into, isFloat64Compressible } from './float64-codec.js';
export { decodeInt32, encodeInt32, encodeInt32Into } from './int32-codec.js';
export { decodeInt64, encodeInt64, encodeInt64Into } from './int64-codec.js';
export { decodeBytes, encodeBytes, encodeBytesInto } from './zstd-codec.js';
export { decodeSeriesOrder, encodeSeriesOrder, seriesMajor, seriesOf } from './series-order.js';
export type { SeriesOrder } from './series-order.js';
