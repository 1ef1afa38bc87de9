// The editor's check of a long text, off the page's thread: a pasted cluster state of 500 KB
// takes the check (read, decoded, validated as the apiserver would) 110-120 ms, longer than a
// frame may. This worker runs the page's own wasm, compiled once by boot.js and handed over
// with the URL of its bindings: the same code checks here as in the page (the wasm's start sees
// no window and draws nothing). Messages: {js, module} once, then {id, text} -> {id, checked}
// or {id, error}.
let check;
onmessage = ({ data }) => {
  if (data.module) {
    check = import(data.js).then(b => {
      b.initSync({ module: data.module });
      return b.checkManifest;
    });
    return;
  }
  check.then(f => postMessage({ id: data.id, checked: f(data.text) }))
    .catch(e => postMessage({ id: data.id, error: String(e) }));
};
