// Sizes the durability code reads and writes files in. They are a mutable object (not options)
// only so tests can make them tiny and drive the paths that files of many gigabytes take —
// frames straddling read chunks, a checkpoint split over many files — without writing gigabytes.
// Nothing in the engine changes them.
export const ioLimits = {
  /** Bytes read from a WAL segment or checkpoint file per read call. */
  readChunkBytes: 4 * 1024 * 1024,
  /** A checkpoint data file is closed once it holds about this many bytes (Node's Buffer cap is 2 GiB). */
  checkpointFileBytes: 256 * 1024 * 1024,
};
