// The manifest editor's text box: CodeMirror 6, bundled by scripts/editor.sh into the build's
// editor.js (boot.js loads it beside the wasm). A <textarea> lays out every line of its text:
// a 500 KB pasted cluster state took Chromium 250-320 ms in one task, and each keystroke in it
// 30-80 ms to the next frame (tests/browser/bench.mjs). CodeMirror lays out the lines in view.
// The page (src/web/editor.rs) owns the text and its checks; this module only shows it, tells
// the page of each edit, colours it and marks the lines the checks named.
import { EditorState, StateEffect, StateField, RangeSet, Annotation } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, Decoration, gutterLineClass, GutterMarker } from '@codemirror/view';
import { history, defaultKeymap, historyKeymap } from '@codemirror/commands';
import { syntaxHighlighting, HighlightStyle, StreamLanguage } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { yaml } from '@codemirror/legacy-modes/mode/yaml';

// The colours are the page's (style.css, .y-*), by class, so the theme switch needs nothing here.
const colours = HighlightStyle.define([
  { tag: tags.atom, class: 'y-key' },
  { tag: tags.string, class: 'y-string' },
  { tag: tags.number, class: 'y-number' },
  { tag: tags.keyword, class: 'y-bool' },
  { tag: tags.comment, class: 'y-comment' },
  { tag: [tags.meta, tags.definition(tags.variableName)], class: 'y-dash' },
]);

// The lines the page's last check named (1-based); they stay until the next check, as the
// problems listed under the editor do.
const setBad = StateEffect.define();
const bad = StateField.define({
  create: () => [],
  update: (lines, tr) => tr.effects.reduce((l, e) => (e.is(setBad) ? e.value : l), lines),
});
const badLine = Decoration.line({ class: 'bad' });
const badNumber = new (class extends GutterMarker { elementClass = 'bad'; })();
const lineStarts = state => bad => bad
  .filter(n => n >= 1 && n <= state.doc.lines)
  .map(n => state.doc.line(n).from);
const marks = [
  EditorView.decorations.compute([bad, 'doc'], state =>
    RangeSet.of(lineStarts(state)(state.field(bad)).map(at => badLine.range(at)), true)),
  gutterLineClass.compute([bad, 'doc'], state =>
    RangeSet.of(lineStarts(state)(state.field(bad)).map(at => badNumber.range(at)), true)),
];

// A text the page set (Current spec, a quick control, a step followed): not the reader's edit.
const fromPage = Annotation.define();

/// Makes the editor in `host`. `changed(text)` hears each edit of the reader's; `apply()` is
/// Ctrl+Enter. The page reaches the editor through the returned handle.
export function create(host, text, label, changed, apply) {
  const view = new EditorView({
    parent: host,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(),
        history(),
        keymap.of([{ key: 'Mod-Enter', run: () => { apply(); return true; } }, ...defaultKeymap, ...historyKeymap]),
        StreamLanguage.define(yaml),
        syntaxHighlighting(colours),
        bad,
        marks,
        EditorView.contentAttributes.of({ id: 'manifest', 'aria-label': label, 'aria-multiline': 'true', spellcheck: 'false', autocapitalize: 'off', autocorrect: 'off' }),
        EditorView.updateListener.of(u => {
          if (u.docChanged && !u.transactions.some(t => t.annotation(fromPage))) changed(u.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    // The page's text, in place of the editor's (the page sends it only when it is not the
    // text the editor last reported: src/web/bindings.rs, TextBox::show).
    set(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, annotations: fromPage.of(true) });
    },
    setBad(lines) {
      const now = view.state.field(bad);
      if (now.length === lines.length && now.every((n, i) => n === lines[i])) return;
      view.dispatch({ effects: setBad.of(Array.from(lines)) });
    },
    destroy() { view.destroy(); },
  };
}

/// The text of the editor whose content element is `el` (for tests and tools: the element
/// holds only the lines in view).
export function textOf(el) {
  return EditorView.findFromDOM(el)?.state.doc.toString();
}

window.RolloutEditor = { create, textOf };
