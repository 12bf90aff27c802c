// What a manifest records of a data file to check it: its size and checksum, and for a table
// file its regions (Arrow IPC files of versions 2–5: one per batch; column files: the head, then
// the rest) with a checksum of each region a reader reads whole.

export interface FileSum {
  readonly size: number;
  readonly crc: number;
}

export interface RegionFileSum extends FileSum {
  /** End offset of each region (an Arrow file: batch i's is ends[i], the last the end-of-stream marker's). */
  readonly ends: number[];
  /**
   * Checksum of each region's bytes, for those read whole (an Arrow file's first and last — crc32c —
   * or a column file's head — CRC-32); 0 for the others, whose columns carry their own checksums.
   * A file checksum (FileSum.crc) of 0: no reader reads the whole file.
   */
  readonly crcs: number[];
}
