#!/usr/bin/env bash
# Reports the release .wasm raw, gzipped and brotli-compressed, and fails when the gzipped size
# passes the page's budget: 820 000 bytes gzipped (see docs/performance.md, "Size").
set -euo pipefail
cd "$(dirname "$0")/.."
BUDGET_GZ=820000
f=$(ls dist/*_bg.wasm 2>/dev/null | head -1)
[ -n "$f" ] || { echo "size: no dist/*_bg.wasm (run trunk build --release first)"; exit 1; }
raw=$(stat -c %s "$f")
gz=$(gzip -9 -c "$f" | wc -c)
br=$(brotli -q 11 -c "$f" | wc -c)
echo "size: $(basename "$f"): ${raw} bytes raw, ${gz} bytes gzipped, ${br} bytes brotli (budget ${BUDGET_GZ} gzipped)"
# The manifest's text box (CodeMirror, scripts/editor.sh): the full page fetches it beside the
# wasm, an embed does not. Reported, not budgeted: it is a library's, and moves with its version.
if [ -f dist/editor.js ]; then
  echo "size: editor.js: $(stat -c %s dist/editor.js) bytes raw, $(gzip -9 -c dist/editor.js | wc -c) bytes gzipped, $(brotli -q 11 -c dist/editor.js | wc -c) bytes brotli"
fi
[ "$gz" -le "$BUDGET_GZ" ] || { echo "size: the gzipped wasm is past the budget"; exit 1; }
