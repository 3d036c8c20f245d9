#!/usr/bin/env bash
# Builds streamtables and runs every test. CI runs exactly this (.ci/run).
#
#   ./test.sh                      install deps if missing, then every stage:
#                                  format, layering, lint, unit, tsan, fuzz,
#                                  integration (a failed stage does not stop
#                                  the later ones unless its build failed)
#   ./test.sh --format             only tools/check_format.sh (clang-format)
#   ./test.sh --layering           only tools/check_layering.py (includes
#                                  follow the CMake module graph)
#   ./test.sh --lint               only clang-tidy (tools/run_clang_tidy.sh)
#                                  over src/, with build-lint/'s compile
#                                  commands (tsan flags, configured, not
#                                  built, file by file); with
#                                  later stages it runs beside them at
#                                  nice 19 and reports at the end
#   ./test.sh --unit               only build-asan/ (Debug, ASan+UBSan) + ctest
#   ./test.sh --tsan               only build-tsan/ (clang, Debug, TSan,
#                                  -Wthread-safety) + the common, http,
#                                  catalog, delivery, kms and maintenance
#                                  unit tests
#   ./test.sh --fuzz               only build-fuzz/ (clang) + a short run of
#                                  every fuzz target (tests/fuzz/run.sh)
#   ./test.sh --integration        only build/ (RelWithDebInfo) + pytest
#   ./test.sh --lint --tsan        stage flags add up: these two stages
#   ./test.sh --integration -k kafka        pytest's -k EXPR is passed through
#   ./test.sh --integration -- -x --lf     everything after -- goes to pytest
#                                  A full integration stage runs pytest twice:
#                                  on the embedded defaults (SQLite, local
#                                  objects), then the table and channel tests
#                                  (TESTS_ON_POSTGRES_S3 below) with every
#                                  server on PostgreSQL + s3proxy
#                                  (ST_IT_BACKEND, tests/integration/harness/
#                                  backends.py); with -k or -- args only the
#                                  first pass runs
#   --backend postgres+s3          only that second pass (-k/-- apply to it)
#   --no-install                   skip tools/install.sh
#   --no-build                     skip cmake/ninja (test what is built)
#
# Environment: ST_JOBS (ninja -j, default 2), ST_BUILD_DIR / ST_ASAN_BUILD_DIR
# / ST_TSAN_BUILD_DIR / ST_FUZZ_BUILD_DIR / ST_LINT_BUILD_DIR (default
# <repo>/build, build-asan, build-tsan, build-fuzz and build-lint), ST_UNITY
# (OFF: build/ and the asan, tsan and fuzz trees file by file; default ON), ST_RELEASE_DEBUG (debug-info flag of build/,
# default -g1, line tables; -g for full), ST_VENV_DIR (default <repo>/.venv), ST_FUZZ_RUNS
# (executions per fuzz target, default that of tests/fuzz/run.sh),
# ST_LINT_BACKGROUND (0: lint in the foreground), ST_LINT_FAIL_ON (Perl regex
# of the paths whose clang-tidy findings fail the lint stage; default '.',
# every path).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD="${ST_BUILD_DIR:-$REPO/build}"
BUILD_ASAN="${ST_ASAN_BUILD_DIR:-$REPO/build-asan}"
BUILD_TSAN="${ST_TSAN_BUILD_DIR:-$REPO/build-tsan}"
# Configured only (compile commands for clang-tidy), file by file: the built
# trees are unity builds, whose compile commands name the batches.
BUILD_LINT="${ST_LINT_BUILD_DIR:-$REPO/build-lint}"
VENV="${ST_VENV_DIR:-$REPO/.venv}"
JOBS="${ST_JOBS:-2}"
# Every clang-tidy finding under src/ fails the stage (ST_LINT_FAIL_ON
# narrows that for a local run only).
LINT_FAIL_ON="${ST_LINT_FAIL_ON:-.}"
# The unit tests of the modules whose threads share state.
TSAN_TESTS=(common http catalog delivery kms maintenance)

ALL_STAGES=(format layering lint unit tsan fuzz integration)
declare -A RUN=()
DO_INSTALL=1
DO_BUILD=1
ONLY_PG_S3=0
# The integration tests that concern tables and channels, run a second time
# with every server on PostgreSQL + s3proxy (issue 13). Tests that corrupt,
# plant or look for stored objects do it through harness.backends.StoredObjects
# on either backend. Left out: tests marked local_store (they fill the data
# dir's file system or edit the SQLite file), and the modules that concern
# neither (identity, KMS API, registries, CLI, Parquet/Avro codecs, SigV4, the
# replica and scale-out tests, which run on PostgreSQL + s3proxy already).
TESTS_ON_POSTGRES_S3=(
  test_s3tables_api.py test_s3tables_streaming.py test_s3tables_create_table_actions.py
  test_s3tables_existence.py test_iceberg_rest_pyiceberg.py test_iceberg_rest_engines.py
  test_metadata_pyiceberg.py test_table_readback.py test_transforms_pyiceberg.py test_pruning.py
  test_s3_data_endpoint.py test_delivery.py test_channel_e2e.py test_channel_api.py
  test_channel_access.py test_avro_channel.py test_encryption_delivery.py
  test_maintenance_snapshots.py test_maintenance_compaction.py test_maintenance_records.py
  test_maintenance_unreferenced.py test_maintenance_bad_input.py test_bad_input.py test_deep_input.py
  test_channel_pass_role.py test_delivery_faults.py test_exactly_once_crash.py
  test_channel_freshness.py test_encryption_config.py test_encryption_at_rest.py
  test_engines_smoke.py test_metadata_location_traversal.py test_policy_matrix.py
  test_public_access.py test_s3_gp_buckets.py test_slow_clients.py test_rest_compatibility_kit.py
  test_protobuf_channel.py test_json_schema_channel.py
)
PYTEST_ARGS=()
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
while (($#)); do
  case "$1" in
    --format|--layering|--lint|--unit|--tsan|--fuzz|--integration) RUN[${1#--}]=1 ;;
    --no-install) DO_INSTALL=0 ;;
    --backend)
      [[ "${2:-}" == postgres+s3 ]] || { echo "test.sh: --backend takes postgres+s3" >&2; exit 2; }
      ONLY_PG_S3=1; RUN[integration]=1; shift ;;
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

if ((${#RUN[@]} == 0)); then
  for stage in "${ALL_STAGES[@]}"; do RUN[$stage]=1; done
fi
RUN_FORMAT=${RUN[format]:-0}
RUN_LAYERING=${RUN[layering]:-0}
RUN_LINT=${RUN[lint]:-0}
RUN_UNIT=${RUN[unit]:-0}
RUN_TSAN=${RUN[tsan]:-0}
RUN_FUZZ=${RUN[fuzz]:-0}
RUN_INTEGRATION=${RUN[integration]:-0}

T_START=$(date +%s)
STAGES=()
FAILED=0
banner() { printf '\n==== %s\n' "$*"; }
STAGE_T0=$(date +%s)
stage_start() { STAGE_T0=$(date +%s); }
record() {  # stage, passed | FAILED..., with the seconds since stage_start
  STAGES+=("$1: $2 ($(( $(date +%s) - STAGE_T0 ))s)")
  [[ "$2" == passed ]] || FAILED=1
}
LINT_PID=""
LINT_LOG=""
LINT_T0=0
lint_wait() {  # records the background lint's outcome, once
  [[ -n "$LINT_PID" ]] || return 0
  local rc=0
  banner "lint (background, log $LINT_LOG)"
  wait "$LINT_PID" || rc=$?
  LINT_PID=""
  cat "$LINT_LOG"
  STAGE_T0=$LINT_T0
  if ((rc == 0)); then record "lint (clang-tidy, beside the other stages)" passed
  else record "lint (clang-tidy, beside the other stages)" FAILED; fi
}
finish() {
  lint_wait
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

TSAN_CMAKE_ARGS=(-DST_TSAN=ON -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang)
SANITIZER_TREE_ARGS=(-DST_UNITY="${ST_UNITY:-ON}" -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1)

configure() {  # dir, build type, extra cmake args...
  local dir="$1" build_type="$2"; shift 2
  cmake -S "$REPO" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" "$@"
}

# Stops the run when the build fails: the stages after it would test nothing.
configure_and_build() {  # dir, build type, [--targets "t1 t2"], extra cmake args...
  local dir="$1" build_type="$2" targets=(); shift 2
  if [[ "${1:-}" == --targets ]]; then read -r -a targets <<<"$2"; shift 2; fi
  banner "build $dir ($build_type)"
  stage_start
  if ! configure "$dir" "$build_type" "$@"; then
    record "build $(basename "$dir")/" "FAILED (cmake configure)"
    finish
  fi
  if ! ninja -C "$dir" -j "$JOBS" "${targets[@]}"; then
    record "build $(basename "$dir")/" "FAILED (compile)"
    finish
  fi
  record "build $(basename "$dir")/" passed
}

if ((DO_INSTALL)); then
  banner "install (tools/install.sh)"
  stage_start
  if ! "$REPO/tools/install.sh"; then
    record install "FAILED (tools/install.sh)"
    finish
  fi
  record install passed
fi

# The static checks first: seconds, and what they find is cheapest to fix.
if ((RUN_FORMAT)); then
  banner "format (tools/check_format.sh)"
  stage_start
  if "$REPO/tools/check_format.sh"; then record "format (clang-format)" passed
  else record "format (clang-format)" FAILED; fi
fi

if ((RUN_LAYERING)); then
  banner "layering (tools/check_layering.py)"
  stage_start
  if python3 "$REPO/tools/check_layering.py"; then record "layering (includes vs CMake deps)" passed
  else record "layering (includes vs CMake deps)" FAILED; fi
fi

# Lint runs beside the later stages at the lowest CPU priority when any of
# them run: clang-tidy is ~15 minutes of CPU (3.5 CPU-s a source, half of it
# parsing; a PCH makes clang-tidy 14 twice as slow, bench/RESULTS.md "CI
# time"), and the integration
# tests leave most of the CPU idle (they wait on Kafka, freshness and JVMs),
# so it fits into their idle time instead of adding its own minutes. nice 19
# keeps the tests' share of the CPU (weight 1024 against 15), so their timing
# is what it is without lint. ST_LINT_BACKGROUND=0 runs it in the foreground.
if ((RUN_LINT)); then
  banner "lint (tools/run_clang_tidy.sh -p $BUILD_LINT)"
  stage_start
  # clang-tidy needs the compile commands of a clang build, not its objects:
  # the tsan configuration, file by file (never a unity build).
  if ((DO_BUILD)) && ! configure "$BUILD_LINT" Debug "${TSAN_CMAKE_ARGS[@]}" -DST_UNITY=OFF >/dev/null; then
    record "lint (clang-tidy)" "FAILED (cmake configure of $BUILD_LINT)"
  elif [[ "${ST_LINT_BACKGROUND:-1}" != 0 ]] \
       && ((RUN_UNIT || RUN_TSAN || RUN_FUZZ || RUN_INTEGRATION)); then
    LINT_LOG="$BUILD_LINT/lint.log"
    LINT_T0=$STAGE_T0
    nice -n 19 "$REPO/tools/run_clang_tidy.sh" -p "$BUILD_LINT" -j "$JOBS" --fail-on "$LINT_FAIL_ON" \
      >"$LINT_LOG" 2>&1 &
    LINT_PID=$!
    echo "lint: started in the background at nice 19 (pid $LINT_PID, log $LINT_LOG)"
  elif "$REPO/tools/run_clang_tidy.sh" -p "$BUILD_LINT" -j "$JOBS" --fail-on "$LINT_FAIL_ON"; then
    record "lint (clang-tidy)" passed
  else
    record "lint (clang-tidy)" FAILED
  fi
fi

if ((DO_BUILD)); then
  # Line tables only (-g1, ST_RELEASE_DEBUG, default -g1) instead of full -g:
  # nothing in the integration harness symbolizes or attaches a debugger, and
  # a crash backtrace still gets functions and file:line. A cold st_common +
  # st_http: 111 -> 94 CPU-s, objects 185 -> 77 MB (bench/RESULTS.md "CI time").
  # Only what pytest runs (st_integration: the server, the CLI, the tools and
  # fixtures); the unit tests are built and run in the asan tree. A unity
  # build like the sanitizer trees (ST_UNITY): a cold st_integration took 266 s
  # instead of 489 s on a 2-core machine (bench/RESULTS.md "CI in session 37").
  ((RUN_INTEGRATION)) && configure_and_build "$BUILD" RelWithDebInfo --targets st_integration \
    -DST_UNITY="${ST_UNITY:-ON}" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 ${ST_RELEASE_DEBUG:--g1} -DNDEBUG" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 ${ST_RELEASE_DEBUG:--g1} -DNDEBUG"
  # Debug: -O0 compiles much faster on 2 cores, keeps asserts on, and the unit
  # tests are small enough that the sanitizer slowdown does not matter.
  # The asan tree precompiles the common headers (ST_PCH, cmake/modules.cmake):
  # a quarter less compile time (a cold st_catalog_test: 355 s -> 263 s). Only
  # here: at -O2 GCC 12 reports bogus -Warray-bounds inside std::string over
  # the precompiled header, and the other trees (release, tsan, fuzz, lint)
  # keep checking that every file includes what it uses.
  #
  # The sanitizer trees are unity builds (ST_UNITY, 8 sources per translation
  # unit: the heavy headers are parsed once a batch; a cold st_common_test
  # 70.6 -> 41.7 CPU-s) with line tables only (-g1: a sanitizer report still
  # names file:line). Whether each source of src/ includes what it uses is
  # still checked: clang-tidy parses each alone in the lint tree (ST_UNITY=OFF),
  # and a compile error there fails the lint stage.
  # ST_UNITY=OFF in the environment builds them file by file.
  ((RUN_UNIT)) && configure_and_build "$BUILD_ASAN" Debug -DST_SANITIZE=ON -DST_PCH=ON \
    "${SANITIZER_TREE_ARGS[@]}"
  # Only the test binaries the tsan stage runs (and what they link).
  ((RUN_TSAN)) && configure_and_build "$BUILD_TSAN" Debug \
    --targets "$(printf 'st_%s_test ' "${TSAN_TESTS[@]}")" "${TSAN_CMAKE_ARGS[@]}" \
    "${SANITIZER_TREE_ARGS[@]}"
fi

if ((RUN_UNIT)); then
  banner "unit tests under ASan/UBSan (ctest --test-dir $BUILD_ASAN)"
  stage_start
  if ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:check_initialization_order=1}" \
     UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
     ctest --test-dir "$BUILD_ASAN" --output-on-failure --no-tests=error -j "$JOBS" --timeout 900; then
    record "unit (ctest, asan)" passed
  else
    record "unit (ctest, asan)" FAILED
  fi
fi

if ((RUN_TSAN)); then
  banner "unit tests under TSan (ctest --test-dir $BUILD_TSAN: ${TSAN_TESTS[*]})"
  stage_start
  if TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}" \
     ctest --test-dir "$BUILD_TSAN" --output-on-failure --no-tests=error -j "$JOBS" --timeout 900 \
       -R "^($(IFS='|'; echo "${TSAN_TESTS[*]}"))\$"; then
    record "tsan (ctest, ${TSAN_TESTS[*]})" passed
  else
    record "tsan (ctest, ${TSAN_TESTS[*]})" FAILED
  fi
fi

if ((RUN_FUZZ)); then
  banner "fuzz targets, short run (tests/fuzz/run.sh, ST_FUZZ_BUILD_DIR=${ST_FUZZ_BUILD_DIR:-$REPO/build-fuzz})"
  stage_start
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
  stage_start
  if ((!ONLY_PG_S3)); then
    set +e
    (cd "$REPO" && ST_BUILD_DIR="$BUILD" ST_IT_BACKEND=local "$VENV/bin/python" -m pytest -v \
      "${PYTEST_ARGS[@]}")
    rc=$?
    set -e
    case $rc in
      0) record "integration (pytest)" passed ;;
      5) record "integration (pytest)" "FAILED (no test selected: check -k / the test paths)" ;;
      *) record "integration (pytest)" "FAILED (pytest exit $rc)" ;;
    esac
  fi
  if ((ONLY_PG_S3 || ${#PYTEST_ARGS[@]} == 0)); then
    banner "integration tests on PostgreSQL + s3proxy (ST_IT_BACKEND=postgres+s3)"
    stage_start
    set +e
    (cd "$REPO" && ST_BUILD_DIR="$BUILD" ST_IT_BACKEND=postgres+s3 "$VENV/bin/python" -m pytest \
      -v -m "not local_store" "${TESTS_ON_POSTGRES_S3[@]/#/tests/integration/}" "${PYTEST_ARGS[@]}")
    rc=$?
    set -e
    case $rc in
      0) record "integration on PostgreSQL + s3proxy (pytest)" passed ;;
      *) record "integration on PostgreSQL + s3proxy (pytest)" "FAILED (pytest exit $rc)" ;;
    esac
  fi
fi

finish
