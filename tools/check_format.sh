#!/usr/bin/env bash
# Checks that every git-tracked C++ file under src/ tests/ bench/ tools/ is
# formatted as the repository's .clang-format says (clang-format 14).
#
#   tools/check_format.sh            check; exit 1 and list the files that drift
#   tools/check_format.sh --fix      re-format the files that drift, in place
#   tools/check_format.sh FILE...    check (or --fix) only these files
#
# Untracked files are not checked: format them before `git add`.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLANG_FORMAT="${CLANG_FORMAT:-clang-format}"
FIX=0
FILES=()
while (($#)); do
  case "$1" in
    --fix) FIX=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -*) echo "check_format.sh: unknown option $1" >&2; exit 2 ;;
    *) FILES+=("$1") ;;
  esac
  shift
done
command -v "$CLANG_FORMAT" >/dev/null || { echo "check_format.sh: $CLANG_FORMAT not found (tools/install.sh)" >&2; exit 2; }

cd "$REPO"
if ((${#FILES[@]} == 0)); then
  mapfile -t FILES < <(git ls-files -- 'src/*.h' 'src/*.cc' 'tests/*.h' 'tests/*.cc' \
    'bench/*.h' 'bench/*.cc' 'tools/*.h' 'tools/*.cc')
fi

# One clang-format process for all files (one per file takes 10x as long);
# its diagnostics name each file that drifts.
existing=()
for f in "${FILES[@]}"; do
  # Only C++: clang-format would "format" a Python file given to it into
  # something else.
  case "$f" in
    *.h|*.cc) [[ -f "$f" ]] && existing+=("$f") ;;  # skip deleted files
    *) echo "check_format.sh: skipping $f (not a .h/.cc file)" >&2 ;;
  esac
done
drift=()
if ((${#existing[@]})); then
  rc=0
  out=$("$CLANG_FORMAT" --dry-run --Werror "${existing[@]}" 2>&1) || rc=$?
  mapfile -t drift < <(sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' \
    <<<"$out" | sort -u)
  if ((rc != 0 && ${#drift[@]} == 0)); then
    printf '%s\n' "$out" >&2
    echo "check_format.sh: $CLANG_FORMAT failed (exit $rc)" >&2
    exit 2
  fi
fi

if ((${#drift[@]} == 0)); then
  echo "check_format.sh: ${#existing[@]} files formatted"
  exit 0
fi
if ((FIX)); then
  "$CLANG_FORMAT" -i "${drift[@]}"
  printf 'check_format.sh: re-formatted %s\n' "${drift[@]}"
  exit 0
fi
echo "check_format.sh: ${#drift[@]} of ${#existing[@]} files are not clang-formatted:"
printf '  %s\n' "${drift[@]}"
echo "fix with: tools/check_format.sh --fix ${drift[*]}"
exit 1
