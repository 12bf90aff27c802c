// The parse-shape cache: a dashboard sends the same queries again and again with new time
// literals and numbers. Two texts whose tokens differ only in their literals (numbers, strings,
// time points, durations, times of day) parse to the same tree shape, since the grammar tells
// tokens apart by kind and never by a literal's value. So the first parse of a shape is kept with
// its literal slots (where each literal token's value went in the tree), and a text of the same
// shape gets a copy of that tree with the new tokens' offsets and each slot rebuilt from the new
// token by the builder the grammar used: no Earley parse, and the same checks (a year outside the
// representable range, a LIMIT that is not whole) fail the same way. A shape whose literals are
// not all found in slots, or whose copy would differ from its own parse, is parsed every time.
import type { Node, Select, Statement } from './ast.js';
import * as b from './build.js';
import { formatExpr } from './format-expr.js';
import type { Token } from './lexer.js';
import { checkToken, tokenize } from './lexer.js';
import { parse } from './parse.js';

/** The literal token kinds, each with the character that stands for it in a shape key. */
const LITERAL_MARKS: ReadonlyMap<string, string> = new Map([
  ['number', '\u0002'], ['string', '\u0003'], ['datetime', '\u0004'], ['duration', '\u0005'], ['timeOfDay', '\u0006'],
]);
/** Shapes kept (least recently used first out). */
const MAX_SHAPES = 256;

type Path = readonly (string | number)[];

interface Slot {
  readonly path: Path;
  /** The index of the literal token the slot's value is made from. */
  readonly token: number;
  /** The slot's value from the text's tokens. */
  readonly build: (tokens: readonly Token[]) => unknown;
}

/**
 * What the plan cache may know of a statement's shape (engine/query/plan/plan-cache.ts): one
 * object for every text of the shape, and the clauses of the SELECT its literals lie in.
 */
export interface LiteralShape {
  /** The top-level fields of the Select holding literal slots (`ranges`, `where`, `limit`, …). */
  readonly clauses: ReadonlySet<string>;
}

interface Shape extends LiteralShape {
  readonly ast: Statement;
  /** Token index of each offset in the tree. */
  readonly tokenAt: ReadonlyMap<number, number>;
  /** The offsets of the first text's tokens. */
  readonly offsets: Int32Array;
  readonly slots: readonly Slot[];
}

/** A kept shape (null: one that is parsed every time) and when it was last used. */
interface Entry {
  readonly shape: Shape | null;
  used: number;
}

/** Shapes by key. A hit only stamps its entry (no reinsertion, which would hash the key again). */
const shapes = new Map<string, Entry>();
let clock = 0;
/**
 * The shape a tree was made from (or parsed as its first text), on the tree itself under a key no
 * one else has, not enumerable (comparisons of trees never see it): a WeakMap entry per tree
 * made the garbage collector trace one more ephemeron for every dashboard refresh.
 */
const SHAPE = Symbol('shape');

function markShape(tree: Statement, shape: Shape): void {
  Object.defineProperty(tree, SHAPE, { value: shape });
}

/** The kept shape `ast` came from (the same object for every text of that shape), or null. */
export function literalShapeOf(ast: Statement): LiteralShape | null {
  return (ast as Statement & { [SHAPE]?: Shape })[SHAPE] ?? null;
}

/** `parse(text)`, answered from a kept shape when a text of the same shape was parsed before. */
export function parseShaped(text: string): Statement {
  const recent = recentByLength.get(text.length);
  const edited = recent === undefined ? null : digitEdited(recent, text);
  if (edited !== null) return fromShape(recent!.entry, text, edited.tokens, { tree: recent!.tree, changed: edited.changed });
  let tokens: Token[];
  try {
    tokens = tokenize(text);
  } catch {
    // A bad token: the Earley parse reports what it meets first (it lexes as it goes).
    return parse(text);
  }
  const key = shapeKey(tokens);
  const entry = shapes.get(key);
  if (entry !== undefined) return entry.shape === null ? parse(text) : fromShape(entry, text, tokens);
  const ast = parse(text);
  // Other statements are not kept: INSERT texts carry their values, and the rest are rare.
  if (ast.kind !== 'Select') return ast;
  if (shapes.size >= MAX_SHAPES) evictLeastRecent();
  const shape = shapeOf(ast, tokens);
  const kept: Entry = { shape, used: ++clock };
  shapes.set(key, kept);
  if (shape !== null) {
    markShape(ast, shape);
    rememberRecent(text, tokens, kept, ast);
  }
  return ast;
}

/** The tree of a text whose tokens have a kept shape's key (`edit`: digits changed from a recent tree). */
function fromShape(entry: Entry, text: string, tokens: readonly Token[], edit: Edit | null = null): Statement {
  entry.used = ++clock;
  const tree = instantiate(entry.shape!, tokens, edit);
  markShape(tree, entry.shape!);
  rememberRecent(text, tokens, entry, tree);
  return tree;
}

// A dashboard's refresh moves its time range: the new text is the last one with some digits of
// its literals changed. Such a text has the same tokens (a digit for a digit inside a number, a
// time, a duration or a string changes neither a token's kind nor its bounds), so it is cut by
// reusing the last text's tokens, new ones only where digits changed (checked as the lexer checks
// them): a refresh then costs no lexing. Any other difference takes the lexer.

/** The last text of each length that had a kept shape, with its tokens. */
interface Recent {
  readonly text: string;
  readonly tokens: readonly Token[];
  readonly entry: Entry;
  /** The text's tree: a digit edit rebuilds only the slots whose tokens changed. */
  readonly tree: Statement;
}

/** A text cut from a recent one: its tree, and the indexes of the tokens whose digits changed. */
interface Edit {
  readonly tree: Statement;
  readonly changed: ReadonlySet<number>;
}

const recentByLength = new Map<number, Recent>();
/** Lengths remembered (least recently used first out). */
const MAX_RECENT = 64;
/** Token kinds whose digits may change. */
const DIGIT_EDITABLE: ReadonlySet<string> = new Set(['number', 'datetime', 'duration', 'timeOfDay', 'string']);

function rememberRecent(text: string, tokens: readonly Token[], entry: Entry, tree: Statement): void {
  recentByLength.delete(text.length);
  if (recentByLength.size >= MAX_RECENT) recentByLength.delete(recentByLength.keys().next().value!);
  recentByLength.set(text.length, { text, tokens, entry, tree });
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * The tokens of `text` when it differs from `recent.text` (of the same length) only by digits
 * inside literal tokens, each changed token valid; else null.
 */
function digitEdited(recent: Recent, text: string): { tokens: Token[]; changed: Set<number> } | null {
  const old = recent.text;
  const olds = recent.tokens;
  const changed = new Set<number>();
  let t = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const o = old.charCodeAt(i);
    if (c === o) continue;
    if (!isDigit(c) || !isDigit(o)) return null;
    while (t < olds.length && olds[t].offset + olds[t].text.length <= i) t++;
    if (t === olds.length || olds[t].offset > i || !DIGIT_EDITABLE.has(olds[t].type!)) return null;
    changed.add(t);
  }
  const tokens = olds.slice();
  for (const k of changed) {
    const was = olds[k];
    const written = text.slice(was.offset, was.offset + was.text.length);
    const token: Token = { ...was, text: written, value: written };
    if (checkToken(token) !== null) return null;
    tokens[k] = token;
  }
  return { tokens, changed };
}

function evictLeastRecent(): void {
  let oldest: string | null = null;
  let oldestUse = Infinity;
  for (const [key, e] of shapes) {
    if (e.used < oldestUse) {
      oldest = key;
      oldestUse = e.used;
    }
  }
  if (oldest === null) return;
  const entry = shapes.get(oldest);
  shapes.delete(oldest);
  for (const [length, recent] of recentByLength) if (recent.entry === entry) recentByLength.delete(length);
}

/**
 * The tokens without their literals' text: equal for texts of one shape. Other tokens go by
 * their text, which fixes their kind (the lexer is a function of the text), each after a \u0001;
 * a literal is one mark character of its kind.
 */
export function shapeKey(tokens: readonly Token[]): string {
  let key = '';
  for (const t of tokens) key += LITERAL_MARKS.get(t.type!) ?? `\u0001${t.text}`;
  return key;
}

/** The shape of a parsed SELECT, or null when its literals cannot all be rebound. */
function shapeOf(ast: Select, tokens: readonly Token[]): Shape | null {
  const tokenAt = new Map<number, number>();
  tokens.forEach((t, i) => tokenAt.set(t.offset, i));
  const slots: Slot[] = [];
  const covered = new Set<number>();
  const literal = (i: number, type: string): boolean => tokens[i]?.type === type;
  const add = (path: Path, build: Slot['build'], token: number): void => {
    slots.push({ path, build, token });
    covered.add(token);
  };
  let isComplete = true;
  const visit = (node: unknown, path: Path): void => {
    if (Array.isArray(node)) { node.forEach((x, i) => visit(x, [...path, i])); return; }
    if (typeof node !== 'object' || node === null) return;
    const n = node as Node & Record<string, unknown>;
    if (typeof n.kind === 'string' && typeof n.offset === 'number') {
      const i = tokenAt.get(n.offset);
      if (i === undefined) { isComplete = false; return; }
      const signed = tokens[i].type === 'op' && (tokens[i].text === '-' || tokens[i].text === '+');
      const sign = tokens[i].text;
      switch (n.kind) {
        case 'Number':
          if (literal(i, 'number')) return add(path, (ts) => b.number([ts[i]]), i);
          if (signed && literal(i + 1, 'number')) return add(path, (ts) => (sign === '-' ? b.negativeNumber : b.positiveNumber)([ts[i], ts[i + 1]]), i + 1);
          isComplete = false;
          return;
        case 'String':
          if (literal(i, 'string')) return add(path, (ts) => b.string([ts[i]]), i);
          isComplete = false;
          return;
        case 'TimePoint':
          if (literal(i, 'datetime')) return add(path, (ts) => b.absoluteTime([ts[i]]), i);
          if (literal(i, 'number')) return add(path, (ts) => b.year([ts[i]]), i);
          return;
        case 'Duration':
          if (literal(i, 'duration')) return add(path, (ts) => b.duration([ts[i]]), i);
          if (signed && literal(i + 1, 'duration')) {
            return add(path, (ts) => (sign === '-' ? b.negateDuration : b.positiveDuration)([ts[i], b.duration([ts[i + 1]])]), i + 1);
          }
          return;
        case 'TimeOfDay':
          if (literal(i, 'timeOfDay')) return add(path, (ts) => b.timeOfDay([ts[i]]), i);
          isComplete = false;
          return;
        case 'FindTag': {
          const at = i + (n.isNegated === true ? 3 : 2);
          if (literal(at, 'string')) add([...path, 'tag'], (ts) => b.string([ts[at]]).value, at);
          return;
        }
        default:
          break;
      }
    }
    for (const key of Object.keys(n)) visit(n[key], [...path, key]);
  };
  visit(ast, []);
  // LIMIT and OFFSET are plain numbers in the tree: their token follows the keyword.
  for (const [field, keyword] of [['limit', 'LIMIT'], ['rowOffset', 'OFFSET']] as const) {
    if (ast[field] === null) continue;
    const k = tokens.findIndex((t) => t.type === keyword);
    if (k < 0 || !literal(k + 1, 'number')) return null;
    add([field], (ts) => b.count([ts[k], ts[k + 1]]), k + 1);
  }
  if (!isComplete || tokens.some((t, i) => LITERAL_MARKS.has(t.type!) && !covered.has(i))) return null;
  const clauses = new Set(slots.map((slot) => String(slot.path[0])));
  const shape: Shape = { ast, tokenAt, offsets: Int32Array.from(tokens, (t) => t.offset), slots, clauses };
  // The copy made from the text's own tokens must be the parse itself.
  return isSameTree(instantiate(shape, tokens), ast) ? shape : null;
}

/**
 * The tree of `shape` for the text whose tokens are `tokens`. When every token sits where the
 * first text's did (literals of the same widths, the usual dashboard refresh), only the nodes on
 * the way to a slot are copied and the rest of the tree is shared (trees are immutable);
 * otherwise the whole tree is copied with the new offsets. A digit edit starts from the tree it
 * was cut from and rebuilds only the slots of the tokens that changed.
 */
function instantiate(shape: Shape, tokens: readonly Token[], edit: Edit | null = null): Statement {
  // A digit edit's tokens sit where its tree's do; otherwise compare with the shape's first text.
  let isSamePlaces = edit !== null || tokens.length === shape.offsets.length;
  for (let i = 0; edit === null && isSamePlaces && i < tokens.length; i++) isSamePlaces = tokens[i].offset === shape.offsets[i];
  const base = edit?.tree ?? shape.ast;
  const copy = (isSamePlaces ? { ...base } : cloneTree(shape.ast, (offset) => tokens[shape.tokenAt.get(offset)!].offset)) as Statement & Record<string, unknown>;
  const touched = new Set<unknown>();
  for (const slot of shape.slots) {
    // A slot whose token kept its text keeps the edited tree's value.
    if (edit !== null && !edit.changed.has(slot.token)) continue;
    let at: Record<string | number, unknown> = copy;
    for (let p = 0; p < slot.path.length - 1; p++) {
      const key = slot.path[p];
      if (isSamePlaces && !touched.has(at[key])) {
        const child = at[key];
        at[key] = Array.isArray(child) ? [...child] : { ...(child as object) };
        touched.add(at[key]);
      }
      at = at[key] as Record<string | number, unknown>;
    }
    at[slot.path[slot.path.length - 1]] = slot.build(tokens);
  }
  // Output names hold the literals (`(v*2)`): written afresh where a slot changed the item.
  const select = copy.kind === 'Select' ? copy : copy.kind === 'CreateView' ? copy.select : null;
  if (select !== null) {
    for (const c of select.columns) {
      if (c.kind !== 'SelectColumn' || (isSamePlaces && !touched.has(c))) continue;
      const text = formatExpr(c.expr);
      Object.assign(c, { text, name: c.alias ?? text });
    }
  }
  return copy;
}

const OFFSET_FIELDS: ReadonlySet<string> = new Set(['offset', 'nameOffset', 'tableOffset']);

function cloneTree(node: unknown, offsetOf: (offset: number) => number): unknown {
  if (Array.isArray(node)) return node.map((x) => cloneTree(x, offsetOf));
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const key in node) {
    const v = (node as Record<string, unknown>)[key];
    out[key] = OFFSET_FIELDS.has(key) && typeof v === 'number' ? offsetOf(v) : cloneTree(v, offsetOf);
  }
  return out;
}

function isSameTree(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return Number.isNaN(a) && Number.isNaN(b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => isSameTree((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
