#!/usr/bin/env bash
# Instructions executed by the benchmark's timed part (a rolling update until settled) at each
# size, counted by valgrind's callgrind: a measure of the work done that this VM's drifting
# speed cannot blur (wall time is `cargo bench`); then the same rollout recorded step by step,
# as the page records it (`rollout run --format jsonl`). Needs valgrind (apt-get install valgrind).
# Usage: scripts/bench-instructions.sh [SIZES]   e.g. scripts/bench-instructions.sh 1000,10000
set -euo pipefail
cd "$(dirname "$0")/.."
sizes="${1:-100,1000,10000}"
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
bin=$(cargo bench --bench rollout --no-run --message-format=json 2>/dev/null |
  grep '"kind":\["bench"\]' | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -1)
[ -x "$bin" ] || { echo "could not build the benchmark" >&2; exit 1; }
prev=""
for n in ${sizes//,/ }; do
  out=$(mktemp)
  ROLLOUT_BENCH_SIZES=$n ROLLOUT_BENCH_ROUNDS=1 valgrind --tool=callgrind --callgrind-out-file="$out" \
    --collect-atstart=no --toggle-collect='*roll_out*' "$bin" >/dev/null 2>&1
  ir=$(sed -n 's/^summary: *//p' "$out" | awk '{print $1}')
  rm -f "$out"
  growth=""
  [ -n "$prev" ] && growth=$(awk -v a="$ir" -v b="$prev" 'BEGIN { printf "  (%.1fx the previous size)", a / b }')
  printf 'rolling update of %6d replicas: %15s instructions%s\n' "$n" "$(printf "%'d" "$ir" 2>/dev/null || echo "$ir")" "$growth"
  prev=$ir
done

# The recording path as the page uses it: `rollout run --format jsonl` of the same rollout
# (one Deployment, a new image at 60 s, until settled), every step recorded.
cargo build --release --bin rollout >/dev/null 2>&1 || { echo "could not build rollout" >&2; exit 1; }
# The same rollout behind a Service with a load of as many requests a second as replicas
# (issue 48: at most 1.5x the run without): the EndpointSlice controller and kube-proxy at work.
record() { # SCENARIO -> instructions
  local out; out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" ./target/release/rollout run "$1" --format jsonl >/dev/null 2>&1
  sed -n 's/^summary: *//p' "$out" | awk '{print $1}'
  rm -f "$out"
}
prev=""
for n in ${sizes//,/ }; do
  scenario=$(mktemp --suffix=.yaml)
  deployment=$(printf '  - |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: web}\n    spec:\n      replicas: %s\n      selector: {matchLabels: {app: web}}\n      template:\n        metadata: {labels: {app: web}}\n        spec: {containers: [{name: app, image: "app:1", ports: [{containerPort: 80, name: http}]}]}\n' "$n")
  steps='steps:\n  - {at: 60s, run: kubectl set image deployment/web app=app:2}\nuntil: settled\n'
  printf "name: big\nobjects:\n%s\n$steps" "$deployment" > "$scenario"
  ir=$(record "$scenario")
  growth=""
  [ -n "$prev" ] && growth=$(awk -v a="$ir" -v b="$prev" 'BEGIN { printf "  (%.1fx the previous size)", a / b }')
  printf 'recorded run of     %6d replicas: %15s instructions%s\n' "$n" "$(printf "%'d" "$ir" 2>/dev/null || echo "$ir")" "$growth"
  prev=$ir
  service='  - |\n    apiVersion: v1\n    kind: Service\n    metadata: {name: web}\n    spec: {selector: {app: web}, ports: [{port: 80, targetPort: http}]}\n'
  printf "name: big\nworld: {traffic: [{service: web, rps: %s}]}\nobjects:\n%s\n$service$steps" "$n" "$deployment" > "$scenario"
  loaded=$(record "$scenario")
  rm -f "$scenario"
  ratio=$(awk -v a="$loaded" -v b="$ir" 'BEGIN { printf "%.2f", a / b }')
  printf '  with a Service at %6d rps: %15s instructions  (%sx the run without)\n' "$n" "$(printf "%'d" "$loaded" 2>/dev/null || echo "$loaded")" "$ratio"
done
