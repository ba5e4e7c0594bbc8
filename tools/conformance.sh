#!/usr/bin/env bash
# The suricata-verify conformance suite (../shared/conformance) on a build of osprey, held to
# the committed pass list: fails when a test listed in tests/conformance-pass.txt fails.
# usage: tools/conformance.sh [OSPREY=build/bin/osprey] [--update]
#   --update  rewrite the list with every test that passes now (the list only grows: a test
#             that passed before and fails now still fails the check first)
set -euo pipefail
cd "$(dirname "$0")/.."
engine=build/bin/osprey
update=no
for a in "$@"; do
  case "$a" in
    --update) update=yes ;;
    *) engine=$a ;;
  esac
done
judge=../shared/conformance/run.sh
list=tests/conformance-pass.txt
[ -x "$judge" ] || [ -f "$judge" ] || { echo "conformance: $judge not found (shared/ beside the repo)" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
bash "$judge" "$engine" --verbose > "$out" 2>&1 || true
summary=$(tail -n 1 "$out")
case "$summary" in
  *passed*failed*) ;;
  *) echo "conformance: the judge did not finish:" >&2; tail -n 20 "$out" >&2; exit 1 ;;
esac
passing=$(sed -n 's/^PASS \([^:]*\):.*/\1/p' "$out" | sort)
regressed=$(comm -23 <(grep -v '^#' "$list" | sed '/^$/d' | sort) <(printf '%s\n' "$passing"))
new=$(comm -13 <(grep -v '^#' "$list" | sed '/^$/d' | sort) <(printf '%s\n' "$passing") | sed '/^$/d' | wc -l)
if [ -n "$regressed" ]; then
  echo "conformance: tests of $list that fail now:" >&2
  for t in $regressed; do grep -F "FAIL $t:" "$out" >&2 || echo "FAIL $t" >&2; done
  exit 1
fi
if [ "$update" = yes ]; then
  { echo "# suricata-verify tests osprey passes (tools/conformance.sh --update); none may regress"
    printf '%s\n' "$passing"; } > "$list"
fi
read -r npass _ nfail _ <<<"$summary"
echo "conformance: $npass of $((npass + nfail)) suricata-verify tests pass; all $(grep -vc '^#' "$list") listed pass; $new pass beyond the list"
