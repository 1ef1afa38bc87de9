// <rollout-playground>: the playground as one custom element, for documentation pages. No
// framework, nothing fetched until the element asks for its frame. Self-host it beside the
// playground (dist/), then:
//
//   <script src="/play/rollout-playground.js"></script>
//   <rollout-playground src="/play/#v1.…" step="12" loading="click"
//       title="A rolling update, step by step"></rollout-playground>
//
// A plain script written just before the element (not a module, not async): the element is
// defined before the browser first lays it out, so its button takes its height at once and
// nothing below it moves (a module runs after the first paint, when the page has already drawn
// the element as nothing). Loaded as a module it works too; loaded again, it defines nothing
// twice (the whole file is one function, so nothing leaks into the page's globals).
// Attributes (each an embed option of the playground's address, README "Embedding"):
//   src       the playground's address with a share fragment (`rollout share` prints it)
//   link      a share fragment (v1.…), when src is the playground's address alone
//   scenario  a scenario file's text, loaded once the playground is ready
//   step, until, panel (branch|events|chart|none), controls (full|minimal|none),
//   theme (light|dark: switched live), autoplay, readonly, predict, chart
//   loading   eager (default), lazy (when scrolled near) or click (a button stands in)
//   preview   a still picture for the button (`rollout preview SCENARIO --step N`)
//   title     the frame's title (and the button's words)
//   version, expect  the release the snippet was written against and the counts its text
//            states; the element leaves them to `rollout verify-embeds` (a docs site's CI)
// Methods: play(), pause(), step(), seek(n), load(scenarioOrLink). Events (detail = the
// playground's message): ready, step, error. Messages are read only from the element's own
// frame, on the playground's origin; the frame's height follows its content both ways.
(() => {

const OPTIONS = ['step', 'until', 'panel', 'controls', 'theme', 'autoplay', 'readonly', 'predict', 'chart'];
const FLAGS = new Set(['autoplay', 'readonly', 'predict', 'chart']);
const SOURCE = 'rollout-playground';
// The frame's height before the playground says its own, and the most it may ask for.
const FIRST_HEIGHT = 480;
const MAX_HEIGHT = 4000;

const STYLE = `
:host { display: block; position: relative; }
iframe, .facade { display: block; width: 100%; border: 1px solid #d9dee6; border-radius: 8px; box-sizing: border-box; }
iframe { border-width: 0; }
.facade { min-height: ${FIRST_HEIGHT}px; font: 15px/1.5 system-ui, sans-serif; color: #1c2430; background: #f7f8fa;
  display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 6px; padding: 16px; cursor: pointer; }
.facade:focus-visible { outline: 2px solid #326ce5; outline-offset: 2px; }
.facade .play { font-size: 28px; line-height: 1; color: #326ce5; }
.facade .still { display: block; width: 100%; height: 280px; object-fit: contain; margin-bottom: 6px; }
.facade .what { font-weight: 600; }
.facade .note { font-size: 13px; color: #5d6b7e; }
:host([theme="dark"]) .facade { background: #11151b; color: #e6e9ee; border-color: #2d3540; }
:host([theme="dark"]) .facade .note { color: #9aa5b4; }
`;

function sheet() {
  // A constructed style sheet: a host page's Content-Security-Policy need not allow inline
  // styles for it.
  if ('adoptedStyleSheets' in Document.prototype && 'replaceSync' in CSSStyleSheet.prototype) {
    const s = new CSSStyleSheet();
    s.replaceSync(STYLE);
    return s;
  }
  return null;
}
const SHEET = sheet();

class RolloutPlayground extends HTMLElement {
  static get observedAttributes() {
    return ['src', 'link', 'scenario', 'loading', 'title', 'preview', ...OPTIONS];
  }

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    if (SHEET) this.shadowRoot.adoptedStyleSheets = [SHEET];
    else {
      const style = document.createElement('style');
      style.textContent = STYLE;
      this.shadowRoot.append(style);
    }
    this._frame = null;
    this._origin = null;
    this._ready = false;
    this._pending = [];
    this._seen = null;
    this._onMessage = this._onMessage.bind(this);
  }

  connectedCallback() {
    window.addEventListener('message', this._onMessage);
    this._render();
  }

  disconnectedCallback() {
    window.removeEventListener('message', this._onMessage);
    if (this._seen) this._seen.disconnect();
  }

  attributeChangedCallback(name, old, value) {
    if (!this.isConnected || old === value) return;
    if (name === 'theme' && this._frame) {
      this._post({ type: 'theme', theme: value === 'dark' ? 'dark' : 'light' });
      return;
    }
    if (name === 'scenario' && this._frame) {
      this._post({ type: 'load', scenario: value || '' });
      return;
    }
    if (name === 'title') {
      if (this._frame) this._frame.title = this._title();
      else this._render();
      return;
    }
    // Any other option makes another address: a new frame (still a button if not loaded).
    this._render(name !== 'loading' && this._frame !== null);
  }

  // ---------------------------------------------------------------- methods

  play() { this._post({ type: 'play' }); }
  pause() { this._post({ type: 'pause' }); }
  step() { this._post({ type: 'step' }); }
  seek(n) { this._post({ type: 'seek', step: Number(n) }); }
  load(s) {
    const text = String(s);
    this._post(/^v\d+\./.test(text.trim()) ? { type: 'load', link: text.trim() } : { type: 'load', scenario: text });
  }

  // ---------------------------------------------------------------- the frame

  _title() {
    return this.getAttribute('title') || 'Rollout Playground: a Kubernetes Deployment, step by step';
  }

  // The frame's address: the playground's, its options as the query, the share fragment.
  _url() {
    const url = new URL(this.getAttribute('src') || './', document.baseURI);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new Error('src must be an http(s) address, got ' + JSON.stringify(this.getAttribute('src')));
    }
    const q = ['embed'];
    for (const o of OPTIONS) {
      if (!this.hasAttribute(o)) continue;
      const v = this.getAttribute(o);
      if (FLAGS.has(o)) q.push(v === 'false' || v === '0' ? `${o}=0` : o);
      else q.push(`${o}=${encodeURIComponent(v)}`);
    }
    url.search = '?' + q.join('&');
    const link = this.getAttribute('link');
    if (link) url.hash = '#' + link.replace(/^#/, '');
    return url;
  }

  _render(keepEager) {
    if (this._seen) { this._seen.disconnect(); this._seen = null; }
    this._frame = null;
    this._ready = false;
    for (const n of [...this.shadowRoot.childNodes]) if (n.nodeName !== 'STYLE') n.remove();
    const loading = keepEager ? 'eager' : (this.getAttribute('loading') || 'eager');
    if (loading === 'click' || loading === 'lazy') {
      const b = document.createElement('button');
      b.className = 'facade';
      b.type = 'button';
      b.setAttribute('part', 'facade');
      const play = document.createElement('span');
      play.className = 'play';
      play.setAttribute('aria-hidden', 'true');
      play.textContent = '▶';
      const what = document.createElement('span');
      what.className = 'what';
      what.textContent = this._title();
      const note = document.createElement('span');
      note.className = 'note';
      note.textContent = loading === 'click'
        ? 'Load the playground: it runs the Kubernetes Deployment controller in this page.'
        : 'The playground loads when it comes into view.';
      if (this.hasAttribute('preview')) {
        const img = document.createElement('img');
        img.src = new URL(this.getAttribute('preview'), document.baseURI).href;
        img.alt = '';
        img.className = 'still';
        b.append(img);
      }
      b.append(play, what, note);
      b.addEventListener('click', () => this._open(true));
      this.shadowRoot.append(b);
      if (loading === 'lazy' && 'IntersectionObserver' in window) {
        this._seen = new IntersectionObserver(es => {
          if (es.some(e => e.isIntersecting)) this._open(false);
        }, { rootMargin: '200px' });
        this._seen.observe(this);
      }
      return;
    }
    this._open(false);
  }

  _open(focus) {
    if (this._frame) return;
    if (this._seen) { this._seen.disconnect(); this._seen = null; }
    let url;
    try { url = this._url(); } catch (e) {
      this._emit('error', { source: SOURCE, type: 'error', message: e.message });
      return;
    }
    const was = this.shadowRoot.querySelector('.facade');
    const f = document.createElement('iframe');
    f.title = this._title();
    f.src = url.href;
    f.setAttribute('part', 'frame');
    // The facade's height until the playground says its own: no jump when it takes over.
    f.style.height = (was ? was.offsetHeight : FIRST_HEIGHT) + 'px';
    this._origin = url.origin;
    this._frame = f;
    if (was) was.replaceWith(f);
    else this.shadowRoot.append(f);
    if (focus) f.focus();
  }

  _post(m) {
    if (!this._frame) this._open(false);
    if (!this._ready) { this._pending.push(m); return; }
    this._frame.contentWindow.postMessage(m, this._origin);
  }

  _emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  _onMessage(e) {
    const f = this._frame;
    if (!f || e.source !== f.contentWindow || e.origin !== this._origin) return;
    const m = e.data;
    if (!m || m.source !== SOURCE) return;
    if (m.type === 'height') {
      const h = Math.max(0, Math.min(Number(m.height) || 0, MAX_HEIGHT));
      if (h > 0) f.style.height = h + 'px';
      return;
    }
    if (m.type === 'ready') {
      this._ready = true;
      const scenario = this.getAttribute('scenario');
      const queued = this._pending.splice(0);
      if (scenario) queued.unshift({ type: 'load', scenario });
      for (const q of queued) f.contentWindow.postMessage(q, this._origin);
    }
    if (m.type === 'ready' || m.type === 'step' || m.type === 'error') this._emit(m.type, m);
  }
}

if (!customElements.get('rollout-playground')) customElements.define('rollout-playground', RolloutPlayground);
})();
