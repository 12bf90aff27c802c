// A test on SYMBOL values decided once per dictionary entry instead of once per row (regex,
// equality, ordering against a constant). Dictionaries are table-wide and only grow, so a
// cached answer stays valid for the entries it covers; new entries are tested when they appear.
// Answers are kept by plan node: a node is immutable and always makes the same test, so its
// answers serve every run of its plan (plans are cached), whichever scratch the run has.
const cache = new WeakMap<object, { dictionary: readonly string[]; flags: Uint8Array }>();

export function dictionaryFlags(node: object, dictionary: readonly string[], test: (s: string) => boolean): Uint8Array {
  const hit = cache.get(node);
  if (hit !== undefined && hit.dictionary === dictionary) return hit.flags;
  const flags = new Uint8Array(dictionary.length);
  for (let d = 0; d < dictionary.length; d++) flags[d] = test(dictionary[d]) ? 1 : 0;
  cache.set(node, { dictionary, flags });
  return flags;
}
