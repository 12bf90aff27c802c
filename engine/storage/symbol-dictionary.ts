// A table-wide dictionary for one SYMBOL column. Every batch of the column stores indexes into
// this one dictionary, which only grows; that keeps indexes comparable across batches and lets a
// checkpoint write the column as one Arrow dictionary (the IPC file format forbids replacing it).
import { Utf8, vectorFromArray } from 'apache-arrow';
import type { Vector } from 'apache-arrow';

export class SymbolDictionary {
  private readonly ids = new Map<string, number>();
  private readonly strings: string[] = [];
  private vector: Vector | null = null;

  constructor(initial: readonly string[] = []) {
    for (const s of initial) this.idOf(s);
  }

  idOf(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.strings.length;
      this.ids.set(value, id);
      this.strings.push(value);
      this.vector = null;
    }
    return id;
  }

  get size(): number {
    return this.strings.length;
  }

  /** The dictionary as an Arrow vector, rebuilt only after it grew. */
  toVector(): Vector {
    this.vector ??= vectorFromArray(this.strings.slice(), new Utf8());
    return this.vector;
  }
}
