// Lists built while parsing (select items, VALUES rows, arguments, …) without quadratic copying.
//
// An Earley parser completes a list rule after every item, so a postprocessor that copied the
// list on each append would cost O(n²) (a 10,000-row INSERT took seconds, mostly in GC). Here an
// append pushes onto its prefix's array when that prefix is the whole array (the linear case) and
// copies only when another parse already extended the same prefix.
//
// Invariant that makes sharing safe: in this grammar a list is never followed by its own
// separator in the context that consumes it (lists end at ')', ']', a keyword or the end of the
// statement), so a parse that consumed a list and a parse that extended it cannot both survive.

/** A list as seen by one parse: the first `length` items of a shared array. */
export interface ListView<T> {
  readonly array: T[];
  readonly length: number;
}

/** A one-item list. */
export function startList<T>(item: T): ListView<T> {
  return { array: [item], length: 1 };
}

/** `view` plus one item; O(1) unless this prefix was already extended by another parse. */
export function extendList<T>(view: ListView<T>, item: T): ListView<T> {
  const array = view.length === view.array.length ? view.array : view.array.slice(0, view.length);
  array.push(item);
  return { array, length: view.length + 1 };
}

/** The items of a view, as the AST stores them. */
export function listItems<T>(view: ListView<T>): T[] {
  return view.length === view.array.length ? view.array : view.array.slice(0, view.length);
}
