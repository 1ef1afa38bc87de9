#!/usr/bin/env bash
# The Hugo shortcode refuses what is not the element's: the test docs site (tests/hugo) built
# with one page more, whose shortcode has a parameter the element does not document (an event
# handler) or a `module` off the site, must fail its build naming it. Run by the test command.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
check() { # check NAME 'SHORTCODE' 'WORDS THE BUILD MUST SAY'
  local site="$work/$1"
  cp -r tests/hugo "$site"
  rm -f "$site/.hugo_build.lock"
  sed -i "s#^themesDir = .*#themesDir = \"$PWD/embed/hugo\"#" "$site/hugo.toml"
  printf -- '---\ntitle: Refused\n---\n\n%s\n' "$2" > "$site/content/refused.md"
  if out=$(hugo --source "$site" --destination "$site/public" 2>&1); then
    echo "hugo-refusals: $1: the build passed; it must fail saying: $3"; fails=$((fails + 1))
  elif ! grep -qF -- "$3" <<<"$out"; then
    echo "hugo-refusals: $1: the build failed without saying: $3"; echo "$out"; fails=$((fails + 1))
  fi
}
check handler '{{< rollout-playground src="/play/" onclick="alert(1)" >}}' '"onclick" is not a parameter of the element'
check style '{{< rollout-playground src="/play/" style="position:fixed" >}}' '"style" is not a parameter of the element'
check module-offsite '{{< rollout-playground src="/play/" module="https://example.com/x.js" >}}' 'module="https://example.com/x.js" is not a path on this site'
check module-host '{{< rollout-playground src="/play/" module="//example.com/x.js" >}}' 'is not a path on this site'
check module-backslash '{{< rollout-playground src="/play/" module="/\example.com/x.js" >}}' 'is not a path on this site'
check positional '{{< rollout-playground "/play/" >}}' 'named parameters only'
if [ "$fails" -gt 0 ]; then exit 1; fi
echo "hugo-refusals: 6 shortcodes refused, each naming what it refused"
