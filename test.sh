#!/usr/bin/env bash
# Builds streamtables and runs every test. CI runs exactly this (.ci/run).
#
#   ./test.sh                      install deps if missing, build build/
#                                  (RelWithDebInfo) and build-asan/ (Debug,
#                                  ASan+UBSan), unit tests under ASan/UBSan
#                                  (ctest), then integration tests (pytest)
#   ./test.sh --unit               only build-asan/ + ctest
#   ./test.sh --fuzz               only build-fuzz/ (clang) + a short run of
#                                  every fuzz target (tests/fuzz/run.sh)
#   ./test.sh --integration        only build/ + pytest
#   ./test.sh --integration -k kafka        pytest's -k EXPR is passed through
#   ./test.sh --integration -- -x --lf     everything after -- goes to pytest
#   --no-install                   skip tools/install.sh
#   --no-build                     skip cmake/ninja (test what is built)
#
# The default runs every stage: unit, fuzz (short), integration.
#
# Environment: ST_JOBS (ninja -j, default 2), ST_BUILD_DIR / ST_ASAN_BUILD_DIR
# / ST_FUZZ_BUILD_DIR (default <repo>/build, build-asan and build-fuzz),
# ST_VENV_DIR (default <repo>/.venv), ST_FUZZ_RUNS (executions per fuzz
# target, default that of tests/fuzz/run.sh).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD="${ST_BUILD_DIR:-$REPO/build}"
BUILD_ASAN="${ST_ASAN_BUILD_DIR:-$REPO/build-asan}"
VENV="${ST_VENV_DIR:-$REPO/.venv}"
JOBS="${ST_JOBS:-2}"

RUN_UNIT=1
RUN_FUZZ=1
RUN_INTEGRATION=1
DO_INSTALL=1
DO_BUILD=1
PYTEST_ARGS=()
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
while (($#)); do
  case "$1" in
    --unit) RUN_UNIT=1; RUN_FUZZ=0; RUN_INTEGRATION=0 ;;
    --fuzz) RUN_UNIT=0; RUN_FUZZ=1; RUN_INTEGRATION=0 ;;
    --integration) RUN_UNIT=0; RUN_FUZZ=0; RUN_INTEGRATION=1 ;;
    --no-install) DO_INSTALL=0 ;;
    --no-build) DO_BUILD=0 ;;
    -k)
      (($# >= 2)) || { echo "test.sh: -k needs an expression" >&2; exit 2; }
      PYTEST_ARGS+=(-k "$2"); shift ;;
    --) shift; PYTEST_ARGS+=("$@"); break ;;
    -h|--help) usage; exit 0 ;;
    *) echo "test.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

T_START=$(date +%s)
STAGES=()
FAILED=0
banner() { printf '\n==== %s\n' "$*"; }
record() { STAGES+=("$1: $2"); [[ "$2" == passed ]] || FAILED=1; }
finish() {
  local elapsed=$(( $(date +%s) - T_START ))
  banner "summary"
  local stage
  for stage in "${STAGES[@]}"; do echo "  $stage"; done
  if ((FAILED)); then
    echo "test.sh: FAILED after ${elapsed}s"
    exit 1
  fi
  echo "test.sh: all stages passed in ${elapsed}s"
  exit 0
}

configure_and_build() {  # dir, build type, extra cmake args...
  local dir="$1" build_type="$2"; shift 2
  banner "build $dir ($build_type)"
  if ! cmake -S "$REPO" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" "$@"; then
    record "build $(basename "$dir")/" "FAILED (cmake configure)"
    finish
  fi
  if ! ninja -C "$dir" -j "$JOBS"; then
    record "build $(basename "$dir")/" "FAILED (compile)"
    finish
  fi
  record "build $(basename "$dir")/" passed
}

if ((DO_INSTALL)); then
  banner "install (tools/install.sh)"
  if ! "$REPO/tools/install.sh"; then
    record install "FAILED (tools/install.sh)"
    finish
  fi
  record install passed
fi

if ((DO_BUILD)); then
  ((RUN_INTEGRATION)) && configure_and_build "$BUILD" RelWithDebInfo
  # Debug: -O0 compiles much faster on 2 cores, keeps asserts on, and the unit
  # tests are small enough that the sanitizer slowdown does not matter.
  ((RUN_UNIT)) && configure_and_build "$BUILD_ASAN" Debug -DST_SANITIZE=ON
fi

if ((RUN_UNIT)); then
  banner "unit tests under ASan/UBSan (ctest --test-dir $BUILD_ASAN)"
  if ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:check_initialization_order=1}" \
     UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
     ctest --test-dir "$BUILD_ASAN" --output-on-failure --no-tests=error -j "$JOBS" --timeout 900; then
    record "unit (ctest, asan)" passed
  else
    record "unit (ctest, asan)" FAILED
  fi
fi

if ((RUN_FUZZ)); then
  banner "fuzz targets, short run (tests/fuzz/run.sh, ST_FUZZ_BUILD_DIR=${ST_FUZZ_BUILD_DIR:-$REPO/build-fuzz})"
  fuzz_args=()
  ((DO_BUILD)) || fuzz_args+=(--no-build)
  [[ -n "${ST_FUZZ_RUNS:-}" ]] && fuzz_args+=(--runs "$ST_FUZZ_RUNS")
  if ST_JOBS="$JOBS" "$REPO/tests/fuzz/run.sh" "${fuzz_args[@]}"; then
    record "fuzz (tests/fuzz/run.sh, short)" passed
  else
    record "fuzz (tests/fuzz/run.sh, short)" FAILED
  fi
fi

if ((RUN_INTEGRATION)); then
  banner "integration tests (pytest tests/integration, ST_BUILD_DIR=$BUILD)"
  set +e
  (cd "$REPO" && ST_BUILD_DIR="$BUILD" "$VENV/bin/python" -m pytest -v "${PYTEST_ARGS[@]}")
  rc=$?
  set -e
  case $rc in
    0) record "integration (pytest)" passed ;;
    5) record "integration (pytest)" "FAILED (no test selected: check -k / the test paths)" ;;
    *) record "integration (pytest)" "FAILED (pytest exit $rc)" ;;
  esac
fi

finish
