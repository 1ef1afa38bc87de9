// The page's last resort: if the WebAssembly stops (a panic, which this build turns into a trap,
// or memory that cannot grow), the page says so and offers a way back instead of going blank.
// A plain script, loaded before the wasm, so that it works whatever state the wasm is in.
(function () {
  'use strict';
  // index.html's still picture is the default example's: a link or an embed opens another
  // scenario, so it keeps only the loading note (style.css hides the picture under .linked).
  if (location.hash.length > 1 || /[?&]embed(=|&|$)/.test(location.search)) {
    document.documentElement.classList.add('linked');
  }
  var shown = false;
  function wasmFailure(error) {
    if (!error) return false;
    var name = error.name || '';
    var text = String(error.message || error);
    return name === 'RuntimeError' || /unreachable|out of memory|memory access out of bounds|wasm/i.test(text);
  }
  function link(href, label) {
    var a = document.createElement('a');
    a.href = href;
    a.textContent = label;
    return a;
  }
  function show(error) {
    if (shown) return;
    shown = true;
    var here = location.href.split('#')[0];
    var last = '';
    try { last = sessionStorage.getItem('rollout-last-good') || ''; } catch (e) { /* storage off */ }
    var panic = window.__rolloutPanic || String((error && error.message) || error);
    var box = document.createElement('div');
    box.className = 'wasm-stopped';
    box.setAttribute('role', 'alert');
    var back = last && ('#' + last) !== location.hash;
    var p = document.createElement('p');
    p.textContent = 'The playground stopped: ' + panic + '.' +
      (back ? ' Your work, as it stood at the last state that worked, is kept in the first link below.' : '');
    box.appendChild(p);
    var actions = document.createElement('p');
    if (back) {
      actions.appendChild(link(here + '#' + last, 'Reopen the last state that worked'));
      actions.appendChild(document.createTextNode(' · '));
    }
    actions.appendChild(link(here.split('?')[0], 'Start over with the default example'));
    box.appendChild(actions);
    document.body.insertBefore(box, document.body.firstChild);
    // A link in the address bar that stopped the page would stop it again on reload.
    history.replaceState(null, '', here);
  }
  addEventListener('error', function (e) { if (wasmFailure(e.error)) show(e.error); });
  addEventListener('unhandledrejection', function (e) { if (wasmFailure(e.reason)) show(e.reason); });
  // The way back is a fresh load: following a link that differs only in its fragment would
  // hand it to the stopped wasm.
  addEventListener('click', function (e) {
    var a = e.target.closest && e.target.closest('.wasm-stopped a');
    if (!a) return;
    e.preventDefault();
    history.replaceState(null, '', a.href);
    location.reload();
  });
})();
