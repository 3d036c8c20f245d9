#!/usr/bin/env bash
# Runs clang-tidy (the repository's .clang-tidy) over the sources under src/
# and fails on any finding.
#
#   tools/run_clang_tidy.sh                       every tracked src/**/*.cc
#   tools/run_clang_tidy.sh --files src/http src/common/mutex.cc
#                                 only these files / directories (a header
#                                 is checked through its .cc)
#   tools/run_clang_tidy.sh --fail-on '^src/(?!catalog/)'
#                                 findings in files whose path (src/...)
#                                 matches the Perl regex fail the run; the
#                                 others are listed as "not enforced" and do
#                                 not (for modules whose fixes are still on
#                                 other branches). Default: every finding.
#   -p DIR                        build dir with compile_commands.json
#                                 (default $ST_TIDY_BUILD_DIR, else build-tsan/,
#                                 a clang build: GCC-only flags confuse clang-tidy)
#   -j N                          parallel clang-tidy processes (default $ST_JOBS, 2)
#
# Findings are printed once each (a header's finding shows up in every source
# that includes it), as path:line:col: message [check]. Exit status 0 when no
# enforced finding, 1 otherwise, 2 when clang-tidy itself failed (a source
# that does not compile, no compile command).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${ST_TIDY_BUILD_DIR:-$REPO/build-tsan}"
JOBS="${ST_JOBS:-2}"
CLANG_TIDY="${CLANG_TIDY:-clang-tidy}"
FAIL_ON='.'
PATHS=()
while (($#)); do
  case "$1" in
    -p) BUILD="$2"; shift ;;
    -j) JOBS="$2"; shift ;;
    --fail-on) FAIL_ON="$2"; shift ;;
    --files)
      shift
      while (($#)) && [[ "$1" != -* ]]; do PATHS+=("$1"); shift; done
      continue ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "run_clang_tidy.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done
command -v "$CLANG_TIDY" >/dev/null || { echo "run_clang_tidy.sh: $CLANG_TIDY not found (tools/install.sh)" >&2; exit 2; }
[[ -f "$BUILD/compile_commands.json" ]] || {
  echo "run_clang_tidy.sh: no $BUILD/compile_commands.json (configure a clang build dir first, e.g. ./test.sh --tsan)" >&2
  exit 2
}

cd "$REPO"
((${#PATHS[@]})) || PATHS=(src)
# Sources: tracked .cc files under PATHS; a header stands for its .cc.
mapfile -t SOURCES < <(
  for p in "${PATHS[@]}"; do
    p="${p#"$REPO"/}"
    case "$p" in
      *.h) [[ -f "${p%.h}.cc" ]] && echo "${p%.h}.cc" ;;
      *.cc) [[ -f "$p" ]] && echo "$p" ;;  # skip deleted files (e.g. from git diff)
      *) git ls-files -- "$p/*.cc" "$p/**/*.cc" ;;
    esac
  done | sort -u)
if ((${#SOURCES[@]} == 0)); then
  echo "run_clang_tidy.sh: no sources under ${PATHS[*]}"
  exit 0
fi

OUT="$(mktemp -d /tmp/st-tidy.XXXXXX)"
trap 'rm -rf "$OUT"' EXIT
t0=$(date +%s)
# One clang-tidy per source, JOBS at a time; each writes OUT/<n>.log and
# OUT/<n>.rc so a failure of clang-tidy itself is not mistaken for findings.
export CLANG_TIDY BUILD OUT
printf '%s\n' "${SOURCES[@]}" | nl -ba -w1 -s' ' | xargs -P "$JOBS" -L 1 sh -c '
  "$CLANG_TIDY" -p "$BUILD" --quiet "$1" >"$OUT/$0.log" 2>&1; echo $? >"$OUT/$0.rc"' || true

# Findings: "/abs/path:line:col: warning: text [check]", made relative and
# de-duplicated. Errors (a source that does not compile) are kept apart.
cat "$OUT"/*.log | sed -n "s|^$REPO/||; /^[^ ]*:[0-9]*:[0-9]*: warning: .* \[[a-z].*\]$/p" \
  | sort -u -t: -k1,1 -k2,2n -k3,3n >"$OUT/findings" || true
cat "$OUT"/*.log | sed -n "s|^$REPO/||; /: error: /p" | sort -u >"$OUT/errors" || true
enforced=$(grep -P -c -- "${FAIL_ON}" "$OUT/findings" || true)
total=$(wc -l <"$OUT/findings")
elapsed=$(( $(date +%s) - t0 ))

if ((enforced)); then
  grep -P -- "${FAIL_ON}" "$OUT/findings"
fi
if ((total > enforced)); then
  echo "-- not enforced (outside --fail-on '$FAIL_ON'):"
  grep -P -v -- "${FAIL_ON}" "$OUT/findings"
fi
summary="${#SOURCES[@]} sources in ${elapsed}s, $total finding(s), $enforced enforced"
failed_sources=()
for rc in "$OUT"/*.rc; do
  n=$(basename "$rc" .rc)
  [[ "$(cat "$rc")" == 0 ]] || failed_sources+=("${SOURCES[$((n - 1))]}")
done
if [[ -s "$OUT/errors" ]] || ((${#failed_sources[@]})); then
  cat "$OUT/errors"
  ((${#failed_sources[@]} == 0)) || printf 'clang-tidy failed on %s\n' "${failed_sources[@]}"
  echo "run_clang_tidy.sh: clang-tidy could not check some sources (errors above); $summary"
  exit 2
fi
if ((enforced)); then
  echo "run_clang_tidy.sh: FAILED: $summary"
  exit 1
fi
echo "run_clang_tidy.sh: clean: $summary"
