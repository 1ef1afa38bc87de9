#!/usr/bin/env bash
# Installs what is missing (nothing beyond the Rust toolchain for the core) and runs every test:
# formatting, clippy, unit + conformance + scenario + property tests, and `rollout check` over
# the shared conformance vectors. Idempotent: a second run installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo >/dev/null || { echo "cargo is required (rustup)"; exit 1; }
rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
cargo fmt --check
cargo clippy --all-targets -- -D warnings
cargo test
cargo build --bin rollout
vectors=tests/conformance
[ -d ../shared/conformance ] && vectors=../shared/conformance
./target/debug/rollout check "$vectors"/*.json | tail -1
