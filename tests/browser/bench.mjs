// Browser benchmark for big Deployments (figures, not a timed test: nothing here fails on a
// number). Run by scripts/test.sh after the browser tests:
//   node tests/browser/bench.mjs [dist-dir]
// For 1 000 and 10 000 replicas (a rollout to a new image at 60 s, until settled) it prints and
// writes to tests/browser/out/bench.txt: the page's load with the run recorded, the JS API's
// recording (`runScenario`), a seek to the end, a `kubectl set image` typed at the last step (timed
// in the page from the Enter key to the frame after its output shows), frame intervals while the rollout plays at 4x, and the memory the
// page holds (wasm linear memory and the JS heap); and a screenshot of the 10 000-pod rollout
// half-way (bench-10000.png). Then a long session: 200 commands typed one after another at the
// end of the default example, the 20th against the 200th.
import fs from 'node:fs';
import path from 'node:path';
import { biggerState, deploymentScenario, editorText, pastedState, start } from './harness.mjs';

const out = path.resolve('tests/browser/out');
fs.mkdirSync(out, { recursive: true });
const { base, browser, stop } = await start(process.argv[2]);

const scenario = n => deploymentScenario(`big-${n}`, n) + `steps:
  - {at: 60s, run: kubectl set image deployment/web app=app:2}
until: settled
`;

const lines = [];
const say = l => { lines.push(l); console.log(l); };
const ms = x => `${x.toFixed(0)} ms`;

async function seekTo(page, t) {
  return page.evaluate(t => new Promise(resolve => {
    const r = document.querySelector('input[aria-label="Virtual time"]');
    const t0 = performance.now();
    r.value = t === 'end' ? r.max : t;
    r.dispatchEvent(new Event('input', { bubbles: true }));
    requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - t0)));
  }), t);
}

async function frameIntervals(page, count) {
  const ts = await page.evaluate(count => new Promise(resolve => {
    const ts = [];
    const tick = t => { ts.push(t); if (ts.length < count) requestAnimationFrame(tick); else resolve(ts); };
    requestAnimationFrame(tick);
  }), count);
  const d = ts.slice(1).map((t, i) => t - ts[i]).sort((a, b) => a - b);
  return { p95: d[Math.floor(d.length * 0.95)], worst: d[d.length - 1], n: d.length };
}

// ONLY=text runs only the parts whose names contain it ("replicas", "first paint", "three
// embeds", "paste", "long session").
const part = name => !process.env.ONLY || name.includes(process.env.ONLY);
for (const n of part('replicas') ? [1000, 10000] : []) {
  // The JS API on a page of its own: its trace, turned into JS objects, would count in the
  // memory figure of the page that follows.
  const text = scenario(n);
  const apiPage = await browser.newPage();
  await apiPage.goto(base);
  await apiPage.waitForSelector('.cluster');
  const api = await apiPage.evaluate(y => {
    const t0 = performance.now();
    const steps = window.wasmBindings.runScenario(y).length;
    return { ms: performance.now() - t0, steps };
  }, text);
  const fragment = await apiPage.evaluate(y => window.wasmBindings.shareLink(y, 0), text);
  await apiPage.close();
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.addInitScript(() => {
    addEventListener('TrunkApplicationStarted', e => { window.__wasm = e.detail.wasm; });
    // The longest gap between two frames that both showed the run being recorded in slices.
    window.__gap = 0;
    let last = 0;
    const frame = t => {
      const recording = !!document.querySelector('.recording');
      if (last && recording) window.__gap = Math.max(window.__gap, t - last);
      last = recording ? t : 0;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  const t0 = Date.now();
  await page.goto(`${base}#${fragment}`);
  // The default scenario shows at once; the big one is recorded in slices, then opens.
  await page.waitForFunction(name => document.querySelector('.deploy-head') && !document.querySelector('.recording')
    && (s => s.options[s.selectedIndex].textContent)(document.querySelector('#gallery')) === name, `big-${n}`, { timeout: 120000 });
  const load = Date.now() - t0;
  const loaded = await page.evaluate(() => window.__wasm?.memory?.buffer.byteLength ?? 0);
  const slices = await page.evaluate(() => window.__gap);
  const seek = await seekTo(page, 'end');
  // Timed in the page, from the Enter key to the first frame painted after the answer
  // printed (Playwright's own round trips would add tens of milliseconds).
  await page.fill('#console-input', 'kubectl set image deployment/web app=app:3');
  // (The scenario's own command printed "image updated" already: wait for one more.)
  const command = await page.evaluate(() => new Promise(resolve => {
    const out = document.getElementById('console-out');
    const count = () => out.textContent.split('image updated').length;
    const before = count();
    const observer = new MutationObserver(() => {
      if (count() === before) return;
      observer.disconnect();
      requestAnimationFrame(() => resolve(performance.now() - t0));
    });
    observer.observe(out, { childList: true, subtree: true, characterData: true });
    const t0 = performance.now();
    document.getElementById('console-input').dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
  }));
  // The first rollout, played at 4x from the change at 60 s.
  await seekTo(page, 60000);
  await page.selectOption('select[aria-label="Speed"]', '4');
  await page.click('button[aria-label="Play"]');
  const frames = await frameIntervals(page, 240);
  await page.click('button[aria-label="Pause"]').catch(() => {});
  const memory = await page.evaluate(() => ({
    wasm: window.__wasm?.memory?.buffer.byteLength ?? 0,
    heap: performance.memory?.usedJSHeapSize ?? 0,
  }));
  say(`${String(n).padStart(6)} replicas: page load with the run recorded (in slices) ${ms(load)}, longest frame meanwhile ${ms(slices)}; runScenario ${ms(api.ms)} (${api.steps} steps); ` +
    `seek to the end ${ms(seek)}; a command at the last step ${ms(command)}; ` +
    `playing at 4x: p95 frame ${frames.p95.toFixed(1)} ms, worst ${frames.worst.toFixed(1)} ms (${frames.n} frames); ` +
    `memory: wasm ${(loaded / 1048576).toFixed(0)} MB once loaded, ${(memory.wasm / 1048576).toFixed(0)} MB after the command, JS heap ${(memory.heap / 1048576).toFixed(0)} MB`);
  if (n === 10000) {
    await seekTo(page, 63000);
    await page.screenshot({ path: path.join(out, 'bench-10000.png') });
  }
  await page.close();
}

// A long session, as a person types one (issue 30): 200 commands one after another at the end
// of the default example, each timed in the page from the Enter key to the frame after its
// answer shows; the 20th and the 200th should cost the same. Twice: `kubectl scale` up and down
// (the world grows: the pods scaled away stay terminating, since the commands land within
// seconds of each other), and `kubectl annotate` (the world stays as it is).
async function longSession(name, command, answer) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.addInitScript(() => {
    addEventListener('TrunkApplicationStarted', e => { window.__wasm = e.detail.wasm; });
  });
  await page.goto(base);
  await page.waitForSelector('.deploy-head');
  await seekTo(page, 'end');
  const before = await page.evaluate(() => window.__wasm?.memory?.buffer.byteLength ?? 0);
  const elements = () => page.evaluate(() => document.querySelectorAll('*').length);
  const elementsBefore = await elements();
  const times = await page.evaluate(async ([count, command, answer]) => {
    const input = document.getElementById('console-input');
    const out = document.getElementById('console-out');
    const one = cmd => new Promise(resolve => {
      // Done once the console shows this command's echo and then its answer among the lines
      // after it (a note may follow: where the view moved; two commands in a row never echo
      // alike).
      const done = () => {
        const lines = [...out.children].slice(-4).map(e => e.textContent);
        const at = lines.lastIndexOf(`$ ${cmd}`);
        return at >= 0 && lines.slice(at + 1).some(l => l.includes(answer));
      };
      const observer = new MutationObserver(() => {
        if (!done()) return;
        observer.disconnect();
        requestAnimationFrame(() => resolve(performance.now() - t0));
      });
      observer.observe(out, { childList: true, subtree: true, characterData: true });
      input.value = cmd;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      const t0 = performance.now();
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    });
    // `{i}`: the command's number; `{r}`: 3, 4 or 5 replicas in turn.
    const make = i => command.replace('{i}', String(i)).replace('{r}', String(3 + (i % 3)));
    const times = [];
    for (let i = 1; i <= count; i++) {
      times.push(await one(make(i)));
      // The reader's pace: the page paints between two commands.
      await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
    }
    return times;
  }, [200, command, answer]);
  const after = await page.evaluate(() => window.__wasm?.memory?.buffer.byteLength ?? 0);
  const elementsAfter = await elements();
  const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const around = k => median(times.slice(k - 10, k + 10));
  say(`long session (${name}): 200 commands at the end of the default example: medians of the ten either side ` +
    `${ms(around(20))} at the 20th, ${ms(around(100))} at the 100th, ${ms(around(190))} at the 190th ` +
    `(the 20th ${ms(times[19])}, the 200th ${ms(times[199])}); wasm memory ${(before / 1048576).toFixed(0)} MB before, ` +
    `${(after / 1048576).toFixed(0)} MB after; page elements ${elementsBefore} before, ${elementsAfter} after`);
  await page.close();
}
// A page on a mid-range phone: 4x CPU, 150 ms / 1.6 Mbps (with its DevTools session).
async function phone() {
  const page = await browser.newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  return { page, cdp };
}

// What a reader on a mid-range phone waits for (4x CPU, 150 ms / 1.6 Mbps): the first
// contentful paint (the still picture index.html carries, before the wasm) and the playground
// drawn (before the still picture, the page was blank until then). The harness serves
// uncompressed, as the slowest host would.
async function throttledFirstPaint() {
  const { page, cdp } = await phone();
  const t0 = Date.now();
  await page.goto(base, { waitUntil: 'commit' });
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, { timeout: 60000 });
  const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0].startTime);
  const picture = await page.evaluate(() => !!document.querySelector('#preview img'));
  await page.waitForSelector('.cluster', { timeout: 120000 });
  const drawn = Date.now() - t0;
  say(`first paint (4x CPU, 150 ms / 1.6 Mbps, uncompressed): first contentful paint ${ms(fcp)}${picture ? ' (the still picture)' : ''}; the playground drawn ${ms(drawn)}`);
  await page.close();
}
if (part('first paint')) await throttledFirstPaint();

// A docs page with three click-to-load embeds on the same phone, from a host that compresses
// (gzip) and caches the hashed files: when each still picture shows, how far the page shifts
// (CLS), the longest main-thread task before the reader clicks, how long a clicked embed takes
// to be ready, and how many times the wasm crosses the network once all three are open.
async function docsPageWithThreeEmbeds(origin) {
  const { page, cdp } = await phone();
  const wasmUrls = new Map();
  let wasmBytes = 0, wasmTransfers = 0;
  cdp.on('Network.responseReceived', e => { if (e.response.url.endsWith('.wasm')) wasmUrls.set(e.requestId, e.response.fromDiskCache || e.response.fromMemoryCache); });
  cdp.on('Network.loadingFinished', e => {
    if (wasmUrls.has(e.requestId) && !wasmUrls.get(e.requestId) && e.encodedDataLength > 1000) { wasmTransfers++; wasmBytes += e.encodedDataLength; }
  });
  await page.addInitScript(() => {
    window.__cls = 0; window.__long = []; window.__ready = [];
    new PerformanceObserver(l => { for (const e of l.getEntries()) if (!e.hadRecentInput) window.__cls += e.value; }).observe({ type: 'layout-shift', buffered: true });
    new PerformanceObserver(l => { for (const e of l.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask', buffered: true });
    document.addEventListener('ready', () => window.__ready.push(performance.now()), true);
  });
  await page.goto(origin + '/compressed/three-embeds.html', { waitUntil: 'commit' });
  const stills = await page.waitForFunction(() => {
    const els = [...document.querySelectorAll('rollout-playground')];
    const ok = els.length === 3 && els.every(el => { const i = el.shadowRoot && el.shadowRoot.querySelector('img.still'); return i && i.complete && i.naturalWidth > 0; });
    return ok && performance.now();
  }, null, { timeout: 60000, polling: 50 }).then(h => h.jsonValue());
  await page.waitForTimeout(2000);
  const before = await page.evaluate(() => ({ long: Math.max(0, ...window.__long), count: window.__long.length, cls: window.__cls }));
  const clickedAt = await page.evaluate(() => { document.querySelector('#one').shadowRoot.querySelector('.facade').click(); return performance.now(); });
  // Interactive before the wasm: the film (the run recorded at build time) read, its picture
  // drawn, and a press on play moving it on.
  const playable = await page.waitForFunction(() => {
    const p = document.querySelector('#one').shadowRoot.querySelector('.player[data-ready]');
    return p && p.querySelector('svg.still text') && performance.now();
  }, null, { timeout: 60000, polling: 20 }).then(h => h.jsonValue());
  await page.evaluate(() => document.querySelector('#one').shadowRoot.querySelector('.player button.pp').click());
  const moved = await page.waitForFunction(() => {
    const r = document.querySelector('#one').shadowRoot.querySelector('.player input[type=range]');
    return r && Number(r.value) > 1 && performance.now();
  }, null, { timeout: 60000, polling: 20 }).then(h => h.jsonValue());
  const readyAt = await page.waitForFunction(() => window.__ready.length >= 1 && window.__ready[0], null, { timeout: 120000, polling: 50 }).then(h => h.jsonValue());
  for (const id of ['two', 'three']) await page.evaluate(id => document.querySelector('#' + id).shadowRoot.querySelector('.facade').click(), id);
  const t2 = await page.evaluate(() => performance.now());
  const allReady = await page.waitForFunction(() => window.__ready.length >= 3 && window.__ready[2], null, { timeout: 120000, polling: 50 }).then(h => h.jsonValue());
  await page.waitForTimeout(500);
  const cls = await page.evaluate(() => window.__cls);
  say(`docs page with three click-to-load embeds (4x CPU, 150 ms / 1.6 Mbps, gzip): the three still pictures shown at ${ms(stills)}; ` +
    `before the click: longest main-thread task ${ms(before.long)} (${before.count} over 50 ms), layout shift ${before.cls.toFixed(4)}; ` +
    `a clicked embed interactive ${ms(playable - clickedAt)} after the click (its recorded run playable; play moved it ${ms(moved - clickedAt)} after the click), ` +
    `the playground ready ${ms(readyAt - clickedAt)} after the click; the other two ready ${ms(allReady - t2)} after theirs; ` +
    `layout shift over the whole visit ${cls.toFixed(4)}; the wasm crossed the network ${wasmTransfers} time(s), ${(wasmBytes / 1024).toFixed(0)} KiB`);
  await page.close();
}
if (part('three embeds')) await docsPageWithThreeEmbeds(new URL(base).origin);

// A cluster's state pasted into the editor as a person pastes it (the clipboard, Ctrl+V), then
// typed into (issue 45): the gallery's `kubectl get … -o yaml` List (52 KB), and the same with
// its pods copied under new names and uids until it is about 500 KB (a realistic namespace).
// From the paste to the text checked (the editor's note on the state shows), the longest
// main-thread task meanwhile; then 20 keystrokes at its end: the page's own handler of each
// (its work), and the time from the key to the next frame (the browser's edit of the field
// included).
async function pasteAndType(label, text) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.addInitScript(() => {
    window.__long = [];
    new PerformanceObserver(l => { for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(base);
  await page.waitForSelector('.deploy-head');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(base).origin });
  await page.bringToFront();
  await page.evaluate(t => navigator.clipboard.writeText(t), text);
  await page.focus('#manifest');
  await page.keyboard.press('Control+A');
  const t0 = await page.evaluate(() => performance.now());
  await page.keyboard.press('Control+V');
  // Checked: the note on a cluster state shows, or the problems do (said, not waited out).
  const shown = await page.waitForFunction(n => RolloutEditor.textOf(document.querySelector('#manifest')).length === n
    && (document.querySelector('.state-note') || document.querySelector('.problems')) && performance.now(),
  text.length, { timeout: 120000, polling: 'raf' }).then(h => h.jsonValue());
  const problems = await page.locator('.problems li').allInnerTexts();
  const long = await page.evaluate(t0 => window.__long.filter(([s]) => s >= t0 - 1).map(([, d]) => d), t0);
  // Keystrokes at the end of the text (Ctrl+End, as a person gets there).
  await page.keyboard.press('Control+End');
  await page.evaluate(() => {
    window.__keys = [];
    let key = 0;
    document.addEventListener('keydown', () => { key = performance.now(); }, true);
    // The keystroke's work: from the key to the input event seen at the window after the text
    // box and the page took the edit (the browser's edit of the element, CodeMirror reading it,
    // the page's check of a short text); then to the next frame.
    window.addEventListener('input', () => {
      const work = performance.now() - key;
      requestAnimationFrame(() => window.__keys.push([work, performance.now() - key]));
    });
  });
  for (let i = 0; i < 20; i++) {
    await page.keyboard.type(i % 5 === 4 ? ' ' : 'x');
    await page.waitForFunction(n => window.__keys.length > n, i, { polling: 'raf' });
  }
  const keys = await page.evaluate(() => window.__keys);
  const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const work = keys.map(k => k[0]), frame = keys.map(k => k[1]);
  say(`paste ${label} (${(text.length / 1024).toFixed(0)} KB, ${text.split('\n').length} lines) with Ctrl+V: checked ${ms(shown - t0)} after the paste` +
    `${problems.length ? ` (${problems.length} problems: ${problems[0]})` : ''}, longest main-thread task meanwhile ${ms(Math.max(0, ...long))} (${long.length} over 50 ms${long.length ? `: ${long.map(d => ms(d)).join(", ")}` : ""}); ` +
    `20 keystrokes at its end: the keystroke's work median ${work.length ? median(work).toFixed(1) : '-'} ms, worst ${Math.max(...work).toFixed(1)} ms; to the next frame median ${median(frame).toFixed(1)} ms, worst ${Math.max(...frame).toFixed(1)} ms`);
  await page.close();
}
if (part('paste')) {
  await pasteAndType('the gallery\u2019s List', pastedState);
  await pasteAndType('a 180 KB List', biggerState(140 * 1024));
  await pasteAndType('a 500 KB List', biggerState(500 * 1024));
}
if (part('long session')) await longSession('kubectl scale', 'kubectl scale deployment/web --replicas={r}', 'scaled');
if (part('long session')) await longSession('kubectl annotate', 'kubectl annotate deployment/web --overwrite note={i}', 'annotated');

fs.writeFileSync(path.join(out, 'bench.txt'), lines.join('\n') + '\n');
await stop();
