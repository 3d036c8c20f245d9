#!/usr/bin/env bash
# Installs everything the build and the tests need, and nothing when it is all
# there already (a second run takes about a second).
#
#   tools/install.sh            apt packages, Python venv, Java jars, checks
#   tools/install.sh --no-apt   skip the apt step (e.g. not root)
#   ST_BENCH_JARS=1 tools/install.sh   also the benchmark-only jar sets of
#            bench/maven/ (bench/peer_delivery_bench.py)
#
# What goes where (all fetched through apt, pip and mvn only):
#   apt      the C++ toolchain and libraries, Java 17, Maven, python3-venv
#   $ST_VENV_DIR   (default <repo>/.venv)  pip install -r tools/requirements.txt;
#            redone only when that file changes (hash stamp in the venv)
#   $ST_CACHE_DIR/jars/<set>/  (default <repo>/.cache/jars/<set>/) the runtime
#            classpath of tools/maven/<set>/pom.xml; redone when the pom changes.
#            Maven's own cache is ~/.m2 (override with ST_M2_REPO).
#   DuckDB extensions come from the duckdb-extension-* wheels in the venv; the
#            test harness LOADs them by path (see tests/integration/harness).
#   Java: Debian's JDK 17 (Kafka 4.1 and Spark 3.5 both run on it); set
#            ST_JAVA_HOME to use another.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${ST_VENV_DIR:-$REPO/.venv}"
CACHE="${ST_CACHE_DIR:-$REPO/.cache}"
M2_REPO="${ST_M2_REPO:-}"
DO_APT=1
for arg in "$@"; do
  case "$arg" in
    --no-apt) DO_APT=0 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "install.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

APT_PACKAGES=(
  # build
  cmake ninja-build g++ pkg-config clang-format
  # the lint stage (tools/run_clang_tidy.sh); 14 matches clang 14 of the fuzz
  # and TSan builds
  clang-tidy
  # product libraries
  libexpected-dev librdkafka-dev libzstd-dev libsnappy-dev zlib1g-dev liblz4-dev
  libboost-dev libboost-system-dev libsqlite3-dev nlohmann-json3-dev libssl-dev
  libfmt-dev libspdlog-dev libcli11-dev libsimdjson-dev libpq-dev
  # .proto schemas of PROTOBUF_CONFLUENT / PROTOBUF_GSR channels (src/decoding/protobuf_descriptor.cc)
  libprotobuf-dev libprotoc-dev
  # unit tests and benchmarks; clang + compiler-rt for the libFuzzer targets
  # (tests/fuzz: -fsanitize=fuzzer,address,undefined)
  libgtest-dev libgmock-dev libbenchmark-dev clang libclang-rt-14-dev
  # integration tests: Python venv, Kafka broker and Spark (Java), jar fetching,
  # the test proxy's throwaway TLS certificate (openssl)
  python3 python3-venv openjdk-17-jdk-headless maven zstd openssl
  # test_protobuf_channel.py compiles its .proto files into descriptor sets
  protobuf-compiler
  # the PostgreSQL catalog backend's tests (tools/pg_cluster.sh: initdb, pg_ctl)
  postgresql
)

log() { printf '[install] %s\n' "$*"; }
die() { printf '[install] ERROR: %s\n' "$*" >&2; exit 1; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }
sha() { cat "$@" | sha256sum | cut -d' ' -f1; }

# ---------------------------------------------------------------- apt
install_apt() {
  local t0 missing=() pkg status
  t0=$(now)
  for pkg in "${APT_PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
    [[ "$status" == "installed" ]] || missing+=("$pkg")
  done
  if ((${#missing[@]} == 0)); then
    log "apt: all ${#APT_PACKAGES[@]} packages present ($(elapsed "$t0"))"
    return
  fi
  log "apt: installing ${missing[*]}"
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || die "apt packages missing (${missing[*]}) and not root; run as root or install them"
    sudo=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -q || die "apt-get update failed"
  "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" \
    || die "apt-get install failed for: ${missing[*]}"
  log "apt: done ($(elapsed "$t0"))"
}

# ---------------------------------------------------------------- python
install_venv() {
  local t0 req stamp want
  t0=$(now)
  req="$REPO/tools/requirements.txt"
  stamp="$VENV/.st-requirements.sha256"
  want="$(sha "$req")-$(python3 -c 'import sys; print(sys.version.split()[0])')"
  if [[ -x "$VENV/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    log "venv: $VENV up to date ($(elapsed "$t0"))"
    return
  fi
  if [[ ! -x "$VENV/bin/python" ]]; then
    log "venv: creating $VENV"
    python3 -m venv "$VENV" || die "python3 -m venv $VENV failed (is python3-venv installed?)"
  fi
  log "venv: pip install -r tools/requirements.txt (pyspark and pyarrow are large; first time takes minutes)"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip \
    || die "upgrading pip in $VENV failed"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -r "$req" \
    || die "pip install -r $req failed (see the pip error above; if $VENV is broken, remove it and rerun)"
  echo "$want" >"$stamp"
  log "venv: done ($(elapsed "$t0"))"
}

# ---------------------------------------------------------------- java jars
install_jars() {
  local pom set out stamp want t0 mvn_args=()
  command -v mvn >/dev/null || die "mvn not found (apt package maven)"
  [[ -n "$M2_REPO" ]] && mvn_args+=("-Dmaven.repo.local=$M2_REPO")
  local poms=("$REPO"/tools/maven/*/pom.xml)
  # Jar sets only benchmarks use (bench/maven/: Kafka Connect, Spark's Kafka
  # source) are fetched on request, so CI does not pay for them.
  [[ "${ST_BENCH_JARS:-0}" == 1 ]] && poms+=("$REPO"/bench/maven/*/pom.xml)
  for pom in "${poms[@]}"; do
    t0=$(now)
    set=$(basename "$(dirname "$pom")")
    out="$CACHE/jars/$set"
    stamp="$out/.st-pom.sha256"
    want=$(sha "$pom")
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
      log "jars: $set up to date ($(ls "$out"/*.jar | wc -l) jars, $(elapsed "$t0"))"
      continue
    fi
    log "jars: resolving $set from $pom"
    rm -rf "$out.tmp"
    mkdir -p "$CACHE/jars"
    if ! mvn -B -ntp "${mvn_args[@]}" -f "$pom" \
        org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
        -DincludeScope=runtime -DoutputDirectory="$out.tmp" >"$CACHE/jars/$set.mvn.log" 2>&1; then
      tail -n 40 "$CACHE/jars/$set.mvn.log" >&2
      die "mvn could not resolve the jars of $pom (Maven log above, whole log in $CACHE/jars/$set.mvn.log)"
    fi
    ls "$out.tmp"/*.jar >/dev/null 2>&1 || die "mvn copied no jars for $set"
    echo "$want" >"$out.tmp/.st-pom.sha256"
    rm -rf "$out" && mv "$out.tmp" "$out"
    log "jars: $set done ($(ls "$out"/*.jar | wc -l) jars, $(elapsed "$t0"))"
  done
}

# ---------------------------------------------------------------- checks
check_runtime() {
  local t0
  t0=$(now)
  local java_home
  java_home=$(PYTHONPATH="$REPO/tests/integration" "$VENV/bin/python" -c \
    'from harness import paths; print(paths.java_home())') \
    || die "no JDK found (install openjdk-17-jdk-headless or set ST_JAVA_HOME)"
  "$java_home/bin/java" -version 2>&1 | grep -q 'version "17' \
    || log "warning: $java_home is not Java 17; Spark 3.5 needs 17 (set ST_JAVA_HOME)"
  # The harness LOADs the DuckDB extensions straight from the wheels; fail here,
  # not in the middle of a test run, if the wheels and duckdb disagree.
  PYTHONPATH="$REPO/tests/integration" "$VENV/bin/python" -c \
    'from harness import duckdb_engine; duckdb_engine.connect().close()' \
    || die "DuckDB cannot load its extensions from the duckdb-extension-* wheels in $VENV"
  log "checks: java at $java_home, duckdb extensions load ($(elapsed "$t0"))"
}

T_ALL=$(now)
# Several developers share one checkout: two pip runs in one venv corrupt it.
mkdir -p "$CACHE"
exec 9>"$CACHE/.install.lock"
if ! flock -n 9; then
  log "waiting for another install.sh to finish"
  flock 9
fi
if ((DO_APT)); then install_apt; else log "apt: skipped (--no-apt)"; fi
install_venv
install_jars
check_runtime
log "all dependencies present ($(elapsed "$T_ALL"))"
