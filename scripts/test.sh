#!/usr/bin/env bash
# Installs what is missing (scripts/setup.sh; idempotent) and runs every test: formatting,
# clippy (native and wasm32), unit + conformance + scenario + property tests, `rollout check`
# over the shared conformance vectors, the release web build with its size check, and the
# browser tests in headless Chromium, then the browser benchmark's figures. With
# KUBERNETES_CHECKOUT naming kubernetes/kubernetes sources (a checkout, or files kept per
# commit), it also checks data/upstream-functions.tsv's lines against them.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$PATH"
cargo fmt --check
cargo clippy --all-targets -- -D warnings
cargo clippy --target wasm32-unknown-unknown --lib --bin playground -- -D warnings
cargo test
cargo build --bin rollout
vectors=tests/conformance
[ -d ../shared/conformance ] && vectors=../shared/conformance
./target/debug/rollout check "$vectors"/*.json | tail -1
if [ -n "${KUBERNETES_CHECKOUT:-}" ]; then
  ./scripts/upstream-lines.sh --check "$KUBERNETES_CHECKOUT"
fi
trunk build --release
./scripts/size.sh
# A docs site built with the Hugo shortcode (embed/hugo), which the browser tests open.
hugo --source tests/hugo --destination "$PWD/target/hugo-site" --quiet
./scripts/hugo-refusals.sh
./target/debug/rollout verify-embeds www target/hugo-site
node tests/browser/e2e.mjs dist
# Figures for big Deployments (never fails on a number): tests/browser/out/bench.txt.
node tests/browser/bench.mjs dist
