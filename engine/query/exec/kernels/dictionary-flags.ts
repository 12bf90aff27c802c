// A test on SYMBOL values decided once per dictionary entry instead of once per row (regex,
// equality, ordering against a constant). Dictionaries are table-wide and only grow, so a
// cached answer stays valid for the entries it covers; new entries are tested when they appear.
import type { Frame } from '../scan/frame.js';

const cache = new WeakMap<Frame['scratch'], Map<number, { dictionary: readonly string[]; flags: Uint8Array }>>();

export function dictionaryFlags(
  frame: Frame, nodeId: number, dictionary: readonly string[], test: (s: string) => boolean,
): Uint8Array {
  let byNode = cache.get(frame.scratch);
  if (byNode === undefined) { byNode = new Map(); cache.set(frame.scratch, byNode); }
  const hit = byNode.get(nodeId);
  if (hit !== undefined && hit.dictionary === dictionary) return hit.flags;
  const flags = new Uint8Array(dictionary.length);
  for (let d = 0; d < dictionary.length; d++) flags[d] = test(dictionary[d]) ? 1 : 0;
  byNode.set(nodeId, { dictionary, flags });
  return flags;
}
