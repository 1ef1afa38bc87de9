#!/usr/bin/env bash
# Installs what is missing (scripts/setup.sh), then builds and serves the playground; the URL is
# printed once the page is ready. PORT=8080 by default.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$PATH"
PORT="${PORT:-8080}"
echo "Rollout Playground: building, then serving at http://127.0.0.1:$PORT/"
exec trunk serve --release --port "$PORT"
