// The component example's own script: each element's events under it, and a site-wide theme
// toggle that every element follows live (its `theme` attribute).
for (const el of document.querySelectorAll('rollout-playground')) {
  const out = document.getElementById(el.id + '-readout');
  el.addEventListener('ready', e => { out.dataset.ready = e.detail.steps; out.textContent = 'ready: ' + e.detail.steps + ' steps'; });
  el.addEventListener('step', e => { out.dataset.step = e.detail.step; out.textContent = 'step ' + e.detail.step + ' at ' + (e.detail.t / 1000).toFixed(1) + 's'; });
  el.addEventListener('error', e => { out.dataset.error = e.detail.message; out.textContent = 'error: ' + e.detail.message; });
}
const toggle = document.getElementById('theme');
toggle.addEventListener('click', () => {
  const dark = document.body.classList.toggle('dark');
  toggle.textContent = dark ? 'Light theme' : 'Dark theme';
  for (const el of document.querySelectorAll('rollout-playground')) el.setAttribute('theme', dark ? 'dark' : 'light');
});
