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
//   film      the scenario's run recorded as one SVG (`rollout preview SCENARIO --format film`;
//            the gallery's are previews/NAME.film.svg): from the click until the playground is
//            ready, the reader plays, steps and seeks the recorded run (its pictures and
//            captions), and the playground takes over at the step the reader is on
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

// The playground's palettes (www/style.css); a film's pictures are drawn in the light one
// (src/scenario/preview.rs) and take the dark one here, as the playground will.
const LIGHT = '--rp-bg: #f7f8fa; --rp-fg: #1c2430; --rp-muted: #5d6b7e; --rp-line: #d9dee6; --rp-panel: #ffffff; --rp-button-line: #b8c0cc; ' +
  '--rp-available: #2e9e4f; --rp-ready: #7fcf8f; --rp-running: #f2c14e; --rp-pending: #b8c0cc; --rp-terminating: #9aa3ae;';
const DARK = '--rp-bg: #11151b; --rp-fg: #e6e9ee; --rp-muted: #9aa5b4; --rp-line: #2d3540; --rp-panel: #1a2029; --rp-button-line: #3a4452; ' +
  '--rp-available: #44c46a; --rp-ready: #3f9a53; --rp-running: #b38a1f; --rp-pending: #56606d; --rp-terminating: #4b535e;';

const STYLE = `
:host { display: block; position: relative; ${LIGHT} }
:host([theme="dark"]) { ${DARK} }
/* No theme given: the reader's preference, as the playground follows it. */
@media (prefers-color-scheme: dark) { :host(:not([theme])) { ${DARK} } }
iframe, .facade { display: block; width: 100%; border: 1px solid var(--rp-line); border-radius: 8px; box-sizing: border-box; }
iframe { border-width: 0; }
.facade { min-height: ${FIRST_HEIGHT}px; font: 15px/1.5 system-ui, sans-serif; color: var(--rp-fg); background: var(--rp-bg);
  display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 6px; padding: 16px; cursor: pointer; }
.facade:focus-visible { outline: 2px solid #326ce5; outline-offset: 2px; }
.facade .play { font-size: 28px; line-height: 1; color: #326ce5; }
.facade .still { display: block; width: 100%; height: 280px; object-fit: contain; margin-bottom: 6px; }
.facade .what { font-weight: 600; }
.facade .note { font-size: 13px; color: var(--rp-muted); }
.problem { margin: 0; padding: 16px; border: 1px solid var(--rp-line); border-radius: 8px; font: 15px/1.5 system-ui, sans-serif;
  color: var(--rp-fg); background: var(--rp-bg); overflow-wrap: anywhere; }
.player { display: flex; flex-direction: column; gap: 8px; min-height: ${FIRST_HEIGHT}px; padding: 16px; box-sizing: border-box;
  border: 1px solid var(--rp-line); border-radius: 8px; background: var(--rp-bg); font: 15px/1.5 system-ui, sans-serif; color: var(--rp-fg); }
.player .still { display: block; width: 100%; height: 280px; object-fit: contain; }
.player .bar { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; }
.player button { font: inherit; min-width: 44px; min-height: 44px; border: 1px solid var(--rp-button-line); border-radius: 6px;
  background: var(--rp-panel); color: inherit; cursor: pointer; }
.player button:disabled { cursor: default; opacity: .5; }
.player button:focus-visible, .player input:focus-visible { outline: 2px solid #326ce5; outline-offset: 2px; }
.player input[type=range] { flex: 1 1 160px; min-width: 120px; accent-color: #326ce5; }
.player .where { font-size: 13px; color: var(--rp-muted); flex-basis: 100%; }
/* Read out as the steps change; the picture shows the same words. */
.player[data-ready] .where { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.player .note { font-size: 13px; color: var(--rp-muted); margin: 0; }
/* A step's picture in the element's palette (CSS outranks SVG's presentation attributes). */
svg.still [fill="#ffffff"] { fill: var(--rp-panel); }
svg.still [stroke="#d9dee6"] { stroke: var(--rp-line); }
svg.still [fill="#1c2430"] { fill: var(--rp-fg); }
svg.still [fill="#5d6b7e"] { fill: var(--rp-muted); }
svg.still [fill="#2e9e4f"] { fill: var(--rp-available); }
svg.still [fill="#7fcf8f"] { fill: var(--rp-ready); }
svg.still [fill="#f2c14e"] { fill: var(--rp-running); }
svg.still [fill="#b8c0cc"] { fill: var(--rp-pending); }
svg.still [stroke="#b8c0cc"] { stroke: var(--rp-pending); }
svg.still [fill="#9aa3ae"] { fill: var(--rp-terminating); }
/* The playground loading behind the film: laid out (so it boots as it would in view), unseen,
   out of the tab order, until it is ready and takes the film's place. */
iframe.behind { position: absolute; top: 0; left: 0; opacity: 0; pointer-events: none; }
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

const SVG_NS = 'http://www.w3.org/2000/svg';
// What a film's step may draw with: anything else in the file (a script, a link, an event
// handler) is left out, so the file can only ever draw.
const TAGS = new Set(['g', 'rect', 'text', 'tspan', 'line', 'circle', 'path']);
const ATTRS = new Set(['x', 'y', 'width', 'height', 'rx', 'fill', 'stroke', 'stroke-width', 'stroke-dasharray',
  'font-size', 'font-weight', 'font-family', 'text-anchor', 'opacity', 'transform', 'd', 'cx', 'cy', 'r', 'x1', 'y1', 'x2', 'y2']);
// An SVG document's root element, or null when the text is not SVG.
function parse(text) {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const root = doc.documentElement;
  return doc.querySelector('parsererror') || root.namespaceURI !== SVG_NS || root.localName !== 'svg' ? null : root;
}

function drawable(node) {
  if (node.nodeType === Node.TEXT_NODE) return document.createTextNode(node.nodeValue);
  if (node.nodeType !== Node.ELEMENT_NODE || node.namespaceURI !== SVG_NS || !TAGS.has(node.localName)) return null;
  const e = document.createElementNS(SVG_NS, node.localName);
  for (const a of node.attributes) if (!a.namespaceURI && ATTRS.has(a.name)) e.setAttribute(a.name, a.value);
  for (const c of node.childNodes) { const k = drawable(c); if (k) e.append(k); }
  return e;
}

// The most of a film the element reads: a longer recording is not played (the playground
// loads as it would without one), so no film can hold the host page up.
const FILM_BYTES = 8 * 1024 * 1024;
// How much of a film's beginning the button reads for its picture when no still is given.
const FIRST_BYTES = 512 * 1024;

// A film's text cut at its steps: the root's opening tag (each step is parsed inside it, with
// its namespaces), its height and scenario, and each step's source with its instant and hold.
// Only what is shown is ever parsed: parsing a whole film at once is a long task on a phone
// (60 ms for 88 steps at 4× CPU, more for longer runs). A step cut off at the end is left out.
function cut(text) {
  const at = text.indexOf('<svg');
  const open = at < 0 ? '' : text.slice(at, text.indexOf('>', at) + 1);
  const root = open && parse(open + '</svg>');
  if (!root) throw new Error('not an SVG file');
  const frames = [];
  for (const part of text.split('<g id="f').slice(1)) {
    const end = part.indexOf('</g>');
    if (end < 0) break;
    const head = part.slice(0, part.indexOf('>'));
    frames.push({
      src: '<g id="f' + part.slice(0, end + 4),
      t: Number((/ data-t="(\d+)"/.exec(head) || [])[1]) || 0,
      // A caption of the step's own: how long an autoplaying embed holds there (ms).
      hold: Number((/ data-hold="(\d+)"/.exec(head) || [])[1]) || 0,
    });
  }
  return { open, height: Number(root.getAttribute('height')) || 0, scenario: root.getAttribute('data-scenario'), frames };
}

// Step `f` of a cut film, parsed: its group, title and caption.
function frameOf(film, f) {
  if (!f.g) {
    const svg = parse(`${film.open}${f.src}</svg>`);
    const g = (svg && svg.firstElementChild) || document.createElementNS(SVG_NS, 'g');
    const text = tag => { const e = g.querySelector(':scope > ' + tag); return e ? e.textContent : ''; };
    Object.assign(f, { g, title: text('title'), caption: text('desc'), src: null });
  }
  return f;
}

// A step's picture: an SVG of its drawing elements only.
function picture(film, f) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', `0 0 640 ${film.height}`);
  svg.setAttribute('class', 'still');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', f.caption ? `${f.title}. ${f.caption}` : f.title);
  svg.setAttribute('font-family', 'system-ui, sans-serif');
  for (const c of f.g.childNodes) { const k = drawable(c); if (k) svg.append(k); }
  return svg;
}

// The picture of step `step` (from 0) of the film at `url`, read from the file's beginning
// only (at most FIRST_BYTES; the rest is never fetched): the first step when that one lies
// further in. Null when the beginning holds no step.
async function stillOf(url, step) {
  const r = await fetch(url);
  if (!r.ok || !r.body) return null;
  const reader = r.body.getReader();
  const dec = new TextDecoder();
  let text = '';
  try {
    while (text.length < FIRST_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      text += dec.decode(value, { stream: true });
      if (text.includes(`<g id="f${step + 2}"`) || text.includes("</svg>")) break;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const film = cut(text);
  const f = film.frames[Math.min(step, film.frames.length - 1)];
  return f ? picture(film, frameOf(film, f)) : null;
}

// A recorded run (`rollout preview --format film`) that the element plays from the click until
// the playground is ready. The file is read once; each step's picture is drawn from it in the
// element (redrawing an image of the whole file at each step would take a phone ~90 ms), with
// its instant, title and caption. It moves as the playground's playback moves (virtual time at 1×,
// stopping at a step with a caption of its own, or holding there to read it when autoplaying)
// so that the playground takes over at the step the reader is on.
class Film {
  constructor(url, still, title, first, until, autoplay) {
    this.url = url;
    this.still = still;
    this.frames = null;
    this.pos = first;
    this.until = until;
    this.autoplay = autoplay;
    this.playing = false;
    this.asked = false;
    this.stale = false;
    this.vt = 0;
    this.hold = 0;
    this.raf = 0;
    this.at = null;
    this.drawn = -1;
    this.root = this._build(title);
    this._show();
    this._read();
  }

  _build(title) {
    const el = (tag, props, ...kids) => {
      const e = document.createElement(tag);
      Object.assign(e, props);
      e.append(...kids);
      return e;
    };
    // Until the file is read: the button's picture (its still, or the film's first step it
    // drew), else the picture's room, empty.
    this.img = typeof this.still === 'string' ? el('img', { className: 'still', alt: '', src: this.still })
      : this.still || el('div', { className: 'still' });
    this.pic = el('div', {}, this.img);
    // Play works at once: pressed before the file is read, the film plays once it is.
    this.playBtn = el('button', { type: 'button', className: 'pp' }, '▶');
    this.playBtn.setAttribute('aria-label', 'Play');
    this.back = el('button', { type: 'button', disabled: true }, '«');
    this.back.setAttribute('aria-label', 'Step back');
    this.fwd = el('button', { type: 'button', disabled: true }, '»');
    this.fwd.setAttribute('aria-label', 'Step forward');
    this.range = el('input', { type: 'range', min: 1, max: 1, value: 1, disabled: true });
    this.range.setAttribute('aria-label', 'Step');
    this.where = el('span', { className: 'where' }, 'Reading the recorded run…');
    this.where.setAttribute('aria-live', 'polite');
    this.note = el('p', { className: 'note' },
      'A recording of this run, to play now: the playground (the Deployment controller itself) is loading and takes over at the step you are on.');
    const root = el('div', { className: 'player' }, this.pic,
      el('div', { className: 'bar' }, this.playBtn, this.back, this.fwd, this.range, this.where), this.note);
    root.setAttribute('part', 'player');
    root.setAttribute('role', 'group');
    root.setAttribute('aria-label', title + ' (recorded)');
    this.playBtn.addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    this.back.addEventListener('click', () => this.seek(this.pos - 1));
    this.fwd.addEventListener('click', () => this.seek(this.pos + 1));
    this.range.addEventListener('input', () => this.seek(Number(this.range.value) - 1));
    return root;
  }

  async _read() {
    try {
      const r = await fetch(this.url);
      if (!r.ok) throw new Error(`${r.status} ${r.statusText}`);
      const size = Number(r.headers.get('content-length')) || 0;
      if (size > FILM_BYTES) {
        r.body?.cancel().catch(() => {});
        throw new Error(`it is ${(size / 1048576).toFixed(1)} MB, more than the ${FILM_BYTES / 1048576} MB the element plays`);
      }
      const text = await r.text();
      if (text.length > FILM_BYTES) throw new Error(`it is more than the ${FILM_BYTES / 1048576} MB the element plays`);
      const film = cut(text);
      const frames = film.frames;
      this.film = film;
      this.height = film.height;
      this.scenario = film.scenario;
      if (!frames.length) throw new Error('no steps in it (rollout preview --format film makes one)');
      if (this.stale) return;
      this.frames = frames;
      this.pos = Math.min(this.pos, this._last());
      this.vt = frames[this.pos].t;
      for (const b of [this.playBtn, this.back, this.fwd, this.range]) b.disabled = false;
      this.range.max = this._last() + 1;
      this._show();
      this.root.dataset.ready = '';
      if (this.autoplay || this.asked) this.play();
    } catch (e) {
      if (!this.still) this.img.remove();
      this.where.textContent = `The recorded run could not be read (${e.message}); the playground is loading.`;
    }
  }

  _last() { return Math.min(this.until, this.frames.length - 1); }

  // Step i's group, title and caption, parsed the first time they are needed.
  _frame(i) { return frameOf(this.film, this.frames[i]); }

  _show() {
    if (!this.frames) return;
    this._button();
    // Between steps the clock runs on with nothing new to draw.
    if (this.drawn === this.pos) return;
    this.drawn = this.pos;
    this.pic.replaceChildren(picture(this.film, this._frame(this.pos)));
    if (!this.playing) this._say();
    this.range.value = this.pos + 1;
    this.range.setAttribute('aria-valuetext', `step ${this.pos + 1} of ${this._last() + 1}`);
  }

  // Read out where the reader stopped it, not at every step it plays through.
  _say() { this.where.textContent = this._frame(this.pos).title; }

  _button() {
    const on = this.playing || this.asked;
    this.playBtn.textContent = on ? '❚❚' : '▶';
    this.playBtn.setAttribute('aria-label', on ? 'Pause' : 'Play');
  }

  play() {
    if (this.stale) return;
    // Asked for before the file is read: it plays once it is (or the playground does).
    if (!this.frames) { this.asked = true; this._button(); return; }
    if (this.pos >= this._last()) { this.pos = 0; this.vt = this.frames[0].t; }
    this.playing = true;
    this.hold = 0;
    this.at = null;
    if (!this.raf) this.raf = requestAnimationFrame(t => this._tick(t));
    this._show();
  }

  pause() {
    this.playing = false;
    this.asked = false;
    this._button();
    if (this.frames) this._say();
  }

  seek(i) {
    if (this.stale) return;
    this.playing = false;
    this.asked = false;
    if (!this.frames) { this.pos = Math.max(0, Math.min(i, this.until)); return; }
    this.pos = Math.max(0, Math.min(i, this._last()));
    this.vt = this.frames[this.pos].t;
    this._show();
  }

  _tick(ts) {
    this.raf = 0;
    if (!this.playing) return;
    const dt = this.at === null ? 0 : Math.min(ts - this.at, 250);
    this.at = ts;
    if (this.hold > 0) this.hold -= dt;
    else {
      this.vt += dt;
      const last = this._last();
      let to = this.pos;
      while (to < last && this.frames[to + 1].t <= this.vt) to++;
      let held = -1;
      for (let i = this.pos + 1; i <= to && held < 0; i++) if (this.frames[i].hold) held = i;
      this.pos = held >= 0 ? held : to;
      if (held >= 0) {
        this.vt = this.frames[held].t;
        // As the playground does: an autoplaying embed holds long enough to read the
        // caption, any other stops there.
        if (this.autoplay) this.hold = this.frames[held].hold;
        else this.playing = false;
      }
      if (this.pos >= last && this.vt >= this.frames[last].t) this.playing = false;
      this._show();
      if (!this.playing) this._say();
    }
    if (this.playing) this.raf = requestAnimationFrame(t => this._tick(t));
  }

  // The reader asked for another scenario: the recording is not what comes.
  drop() {
    this.stale = true;
    this.pause();
    for (const b of [this.playBtn, this.back, this.fwd, this.range]) b.disabled = true;
    this.where.textContent = 'Loading the playground with the scenario asked for…';
  }

  stop() {
    this.playing = false;
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
  }

  // Where the playground takes over: the step (from 1) and whether it plays on; nothing when
  // the recording is not of the run the playground has (`ready` says its steps and name).
  handoff(ready) {
    if (this.stale) return null;
    if (this.frames) {
      const steps = this._last() + 1;
      const name = this.scenario;
      if (steps !== ready.steps || name !== ready.scenario) {
        console.warn(`rollout-playground: the film ${this.url} is a run of ${name} in ${steps} steps, ` +
          `the playground's of ${ready.scenario} in ${ready.steps}: make it again (rollout preview SCENARIO --format film)`);
        return null;
      }
    }
    return { step: this.pos + 1, playing: this.playing || this.asked };
  }
}

class RolloutPlayground extends HTMLElement {
  static get observedAttributes() {
    return ['src', 'link', 'scenario', 'loading', 'title', 'preview', 'film', ...OPTIONS];
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
    this._film = null;
    this._height = 0;
    this._onMessage = this._onMessage.bind(this);
  }

  connectedCallback() {
    window.addEventListener('message', this._onMessage);
    this._render();
  }

  disconnectedCallback() {
    window.removeEventListener('message', this._onMessage);
    if (this._seen) this._seen.disconnect();
    if (this._film) this._film.stop();
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

  // While the film stands in, playing, stepping and seeking move it (the playground takes over
  // where it is); a step the API refuses still goes to the playground, which answers `error`.
  play() { if (this._film) this._film.play(); else this._post({ type: 'play' }); }
  pause() { if (this._film) this._film.pause(); else this._post({ type: 'pause' }); }
  step() { if (this._film) this._film.seek(this._film.pos + 1); else this._post({ type: 'step' }); }
  seek(n) {
    const step = Number(n);
    if (this._film && Number.isInteger(step) && step >= 1) this._film.seek(step - 1);
    else this._post({ type: 'seek', step });
  }
  load(s) {
    if (this._film) this._film.drop();
    const text = String(s);
    this._post(/^v\d+\./.test(text.trim()) ? { type: 'load', link: text.trim() } : { type: 'load', scenario: text });
  }

  // ---------------------------------------------------------------- the frame

  _title() {
    return this.getAttribute('title') || 'Rollout Playground: a Kubernetes Deployment, step by step';
  }

  // The frame's address: the playground's, its options as the query, the share fragment.
  _url() {
    const url = this._address('src', './');
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

  // The film's address (absolute, no fragment), if the element has one.
  _filmUrl() {
    const u = this._address('film');
    if (!u) return null;
    u.hash = '';
    return u.href;
  }

  // An attribute's address, resolved against the page (`fallback` when the attribute is
  // absent; null when neither is). One that does not parse, or is not http(s), throws a
  // message naming the attribute: the element says it in its place and as an `error` event,
  // never as an exception on the host page.
  _address(name, fallback) {
    const v = this.getAttribute(name);
    if (!v && fallback === undefined) return null;
    let u;
    try { u = new URL(v || fallback, document.baseURI); } catch (_) {
      throw new Error(`${name} is not an address: ${JSON.stringify(v)}`);
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:') {
      throw new Error(`${name} must be an http(s) address, got ${JSON.stringify(v)}`);
    }
    return u;
  }

  // What is wrong with the element's addresses (src, film, preview), if anything.
  _problem() {
    try {
      this._url();
      this._address('film');
      this._address('preview');
      return null;
    } catch (e) {
      return e.message;
    }
  }

  // The element cannot show the playground: a note in its place, and the `error` event.
  _fail(message) {
    const p = document.createElement('p');
    p.className = 'problem';
    p.setAttribute('role', 'alert');
    p.setAttribute('part', 'problem');
    p.textContent = `The playground cannot be shown here: ${message}.`;
    this.shadowRoot.append(p);
    this._emit('error', { source: SOURCE, type: 'error', message });
  }

  // The step the embed opens at, from 0.
  _first() { return Math.max(1, parseInt(this.getAttribute('step'), 10) || 1) - 1; }

  _render(keepEager) {
    if (this._seen) { this._seen.disconnect(); this._seen = null; }
    if (this._film) { this._film.stop(); this._film = null; }
    this._frame = null;
    this._ready = false;
    for (const n of [...this.shadowRoot.childNodes]) if (n.nodeName !== 'STYLE') n.remove();
    const problem = this._problem();
    if (problem) { this._fail(problem); return; }
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
      const film = this._filmUrl();
      const still = this._address('preview');
      if (still) {
        const img = document.createElement('img');
        img.src = still.href;
        img.alt = '';
        img.className = 'still';
        b.append(img);
      } else if (film) {
        // No still: the film's step, drawn from the file's beginning (never the whole film
        // as an image, which a long run makes megabytes to decode before any click).
        const room = document.createElement('div');
        room.className = 'still';
        b.append(room);
        stillOf(film, this._first()).then(svg => {
          if (svg && room.isConnected) room.replaceWith(svg);
        }, () => {});
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
      for (const n of [...this.shadowRoot.childNodes]) if (n.nodeName !== 'STYLE') n.remove();
      this._fail(e.message);
      return;
    }
    const was = this.shadowRoot.querySelector('.facade');
    const f = document.createElement('iframe');
    f.title = this._title();
    f.src = url.href;
    f.setAttribute('part', 'frame');
    this._origin = url.origin;
    this._frame = f;
    this._height = 0;
    const film = this._filmUrl();
    if (film) {
      // The recording stands in, at the button's height, while the playground loads behind it.
      const until = parseInt(this.getAttribute('until'), 10);
      const flag = this.getAttribute('autoplay');
      const still = this._address('preview');
      const drawn = was && was.querySelector('svg.still');
      this._film = new Film(film, still ? still.href : drawn ? drawn.cloneNode(true) : null, this._title(), this._first(), until >= 1 ? until - 1 : Infinity,
        this.hasAttribute('autoplay') && flag !== 'false' && flag !== '0');
      const player = this._film.root;
      if (was) {
        player.style.minHeight = was.offsetHeight + 'px';
        was.replaceWith(player);
      } else this.shadowRoot.append(player);
      f.className = 'behind';
      f.inert = true;
      f.setAttribute('aria-hidden', 'true');
      f.tabIndex = -1;
      f.style.height = player.offsetHeight + 'px';
      this.shadowRoot.append(f);
      if (focus) this._film.playBtn.focus();
      return;
    }
    // The facade's height until the playground says its own: no jump when it takes over.
    f.style.height = (was ? was.offsetHeight : FIRST_HEIGHT) + 'px';
    if (was) was.replaceWith(f);
    else this.shadowRoot.append(f);
    if (focus) f.focus();
  }

  // The playground is ready: it goes where the film is, at the film's step, and takes its
  // place (at the film's height until it says its own).
  _takeOver(ready) {
    const film = this._film;
    if (!film) return;
    this._film = null;
    film.stop();
    const at = film.handoff(ready);
    if (at) {
      this._pending.push({ type: 'seek', step: at.step });
      if (at.playing) this._pending.push({ type: 'play' });
    }
    const f = this._frame;
    const focused = this.shadowRoot.activeElement && film.root.contains(this.shadowRoot.activeElement);
    f.style.height = (this._height || film.root.offsetHeight) + 'px';
    f.classList.remove('behind');
    f.inert = false;
    f.removeAttribute('aria-hidden');
    f.removeAttribute('tabindex');
    film.root.remove();
    if (focused) f.focus();
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
      if (h > 0 && this._film) this._height = h;
      else if (h > 0) f.style.height = h + 'px';
      return;
    }
    if (m.type === 'ready') {
      this._ready = true;
      this._takeOver(m);
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
