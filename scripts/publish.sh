#!/usr/bin/env bash
# Lays a built playground (dist/, from `trunk build --release`) out for hosting under versioned
# paths, so published docs keep the playground they were written against:
#
#   scripts/publish.sh [DIST] SITE_DIR      (DIST defaults to dist)
#
# writes SITE_DIR/VERSION/ (VERSION is the build's, from its index.html) and refreshes
# SITE_DIR/latest/ to the same files. A release already in SITE_DIR is never rewritten: the same
# files again is a no-op, other files under the same version are refused (bump the version in
# Cargo.toml). SITE_DIR/versions.txt lists what is published, oldest first. The playground's
# URLs are relative (Trunk.toml's public_url), so any path works; the Embed dialog of a
# playground served from …/latest/ writes …/VERSION/ into its snippets.
set -euo pipefail
if [ $# -eq 1 ]; then dist=dist; site=$1
elif [ $# -eq 2 ]; then dist=$1; site=$2
else echo "usage: scripts/publish.sh [DIST] SITE_DIR" >&2; exit 2; fi
[ -f "$dist/index.html" ] || { echo "publish: $dist/index.html is missing: build first (trunk build --release)" >&2; exit 2; }
version=$(sed -n 's/.*<meta name="rollout-playground-version" content="\([^"]*\)".*/\1/p' "$dist/index.html" | head -1)
case "$version" in
  ''|*[!0-9A-Za-z.+-]*|latest) echo "publish: $dist/index.html names no release (<meta name=\"rollout-playground-version\">)" >&2; exit 2 ;;
esac
mkdir -p "$site"
if [ -d "$site/$version" ]; then
  if diff -rq "$dist" "$site/$version" >/dev/null; then
    echo "publish: $version is already published with these files: nothing to do"
  else
    echo "publish: $site/$version holds other files; a published release is never rewritten (bump the version in Cargo.toml)" >&2
    diff -rq "$dist" "$site/$version" | head -5 >&2 || true
    exit 1
  fi
else
  tmp=$(mktemp -d "$site/.publish.XXXXXX")
  cp -R "$dist/." "$tmp/"
  mv "$tmp" "$site/$version"
  echo "publish: $site/$version"
fi
# latest/ follows the newest published release by version order (publishing an older build
# again does not move it back).
newest=$(ls -1 "$site" | grep -v '^latest$' | grep -E '^[0-9]' | sort -V | tail -1)
if ! diff -rq "$site/$newest" "$site/latest" >/dev/null 2>&1; then
  tmp=$(mktemp -d "$site/.publish.XXXXXX")
  cp -R "$site/$newest/." "$tmp/"
  rm -rf "$site/latest"
  mv "$tmp" "$site/latest"
  echo "publish: $site/latest is $newest"
fi
ls -1 "$site" | grep -E '^[0-9]' | sort -V > "$site/versions.txt"
