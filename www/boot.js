// Starts the playground's WebAssembly. Trunk names the module and the wasm (with content hashes)
// on this script's tag (Trunk.toml, pattern_script), so that the page needs no inline script and
// its Content-Security-Policy can forbid every one.
const boot = document.getElementById('boot');
const bindings = await import(new URL(boot.dataset.js, document.baseURI).href);
const wasm = await bindings.default({ module_or_path: new URL(boot.dataset.wasm, document.baseURI).href });
// The JS API (runScenario, shareLink, rolloutSummary), as Trunk's own loader exposes it.
window.wasmBindings = bindings;
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
