// Types of snappyjs (raw snappy block format, as Prometheus remote storage uses), which ships none.
declare module 'snappyjs' {
  export function uncompress(compressed: Uint8Array, maxLength?: number): Uint8Array;
  export function compress(uncompressed: Uint8Array): Uint8Array;
}
