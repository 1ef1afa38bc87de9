#!/usr/bin/env bash
# Installs what the playground's build and tests need and is not yet on this machine (each step
# checks first, so a second run installs nothing):
#   rustfmt, clippy, the wasm32 target; trunk and wasm-bindgen-cli (the version Cargo.lock pins);
#   npm's binaryen (wasm-opt), esbuild and CodeMirror (the manifest's text box), playwright-core
#   and axe-core (package.json, at package-lock.json's versions); Debian's chromium, chromium-driver and brotli
#   (scripts/size.sh reports the page's brotli size), and hugo (the test command builds a docs site
#   with the playground's Hugo shortcode).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo >/dev/null || { echo "cargo is required (rustup)"; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }
rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
rustup target list --installed | grep -q '^wasm32-unknown-unknown$' || rustup target add wasm32-unknown-unknown
WBG=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
if ! trunk --version 2>/dev/null | grep -q '0.21.14'; then
  cargo install --locked trunk@0.21.14
fi
if ! wasm-bindgen --version 2>/dev/null | grep -q "$WBG"; then
  cargo install wasm-bindgen-cli@"$WBG"
fi
# (`npm ls` fails when a package of package.json is missing or at another version.)
if ! npm ls --depth=0 >/dev/null 2>&1 || [ ! -x node_modules/.bin/wasm-opt ]; then
  npm install --no-audit --no-fund
fi
missing=""
have chromium || missing="$missing chromium"
have chromedriver || missing="$missing chromium-driver"
have brotli || missing="$missing brotli"
have hugo || missing="$missing hugo"
if [ -n "$missing" ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get install -y $missing || { $SUDO apt-get update && $SUDO apt-get install -y $missing; }
fi
