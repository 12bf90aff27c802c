// A hash map keyed by byte ranges of a request body, so a parser can find the series or field a
// key names without making a string of it: open addressing over an FNV-1a hash the caller
// computes while it scans the key, keys copied into one arena. Bounded: past `maxEntries` it is
// emptied (it is a cache; callers rebuild what they miss).

export const FNV_OFFSET = 0x811c9dc5 | 0;

export function fnvHash(b: Uint8Array, s: number, e: number): number {
  let h = FNV_OFFSET;
  for (let i = s; i < e; i++) h = Math.imul(h ^ b[i], 16777619);
  return h;
}

export class BytesMap<V> {
  private slots: Int32Array;
  private mask: number;
  private hashes: Int32Array = new Int32Array(64);
  private starts: Int32Array = new Int32Array(64);
  private lengths: Int32Array = new Int32Array(64);
  private values: V[] = [];
  private arena: Uint8Array = new Uint8Array(4096);
  private used = 0;
  private count = 0;

  constructor(private readonly maxEntries = 1 << 20) {
    this.slots = new Int32Array(128).fill(-1);
    this.mask = 127;
  }

  get size(): number {
    return this.count;
  }

  /** The value stored under b[s..e) (whose hash is `h`), or undefined. */
  get(b: Uint8Array, s: number, e: number, h: number): V | undefined {
    const n = e - s;
    const slots = this.slots;
    let i = h & this.mask;
    for (;;) {
      const k = slots[i];
      if (k < 0) return undefined;
      if (this.hashes[k] === h && this.lengths[k] === n && this.sameBytes(b, s, this.starts[k], n)) return this.values[k];
      i = (i + 1) & this.mask;
    }
  }

  /** Stores `value` under b[s..e) (not present yet; `h` its hash). */
  set(b: Uint8Array, s: number, e: number, h: number, value: V): void {
    if (this.count >= this.maxEntries) this.clear();
    const n = e - s;
    if (this.used + n > this.arena.length) {
      const arena = new Uint8Array(Math.max(this.arena.length * 2, this.used + n));
      arena.set(this.arena.subarray(0, this.used));
      this.arena = arena;
    }
    this.arena.set(b.subarray(s, e), this.used);
    const k = this.count++;
    if (k >= this.hashes.length) this.growEntries();
    this.hashes[k] = h;
    this.starts[k] = this.used;
    this.lengths[k] = n;
    this.values[k] = value;
    this.used += n;
    if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(k);
  }

  clear(): void {
    this.slots.fill(-1);
    this.values = [];
    this.used = 0;
    this.count = 0;
  }

  private sameBytes(b: Uint8Array, s: number, at: number, n: number): boolean {
    const arena = this.arena;
    for (let j = 0; j < n; j++) if (b[s + j] !== arena[at + j]) return false;
    return true;
  }

  private place(k: number): void {
    let i = this.hashes[k] & this.mask;
    while (this.slots[i] >= 0) i = (i + 1) & this.mask;
    this.slots[i] = k;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    for (let k = 0; k < this.count; k++) this.place(k);
  }

  private growEntries(): void {
    const size = this.hashes.length * 2;
    const grow = (a: Int32Array): Int32Array => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.hashes = grow(this.hashes);
    this.starts = grow(this.starts);
    this.lengths = grow(this.lengths);
  }
}
