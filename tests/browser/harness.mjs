// What the browser tests and the browser benchmark share: dist/ served under /play/ (as a
// docs site would host it: the build must use relative URLs) and at the root of a second
// origin (the embed, as a docs site would use it), and Debian's Chromium, headless. The docs
// page is served as its author would configure it for these two origins: each listed as a
// playground it may embed (and allowed in its frame-src). axe-core is served beside the page
// (/play/__axe.js), so that the accessibility checks load it as a same-origin script, which
// the pages' Content-Security-Policy allows. The docs site the test command builds with Hugo
// (target/hugo-site, from tests/hugo) is served at /site/, and the build laid out by
// scripts/publish.sh (its release's own path and latest/) at /hosted/. /compressed/ serves
// dist/ as a docs host would: gzip, and hashed files cacheable for a year (the benchmark's
// docs page with three embeds, tests/browser/three-embeds.html, is served beside it).
import { chromium } from 'playwright-core';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import zlib from 'node:zlib';

// A scenario of one Deployment, web, of `replicas` pods on app:1 (the tests and the benchmark
// add steps to it).
export const deploymentScenario = (name, replicas) => `name: ${name}
objects:
  - |
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: ${replicas}
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: app, image: "app:1"}]}
`;

// The gallery's pasted state, as a reader pastes what kubectl printed.
export const pastedState = fs.readFileSync('scenarios/pasted-mid-rollout.yaml', 'utf8')
  .split('\n  - |\n')[1].split('\n').map(l => l.slice(4)).join('\n');
// The same List with its pods copied under new names and uids until it holds `bytes`.
export function biggerState(bytes) {
  const [head, ...items] = pastedState.trimEnd().split(/\n(?=- )/);
  const last = items.pop();
  const cut = last.search(/\n(?=[a-z])/);
  items.push(last.slice(0, cut));
  const tail = last.slice(cut);
  const pods = items.filter(i => i.includes('\n  kind: Pod\n'));
  const out = [...items];
  let size = pastedState.length;
  for (let k = 1; size < bytes; k++) {
    for (const p of pods) {
      const copy = p.replace(/\n    name: (\S+)/, `\n    name: $1-c${k}`).replace(/\n    uid: (\S+)/, `\n    uid: $1-c${k}`);
      out.push(copy);
      size += copy.length + 1;
    }
  }
  return [head, ...out].join('\n') + tail + '\n';
}
export async function start(distDir) {
  const dist = path.resolve(distDir || 'dist');
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml' };
  const gzipped = new Map();
  const hosted = fs.mkdtempSync(path.join(os.tmpdir(), 'rollout-hosted-'));
  execFileSync(path.resolve('scripts/publish.sh'), [dist, hosted], { stdio: 'ignore' });
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url.split('?')[0]);
    // The docs site the test command builds with Hugo (tests/hugo), and the published layout.
    for (const [prefix, site] of [['/site/', path.resolve('target/hugo-site')], ['/hosted/', hosted]]) {
      if (!url.startsWith(prefix)) continue;
      let f = path.join(site, url.slice(prefix.length));
      if (f.startsWith(site) && fs.existsSync(f) && fs.statSync(f).isDirectory()) f = path.join(f, 'index.html');
      if (!f.startsWith(site) || !fs.existsSync(f)) { res.writeHead(404); return res.end(); }
      res.writeHead(200, { 'content-type': types[path.extname(f)] || 'application/octet-stream' });
      return fs.createReadStream(f).pipe(res);
    }
    if (url === '/compressed/three-embeds.html' || url === '/play/three-embeds.html') {
      res.writeHead(200, { 'content-type': types['.html'] });
      return fs.createReadStream(path.resolve('tests/browser/three-embeds.html')).pipe(res);
    }
    if (url.startsWith('/compressed/')) {
      let f = path.join(dist, url.slice('/compressed/'.length) || 'index.html');
      if (!f.startsWith(dist) || !fs.existsSync(f) || fs.statSync(f).isDirectory()) f = path.join(dist, 'index.html');
      if (!gzipped.has(f)) gzipped.set(f, zlib.gzipSync(fs.readFileSync(f), { level: 9 }));
      const hashed = /-[0-9a-f]{8,}(_bg)?\.(js|wasm|css)$/.test(f);
      res.writeHead(200, {
        'content-type': types[path.extname(f)] || 'application/octet-stream',
        'content-encoding': 'gzip',
        'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      });
      return res.end(gzipped.get(f));
    }
    if (!url.startsWith('/play/')) { res.writeHead(404); return res.end(); }
    if (url === '/play/__axe.js') {
      res.writeHead(200, { 'content-type': types['.js'] });
      return fs.createReadStream(path.resolve('node_modules/axe-core/axe.min.js')).pipe(res);
    }
    let f = path.join(dist, url.slice('/play/'.length) || 'index.html');
    if (!f.startsWith(dist) || !fs.existsSync(f) || fs.statSync(f).isDirectory()) f = path.join(dist, 'index.html');
    res.writeHead(200, { 'content-type': types[path.extname(f)] || 'application/octet-stream' });
    if (path.basename(f) === 'docs-example.html') {
      const origins = `${new URL(base).origin} ${new URL(otherBase).origin}`;
      return res.end(fs.readFileSync(f, 'utf8')
        .replace('<meta name="playground-origins" content="">', `<meta name="playground-origins" content="${origins}">`)
        .replace("frame-src 'self'", `frame-src 'self' ${origins}`));
    }
    fs.createReadStream(f).pipe(res);
  });
  let otherBase = '';
  await new Promise(r => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}/play/`;
  const other = http.createServer((req, res) => {
    req.url = '/play' + req.url;
    server.emit('request', req, res);
  });
  await new Promise(r => other.listen(0, '127.0.0.1', r));
  otherBase = `http://127.0.0.1:${other.address().port}/`;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  const stop = async () => { await browser.close(); other.close(); server.close(); fs.rmSync(hosted, { recursive: true, force: true }); };
  return { base, otherBase, browser, stop };
}
// The manifest editor's whole text (its element holds only the lines in view: www/editor/editor.js).
export const editorText = page => page.evaluate(() => RolloutEditor.textOf(document.querySelector('#manifest')));
