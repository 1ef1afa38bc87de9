// How a documentation page embeds the playground: each iframe's URL is the playground's address,
// the embed's options and the scenario's share fragment. Where the playground is served is
// ?playground=URL (this page may live on another origin than the playground); only an http(s)
// URL on this page's origin, or on an origin the page lists in <meta name="playground-origins">,
// is taken: anything else (javascript:, data:, another site) is refused, said on the page, and
// the playground beside this page is used.
(function () {
  'use strict';
  var allowed = (document.querySelector('meta[name="playground-origins"]') || { content: '' })
    .content.split(/\s+/).filter(Boolean);

  // The playground's base URL from ?playground=, or why it was refused.
  function playgroundBase(param) {
    if (param === null) return { url: new URL('./', location.href) };
    var url;
    try { url = new URL(param, location.href); } catch (e) {
      return { url: new URL('./', location.href), refused: 'is not a URL' };
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      return { url: new URL('./', location.href), refused: 'is not an http(s) URL' };
    }
    if (url.origin !== location.origin && allowed.indexOf(url.origin) < 0) {
      return { url: new URL('./', location.href), refused: 'is on ' + url.origin + ', which this page does not list' };
    }
    url.search = '';
    url.hash = '';
    return { url: url };
  }

  var param = new URLSearchParams(location.search).get('playground');
  var base = playgroundBase(param);
  if (base.refused) {
    var note = document.getElementById('playground-refused');
    note.textContent = 'The playground address ' + JSON.stringify(param) + ' ' + base.refused +
      ': the examples use the playground beside this page instead.';
    note.hidden = false;
  }
  var origin = base.url.origin;
  var frames = {};
  document.querySelectorAll('iframe[data-fragment]').forEach(function (f) {
    var src = new URL(base.url.href);
    src.search = '?' + f.dataset.params;
    src.hash = '#' + f.dataset.fragment.replace(/^#/, '');
    f.src = src.href;
    frames[f.id] = f;
  });

  // The embeds announce themselves and each step; show what they say under each example.
  // Only messages from these frames, on the playground's origin, are read.
  window.addEventListener('message', function (e) {
    var m = e.data;
    if (e.origin !== origin || !m || m.source !== 'rollout-playground') return;
    var id = Object.keys(frames).find(function (k) { return frames[k].contentWindow === e.source; });
    if (!id) return;
    var out = document.getElementById(id + '-readout');
    if (m.type === 'ready') { out.textContent = 'ready: ' + m.steps + ' steps'; out.dataset.ready = '1'; }
    // The embed says how tall its content is: the frame follows it.
    if (m.type === 'height') frames[id].style.height = Math.max(0, Math.min(Number(m.height) || 0, 4000)) + 'px';
    if (m.type === 'error') { out.textContent = 'error: ' + m.message; out.dataset.error = m.message; }
    if (m.type === 'step') {
      out.dataset.step = m.step;
      out.textContent = 'step ' + m.step + ' at ' + (m.t / 1000).toFixed(1) + 's' +
        (m.branch ? ', branch ' + m.branch : '') + ' — ' +
        (m.replicaSets || []).map(function (r) { return 'rev ' + r.revision + ': ' + r.replicas; }).join(', ');
    }
  });
  document.getElementById('play-both').addEventListener('click', function () {
    Object.keys(frames).forEach(function (k) {
      frames[k].contentWindow.postMessage({ type: 'play' }, origin);
    });
  });
})();
