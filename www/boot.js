// Starts the playground's WebAssembly. Trunk names the module and the wasm (with content hashes)
// on this script's tag (Trunk.toml, pattern_script), so that the page needs no inline script and
// its Content-Security-Policy can forbid every one.
const boot = document.getElementById('boot');
// A long paste into the manifest editor goes in as one edit: Chromium's own paste over a
// selection edits the field line by line (13 s for a 500 KB List over the editor's text, 0.6 s
// into an empty field; tests/browser/bench.mjs), while setRangeText replaces it at once. The
// page hears one input event, as for any edit. Such a paste is not on the browser's undo stack,
// so a short one is left to the browser. (Here, not in the wasm: the page's size budget.)
document.addEventListener('paste', e => {
  const area = e.target;
  if (!(area instanceof HTMLTextAreaElement) || area.id !== 'manifest') return;
  const text = e.clipboardData?.getData('text/plain') ?? '';
  if (text.length < 32 * 1024) return;
  e.preventDefault();
  area.setRangeText(text, area.selectionStart, area.selectionEnd, 'end');
  area.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
});
const bindings = await import(new URL(boot.dataset.js, document.baseURI).href);
const wasm = await bindings.default({ module_or_path: new URL(boot.dataset.wasm, document.baseURI).href });
// The JS API (runScenario, shareLink, rolloutSummary), as Trunk's own loader exposes it.
window.wasmBindings = bindings;
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
