#!/usr/bin/env bash
# Reports the release .wasm raw and gzipped, and fails when the gzipped size passes the guard:
# the product budget, 300 KB gzipped (issue 3; see ARCHITECTURE.md, "Size").
set -euo pipefail
cd "$(dirname "$0")/.."
GUARD_GZ=${GUARD_GZ:-300000}
BUDGET_GZ=300000
f=$(ls dist/*_bg.wasm 2>/dev/null | head -1)
[ -n "$f" ] || { echo "size: no dist/*_bg.wasm (run trunk build --release first)"; exit 1; }
raw=$(stat -c %s "$f")
gz=$(gzip -9 -c "$f" | wc -c)
echo "size: $(basename "$f"): ${raw} bytes raw, ${gz} bytes gzipped (budget ${BUDGET_GZ}, guard ${GUARD_GZ})"
[ "$gz" -le "$GUARD_GZ" ] || { echo "size: gzipped wasm grew past the guard"; exit 1; }
