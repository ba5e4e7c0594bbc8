#!/usr/bin/env bash
# Runs Osprey's whole test suite: a -Werror build, then C unit tests (ctest) and the pytest
# suites against an AddressSanitizer + UBSan build, with a short run of every fuzz target (the
# rule parser, each protocol parser, tools/fuzz/run.sh's packet-path and configuration
# targets; OSPREY_FUZZ_SECONDS each, default 10: a few seconds each, as issue 17 asks; campaigns are tools/fuzz/README.md's) before pytest. The conformance suite runs on the
# first build and fails when a test of tests/conformance-pass.txt fails (tools/conformance.sh).
# Usage: tools/test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=$(nproc)

# 1. the normal build must be warning-free
cmake -S . -B build -G Ninja -DOSPREY_WERROR=ON >/dev/null
ninja -C build -j "$JOBS"
# the layers run one way (tools/layers.txt: includes, calls, table reads) and libmon exports
# only mon_ names; no call circle spans folders (tests/program/test_{layer_check,call_circles}.py
# run them again under pytest)
tools/layer-check.py --build build --check
tools/call-circles.py --build build --check
# the suricata-verify conformance suite on that (optimised) build: no listed test may fail
tools/conformance.sh build/bin/osprey

# 2. the sanitizer build runs everything
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DOSPREY_WERROR=ON -DOSPREY_SANITIZE=ON >/dev/null
ninja -C build-asan -j "$JOBS"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=86
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=87
ctest --test-dir build-asan --output-on-failure -j "$JOBS"
# a short fuzzing run of the rule parser (clang libFuzzer, ASan + UBSan). The short runs use
# one fixed seed: they replay the committed seeds and regression inputs, then one sequence of
# mutations that a run on this machine has already been through, so a red result means a
# regression, not a new find of the dice (the campaigns, tools/fuzz/README.md, explore with
# random seeds and keep what they find as regression inputs)
export OSPREY_FUZZ_SEED=${OSPREY_FUZZ_SEED:-1}
rules/fuzz/run.sh "${OSPREY_FUZZ_SECONDS:-10}" 2>&1 | tail -3
# and of every protocol parser that has a fuzz target (parsers/<proto>/fuzz/run.sh)
for fz in parsers/*/fuzz/run.sh; do
  "$fz" "${OSPREY_FUZZ_SECONDS:-10}" 2>&1 | tail -3
done
# and of the packet path and the configuration loader: decoder, defrag, flow + TCP, the
# whole -r pipeline, YAML (tools/fuzz/run.sh; each replays its regression inputs first)
for t in $(tools/fuzz/run.sh --list); do
  tools/fuzz/run.sh "$t" "${OSPREY_FUZZ_SECONDS:-10}" 2>&1 | tail -3
done
# pytest last, so its summary closes the output
OSPREY_BUILD=build-asan python3 -m pytest -q -n "$JOBS" tests "$@"
