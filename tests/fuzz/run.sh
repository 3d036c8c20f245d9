#!/usr/bin/env bash
# Builds the libFuzzer targets (build-fuzz/, clang, ASan + UBSan) and runs
# each for a fixed number of executions from its committed corpus.
#
#   tests/fuzz/run.sh                      every target, the short CI count
#   tests/fuzz/run.sh --runs 10000000      the long run (README "Fuzzing")
#   tests/fuzz/run.sh --runs 1000000 policy avro_container   some targets
#   --max-time S      stop each target after S seconds even short of --runs
#                     (the table then shows the executions it reached)
#   --no-build        use what build-fuzz/ holds
#   --keep DIR        keep the inputs the run found in DIR/<target>/ (to grow
#                     the corpus: then --merge DIR)
#   --merge DIR       merge DIR/<target>/ (e.g. make_seeds.py output) into
#                     tests/fuzz/corpus/<target>/ with -merge=1, no fuzzing
#
# The committed corpus is only read; new inputs go to a scratch dir. A crash
# leaves its input in build-fuzz/fuzz-artifacts/<target>/ and fails the run.
# One line per target: executions, exec/s, wall seconds, corpus entries and
# crashes. Environment: ST_FUZZ_BUILD_DIR (default <repo>/build-fuzz),
# ST_JOBS (ninja -j, default 2), ST_FUZZ_NICE (nice level, default 10).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${ST_FUZZ_BUILD_DIR:-$REPO/build-fuzz}"
JOBS="${ST_JOBS:-2}"
NICE="${ST_FUZZ_NICE:-10}"
CORPUS="$REPO/tests/fuzz/corpus"

ALL_TARGETS=(http_request sigv4_parse policy iceberg_metadata iceberg_schema
  iceberg_table_update avro_schema avro_container json_shredder gsr_framing
  json_schema_mapping s3_range aws_chunked parquet_reader kms_blob envelope protobuf_shredder
  avro_shredder)

# Largest input per target. The recursive JSON parsers (Iceberg schema and
# table updates, Avro schema, JSON Schema, policies) overflow the stack on
# deep nesting until their depth limits land (issue 9 item 2; reproducers in
# tests/fuzz/crashes/): their max_len keeps inputs below that depth.
declare -A MAX_LEN=(
  [http_request]=8192 [sigv4_parse]=4096 [policy]=4096 [iceberg_metadata]=8192
  [iceberg_schema]=4096 [iceberg_table_update]=4096 [avro_schema]=4096
  [avro_container]=65536 [json_shredder]=4096 [gsr_framing]=4096
  [json_schema_mapping]=4096 [s3_range]=256 [aws_chunked]=4096 [parquet_reader]=65536
  [kms_blob]=8192 [envelope]=8192 [protobuf_shredder]=4096 [avro_shredder]=4096)

RUNS=20000
MAX_TIME=0
DO_BUILD=1
KEEP=""
MERGE=""
TARGETS=()
while (($#)); do
  case "$1" in
    --runs) RUNS="$2"; shift ;;
    --max-time) MAX_TIME="$2"; shift ;;
    --no-build) DO_BUILD=0 ;;
    --keep) KEEP="$2"; shift ;;
    --merge) MERGE="$2"; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) TARGETS+=("$1") ;;
  esac
  shift
done
((${#TARGETS[@]})) || TARGETS=("${ALL_TARGETS[@]}")
for t in "${TARGETS[@]}"; do
  [[ -n "${MAX_LEN[$t]:-}" ]] || { echo "run.sh: unknown target $t (${ALL_TARGETS[*]})" >&2; exit 2; }
done

if ((DO_BUILD)); then
  t0=$(date +%s)
  # -O1 and line tables (not -O2 -g): the short CI run executes each target
  # 20,000 times, so build time is most of this stage; a crash report still
  # names file:line. A unity build (ST_UNITY, default ON) like the other
  # sanitizer trees.
  cmake -S "$REPO" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DST_FUZZ=ON \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang -DST_UNITY="${ST_UNITY:-ON}" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" >/dev/null
  nice -n "$NICE" ninja -C "$BUILD" -j "$JOBS" st_fuzz
  echo "run.sh: fuzz build took $(( $(date +%s) - t0 ))s"
fi

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
SCRATCH="$(mktemp -d /tmp/st-fuzz.XXXXXX)"
trap 'rm -rf "$SCRATCH"' EXIT

if [[ -n "$MERGE" ]]; then
  for t in "${TARGETS[@]}"; do
    [[ -d "$MERGE/$t" ]] || continue
    mkdir -p "$CORPUS/$t"
    (cd "$SCRATCH" && nice -n "$NICE" "$BUILD/tests/fuzz/${t}_fuzz" -merge=1 -max_len="${MAX_LEN[$t]}" \
      "$CORPUS/$t" "$MERGE/$t" >"$SCRATCH/$t.merge.log" 2>&1) \
      || { tail -20 "$SCRATCH/$t.merge.log"; exit 1; }
    if compgen -G "$SCRATCH/crash-*" >/dev/null; then
      mkdir -p "$BUILD/fuzz-artifacts/$t"
      mv "$SCRATCH"/crash-* "$BUILD/fuzz-artifacts/$t/"
      echo "run.sh: $t: inputs in $MERGE/$t crash; see $BUILD/fuzz-artifacts/$t/" >&2
      exit 1
    fi
    echo "run.sh: $t corpus: $(ls "$CORPUS/$t" | wc -l) files, $(du -sk "$CORPUS/$t" | cut -f1) KiB"
  done
  exit 0
fi

FAILED=0
printf '%-22s %12s %10s %8s %8s %8s\n' target executions exec/s wall_s corpus crashes
for t in "${TARGETS[@]}"; do
  work="$SCRATCH/$t"
  artifacts="$BUILD/fuzz-artifacts/$t"
  rm -rf "$artifacts"
  mkdir -p "$work" "$artifacts"
  log="$BUILD/fuzz-artifacts/$t.log"
  start=$(date +%s.%N)
  set +e
  nice -n "$NICE" "$BUILD/tests/fuzz/${t}_fuzz" -runs="$RUNS" -max_total_time="$MAX_TIME" -max_len="${MAX_LEN[$t]}" \
    -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$work" "$CORPUS/$t" >"$log" 2>&1
  rc=$?
  set -e
  wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
  execs=$(awk '/stat::number_of_executed_units/ { print $NF }' "$log" | tail -1)
  rate=$(awk -v n="${execs:-0}" -v w="$wall" 'BEGIN { printf "%d", (w > 0) ? n / w : 0 }')
  corpus=$(( $(ls "$work" | wc -l) + $(ls "$CORPUS/$t" | wc -l) ))
  crashes=$(ls "$artifacts" | grep -c -E '^(crash|leak|timeout|oom|slow-unit)-' || true)
  if ((rc != 0)); then
    FAILED=1
    ((crashes > 0)) || crashes="rc=$rc"
  fi
  printf '%-22s %12s %10s %8s %8s %8s\n' "$t" "${execs:-?}" "${rate:-?}" "$wall" "$corpus" "$crashes"
  if ((rc != 0)); then
    echo "---- $t failed (exit $rc); the end of $log:"
    grep -A40 -m1 -E 'ERROR: (AddressSanitizer|libFuzzer|LeakSanitizer)|runtime error|==ERROR|Test unit written' "$log" | head -60 || tail -40 "$log"
  fi
  if [[ -n "$KEEP" ]]; then
    mkdir -p "$KEEP/$t"
    cp -n "$work"/* "$KEEP/$t/" 2>/dev/null || true
  fi
done
if ((FAILED)); then
  echo "run.sh: FAILED (crash inputs under $BUILD/fuzz-artifacts/)"
  exit 1
fi
echo "run.sh: no crash in ${#TARGETS[@]} targets (up to $RUNS executions each)"
