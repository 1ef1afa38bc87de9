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
[ "$gz" -le "$BUDGET_GZ" ] || { echo "size: the gzipped wasm is past the budget"; exit 1; }
