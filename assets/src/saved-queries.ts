// Queries kept in the browser: the history of runs (the last 50, newest first) and named saved
// queries with their time range. Both live in localStorage, so they survive reloads and belong to
// this browser only. The toolbar's pickers and the Save dialog are built here too.
import { el } from './dom.js';

const HISTORY_KEY = 'svc.history';
const HISTORY_MAX = 50;
const SAVED_KEY = 'svc.saved';

export interface SavedQuery {
  readonly name: string;
  readonly query: string;
  /** The time range as the URL writes it ('' = the query's own). */
  readonly range: string;
}

function read<T>(key: string, isItem: (v: unknown) => v is T): T[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    return Array.isArray(v) ? v.filter(isItem) : [];
  } catch {
    return [];
  }
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isSaved = (v: unknown): v is SavedQuery => typeof v === 'object' && v !== null
  && typeof (v as SavedQuery).name === 'string' && typeof (v as SavedQuery).query === 'string' && typeof (v as SavedQuery).range === 'string';

export function loadHistory(): string[] {
  return read(HISTORY_KEY, isString);
}

/** Puts `query` first in the history (once) and returns the history. */
export function remember(query: string): string[] {
  const history = [query, ...loadHistory().filter((q) => q !== query)].slice(0, HISTORY_MAX);
  localStorage.setItem(HISTORY_KEY, JSON.stringify(history));
  return history;
}

export function loadSaved(): SavedQuery[] {
  return read(SAVED_KEY, isSaved);
}

/** Saves (or replaces, by name) a query; the list stays sorted by name. */
export function saveQuery(q: SavedQuery): SavedQuery[] {
  const list = [...loadSaved().filter((s) => s.name !== q.name), q].sort((a, b) => a.name.localeCompare(b.name));
  localStorage.setItem(SAVED_KEY, JSON.stringify(list));
  return list;
}

export function deleteSaved(name: string): SavedQuery[] {
  const list = loadSaved().filter((s) => s.name !== name);
  localStorage.setItem(SAVED_KEY, JSON.stringify(list));
  return list;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
const shortened = (q: string): string => (q.length > 80 ? `${q.slice(0, 80)}…` : q);

export interface QueryPickers {
  /** The History and Saved selects and the Save button, for the toolbar. */
  readonly controls: readonly HTMLElement[];
  /** Adds a run to the history. */
  remember(query: string): void;
}

/**
 * History and saved-query pickers: choosing an entry calls `onPick` with its query (and range for
 * a saved one); Save… asks for a name and stores `current()`.
 */
export function createQueryPickers(onPick: (query: string, range: string | null) => void, current: () => { query: string; range: string }): QueryPickers {
  const historySelect = el('select', { id: 'history', title: 'Queries run in this browser, newest first' });
  const savedSelect = el('select', { id: 'saved', title: 'Saved queries (in this browser)' });
  const saveButton = el('button', { type: 'button', id: 'save-query', title: 'Save the query and its time range under a name' }, 'Save…');
  const nameInput = el('input', { id: 'save-name', required: true, placeholder: 'name', 'aria-label': 'Name of the saved query' });
  const savedList = el('ul', { className: 'saved-list' });
  const dialog = el('dialog', { id: 'save-dialog', 'aria-label': 'Save the query' },
    el('form', { method: 'dialog' },
      el('h2', {}, 'Save the query'), el('label', {}, 'Name ', nameInput),
      el('div', { className: 'dialog-buttons' }, el('button', { type: 'submit', className: 'primary', value: 'save' }, 'Save'), el('button', { type: 'submit', value: 'cancel', formNoValidate: true }, 'Cancel')),
      el('h3', {}, 'Saved queries'), savedList));

  const fillHistory = (history: string[]): void => {
    historySelect.replaceChildren(el('option', { value: '' }, history.length === 0 ? 'History (empty)' : `History (${plural(history.length, 'query', 'queries')})`),
      ...history.map((q, i) => el('option', { value: String(i) }, shortened(q))));
  };
  const fillSaved = (saved: SavedQuery[]): void => {
    savedSelect.replaceChildren(el('option', { value: '' }, saved.length === 0 ? 'Saved (none)' : `Saved (${saved.length})`),
      ...saved.map((s, i) => el('option', { value: String(i), title: s.query }, s.name)));
    savedList.replaceChildren(...saved.map((s) => {
      const remove = el('button', { type: 'button', title: `Delete “${s.name}”` }, 'Delete');
      remove.addEventListener('click', () => fillSaved(deleteSaved(s.name)));
      return el('li', {}, el('span', { title: s.query }, s.name), remove);
    }));
    if (saved.length === 0) savedList.append(el('li', { className: 'muted' }, 'None yet.'));
  };
  fillHistory(loadHistory());
  fillSaved(loadSaved());

  historySelect.addEventListener('change', () => {
    const q = loadHistory()[Number(historySelect.value)];
    historySelect.value = '';
    if (q !== undefined) onPick(q, null);
  });
  savedSelect.addEventListener('change', () => {
    const s = loadSaved()[Number(savedSelect.value)];
    savedSelect.value = '';
    if (s !== undefined) onPick(s.query, s.range);
  });
  saveButton.addEventListener('click', () => {
    fillSaved(loadSaved());
    dialog.showModal();
    nameInput.focus();
  });
  dialog.addEventListener('close', () => {
    if (dialog.returnValue === 'save' && nameInput.value.trim() !== '') fillSaved(saveQuery({ name: nameInput.value.trim(), ...current() }));
  });
  return {
    controls: [historySelect, savedSelect, saveButton, dialog],
    remember: (query) => fillHistory(remember(query)),
  };
}
