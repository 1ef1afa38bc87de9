// Starts the playground's WebAssembly. Trunk names the module and the wasm (with content hashes)
// on this script's tag (Trunk.toml, pattern_script), so that the page needs no inline script and
// its Content-Security-Policy can forbid every one.
const boot = document.getElementById('boot');
const here = url => new URL(url, document.baseURI).href;
// The wasm, the module that starts it and the manifest editor's text box (editor.js:
// CodeMirror, bundled by scripts/editor.sh) are fetched side by side; the text box is ready
// before the page that holds it starts. An embed has no editor and does not fetch it.
const wasmResponse = fetch(here(boot.dataset.wasm));
const embed = /[?&]embed(=|&|$)/.test(location.search);
const editor = embed ? Promise.resolve() : import(here('editor.js')).catch(e => console.error('editor.js', e));
const bindings = await import(here(boot.dataset.js));
await editor;
const wasm = await bindings.default({ module_or_path: wasmResponse });
// The JS API (runScenario, shareLink, rolloutSummary), as Trunk's own loader exposes it.
window.wasmBindings = bindings;
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
