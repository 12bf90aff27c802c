// The query editor: CodeMirror 6 with the svc language, completion, undo history, Ctrl+Enter to
// run, and an error mark over the token at the offset the server reported (SPEC §8 `position`).
import { autocompletion, closeBrackets, closeBracketsKeymap, closeCompletion, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorState, Prec, StateEffect, StateField } from '@codemirror/state';
import { Decoration, drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers, placeholder } from '@codemirror/view';
import type { DecorationSet } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { completionSource, svcQueryLanguage } from './query-language.js';
import type { Schema } from './query-language.js';

const setError = StateEffect.define<{ from: number; to: number } | null>();

const errorMark = Decoration.mark({ class: 'cm-svc-error', attributes: { title: 'error here' } });

/** The marked error range; cleared by the next edit or the next run. */
const errorField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    for (const e of tr.effects) {
      if (e.is(setError)) return e.value === null ? Decoration.none : Decoration.set([errorMark.range(e.value.from, e.value.to)]);
    }
    return tr.docChanged ? Decoration.none : marks;
  },
  provide: (f) => EditorView.decorations.from(f),
});

const highlight = HighlightStyle.define([
  { tag: tags.keyword, class: 'tok-keyword' },
  { tag: tags.function(tags.variableName), class: 'tok-function' },
  { tag: tags.unit, class: 'tok-duration' },
  { tag: tags.atom, class: 'tok-time' },
  { tag: tags.number, class: 'tok-number' },
  { tag: tags.string, class: 'tok-string' },
  { tag: tags.special(tags.variableName), class: 'tok-system' },
  { tag: tags.comment, class: 'tok-comment' },
  { tag: tags.operator, class: 'tok-operator' },
]);

export interface QueryEditor {
  readonly view: EditorView;
  text(): string;
  setText(text: string): void;
  /** Replaces [from, to) by `insert` (one undoable change; the cursor is kept where it can be). */
  replace(from: number, to: number, insert: string): void;
  /** Puts `text` at the cursor (replacing the selection) and focuses the editor. */
  insertAtCursor(text: string): void;
  /** Marks the token starting at `position` (a character offset into the text). */
  markError(position: number): void;
  clearError(): void;
}

export function createEditor(parent: HTMLElement, schema: Schema, onRun: () => void): QueryEditor {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: '',
      extensions: [
        Prec.highest(keymap.of([{ key: 'Mod-Enter', run: (v) => { closeCompletion(v); onRun(); return true; } }])),
        lineNumbers(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        bracketMatching(),
        closeBrackets(),
        autocompletion({ override: [completionSource(schema)] }),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, indentWithTab]),
        svcQueryLanguage,
        syntaxHighlighting(highlight),
        errorField,
        placeholder('SELECT … FROM … — Ctrl+Enter runs'),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': 'Query editor' }),
      ],
    }),
  });
  return {
    view,
    text: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: text.length } });
    },
    replace(from, to, insert) {
      view.dispatch({ changes: { from, to, insert } });
    },
    insertAtCursor(text) {
      view.dispatch(view.state.replaceSelection(text));
      view.focus();
    },
    markError(position) {
      const doc = view.state.doc.toString();
      const from = Math.max(0, Math.min(position, doc.length));
      const word = /^[\w$.]+|^'[^']*'?|^\S/.exec(doc.slice(from));
      // At the very end (unexpected end of input) mark the last character so something shows.
      const to = word === null ? from : from + word[0].length;
      const range = to > from ? { from, to } : { from: Math.max(0, from - 1), to: Math.max(from, Math.min(doc.length, 1)) };
      view.dispatch({ effects: setError.of(range), selection: { anchor: from }, scrollIntoView: true });
    },
    clearError() {
      view.dispatch({ effects: setError.of(null) });
    },
  };
}
