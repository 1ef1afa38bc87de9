#!/usr/bin/env bash
# Writes the commits and line numbers of data/upstream-functions.tsv: each function's `func`
# line and its closing brace, read from kubernetes/kubernetes sources.
#
#   scripts/upstream-lines.sh KUBERNETES_DIR [TAG]     rewrite the data file
#   scripts/upstream-lines.sh --check KUBERNETES_DIR   exit 1 if the data file differs
#
# KUBERNETES_DIR is either a git checkout of kubernetes/kubernetes (every row gets its HEAD,
# and the tag is its exact tag or TAG), or a directory of files kept per commit,
# DIR/<commit>/<path> (each row keeps its commit and is read from that commit's file; a row
# whose commit is - stays a file at the tag, without lines).
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [[ "${1:-}" == "--check" ]]; then check=1; shift; fi
k8s="${1:?usage: scripts/upstream-lines.sh [--check] KUBERNETES_DIR [TAG]}"
data=data/upstream-functions.tsv
if git -C "$k8s" rev-parse HEAD >/dev/null 2>&1; then
  head_commit=$(git -C "$k8s" rev-parse HEAD)
  tag=${2:-$(git -C "$k8s" describe --tags --exact-match 2>/dev/null || echo "-")}
else
  head_commit=""
  tag=${2:-$(awk -F'\t' '$1 == "tag" { print $2 }' data/upstream-functions.tsv)}
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
while IFS= read -r row || [[ -n "$row" ]]; do
  case "$row" in
    "#"*|"") printf '%s\n' "$row" >>"$out"; continue ;;
    tag$'\t'*) printf 'tag\t%s\n' "$tag" >>"$out"; continue ;;
  esac
  IFS=$'\t' read -r scope fn recv file commit _ _ <<<"$row"
  if [[ -n "$head_commit" ]]; then
    commit=$head_commit
    src="$k8s/$file"
  elif [[ "$commit" == "-" ]]; then
    printf '%s\t%s\t%s\t%s\t-\t0\t0\n' "$scope" "$fn" "$recv" "$file" >>"$out"
    continue
  else
    src="$k8s/$commit/$file"
  fi
  if [[ ! -f "$src" ]]; then
    echo "upstream-lines: no $src" >&2
    exit 2
  fi
  if [[ "$recv" == "-" ]]; then
    pattern="^func ${fn}[[(]"
  else
    pattern="^func \\([A-Za-z_]+ \\*?${recv}\\) ${fn}\\("
  fi
  # The function's line, and the first line after it that is a lone closing brace.
  read -r line end < <(awk -v pat="$pattern" '
    start == 0 && $0 ~ pat { start = NR; next }
    start > 0 && $0 == "}" { print start, NR; found = 1; exit }
    END { if (!found) print 0, 0 }' "$src")
  if [[ "$line" == 0 ]]; then
    echo "upstream-lines: no func $fn (receiver $recv) in $src" >&2
    status=1
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$scope" "$fn" "$recv" "$file" "$commit" "$line" "$end" >>"$out"
done <"$data"
if [[ $check == 1 ]]; then
  if ! diff -u "$data" "$out"; then
    echo "upstream-lines: $data differs from $k8s (run scripts/upstream-lines.sh $k8s)" >&2
    exit 1
  fi
  echo "upstream-lines: $data matches $k8s"
else
  cp "$out" "$data"
  echo "upstream-lines: wrote $data from $k8s (tag $tag)"
fi
exit $status
