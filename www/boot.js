// Starts the playground's WebAssembly. Trunk names the module and the wasm (with content hashes)
// on this script's tag (Trunk.toml, pattern_script), so that the page needs no inline script and
// its Content-Security-Policy can forbid every one.
const boot = document.getElementById('boot');
const here = url => new URL(url, document.baseURI).href;
// The wasm, the module that starts it and the manifest editor's text box (editor.js:
// CodeMirror, bundled by scripts/editor.sh) are fetched side by side; the text box is ready
// before the page that holds it starts. An embed has no editor and fetches neither it nor the
// check worker below.
const wasmResponse = fetch(here(boot.dataset.wasm));
const embed = /[?&]embed(=|&|$)/.test(location.search);
const editor = embed ? Promise.resolve() : import(here('editor.js')).catch(e => console.error('editor.js', e));
const bindings = await import(here(boot.dataset.js));
// Compiled here (not inside the bindings) so that the check worker can run the same module.
const response = await wasmResponse;
if (!response.ok) throw new Error(`failed to fetch the wasm: ${response.status} ${response.url}`);
const module = response.headers.get('Content-Type') === 'application/wasm'
  ? await WebAssembly.compileStreaming(response)
  : await WebAssembly.compile(await response.arrayBuffer());
await editor;
const wasm = await bindings.default({ module_or_path: module });
// The editor's check of a long text runs in a worker (check-worker.js): `RolloutCheck(text)`
// is a promise of what the page's own check gives (src/web/bindings.rs, check_text).
if (!embed) {
  const worker = new Worker(here('check-worker.js'), { type: 'module' });
  worker.postMessage({ js: here(boot.dataset.js), module });
  const waiting = new Map();
  let next = 0;
  worker.onmessage = ({ data }) => {
    const [ok, fail] = waiting.get(data.id);
    waiting.delete(data.id);
    data.error === undefined ? ok(data.checked) : fail(new Error(data.error));
  };
  // A worker that cannot start or run fails what it was asked and is not asked again: the
  // page then checks on its own thread, as before.
  worker.onerror = worker.onmessageerror = e => {
    window.RolloutCheck = undefined;
    for (const [, fail] of waiting.values()) fail(new Error(e.message || 'the check worker stopped'));
    waiting.clear();
  };
  window.RolloutCheck = text => new Promise((ok, fail) => {
    waiting.set(++next, [ok, fail]);
    worker.postMessage({ id: next, text });
  });
}
// The JS API (runScenario, shareLink, rolloutSummary), as Trunk's own loader exposes it.
window.wasmBindings = bindings;
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
