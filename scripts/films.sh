#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml): every gallery example's run as a film,
# previews/NAME.film.svg beside the still pictures in the build (`rollout preview --format
# film`), which `<rollout-playground film="…">` plays from the click until the playground is
# ready. Made from the scenarios at each build, so they never lag behind the controllers. A
# scenario with variants embeds as a comparison and has none.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${TRUNK_STAGING_DIR:?films.sh is the post_build hook of Trunk.toml: run trunk build}/previews"
cargo build --quiet --bin rollout
mkdir -p "$out"
for f in scenarios/*.yaml; do
  film="$out/$(basename "$f" .yaml).film.svg"
  if ! ./target/debug/rollout preview "$f" --format film > "$film" 2> "$film.why"; then
    rm -f "$film"
    # The one refusal that is not a failure: a comparison has no film (rollout says so).
    grep -q ' has variants: ' "$film.why" || { cat "$film.why" >&2; rm -f "$film.why"; exit 1; }
  fi
  rm -f "$film.why"
done
