// Parsed statements by query text, most recently used kept: a dashboard sends the same few
// queries again and again, and parsing (the Earley parser) is most of a small query's fixed cost.
// Sharing an AST between runs is safe: ASTs are immutable (every field readonly, and nothing in
// the engine writes to them), and they hold no instant that depends on when they were parsed —
// `now`, `today`, … stay relative and are resolved with each run's own `now` by the planner.
// Only statements that are commonly repeated are kept (not INSERT, whose texts carry their
// values), and only short texts, so the cache stays small.
import { parseShaped } from '../../grammar/index.js';
import type { Statement } from '../../grammar/index.js';

const MAX_ENTRIES = 256;
const MAX_TEXT_LENGTH = 4096;

/** Map iteration order is insertion order: the first key is the least recently used. */
const cache = new Map<string, Statement>();
let lastText = '';
let lastAst: Statement | null = null;

/** `parse(text)`, answered from the cache when the same text was parsed recently. */
export function parseCached(text: string): Statement {
  // The same query as the last one (a polling client) needs no reordering of the cache.
  if (text === lastText && lastAst !== null) return lastAst;
  const hit = cache.get(text);
  if (hit !== undefined) {
    cache.delete(text);
    cache.set(text, hit);
    remember(text, hit);
    return hit;
  }
  // A text not seen may still have the shape of one seen (new literals): grammar/parse-shape.ts.
  const ast = parseShaped(text);
  if (text.length <= MAX_TEXT_LENGTH && ast.kind !== 'Insert') {
    // A tree is kept from a text's second sighting: a dashboard whose range moves at every
    // refresh sends texts that never come back, and keeping each one's tree (and plan) for 256
    // queries made the garbage collector carry them; its shape serves them anyway.
    if (seenOnce.delete(text)) {
      if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
      cache.set(text, ast);
      Object.defineProperty(ast, KEPT, { value: true });
    } else {
      if (seenOnce.size >= MAX_ENTRIES) seenOnce.delete(seenOnce.keys().next().value!);
      seenOnce.add(text);
    }
    remember(text, ast);
  }
  return ast;
}

/** Texts parsed once lately (least recent first), not yet worth a cache entry. */
const seenOnce = new Set<string>();

/** Marks (not enumerable) the trees the cache keeps. */
const KEPT = Symbol('kept');

/**
 * Whether `ast` is a tree this cache keeps, which later runs of its text get again: only those
 * are worth keeping something for (plan/plan-cache.ts), a tree of a text seen once is not.
 */
export function isKeptTree(ast: Statement): boolean {
  return (ast as Statement & { [KEPT]?: boolean })[KEPT] === true;
}

function remember(text: string, ast: Statement): void {
  lastText = text;
  lastAst = ast;
}
