#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml): the manifest editor's text box, www/editor/editor.js
# with the CodeMirror packages it imports (package.json), bundled by esbuild into the build's
# editor.js, which www/boot.js loads beside the wasm.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${TRUNK_STAGING_DIR:?editor.sh is the post_build hook of Trunk.toml: run trunk build}"
node_modules/.bin/esbuild www/editor/editor.js --bundle --minify --format=esm \
  --legal-comments=none --log-level=warning --outfile="$out/editor.js"
