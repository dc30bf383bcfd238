#!/usr/bin/env bash
# Tests the rdmatrace launcher's class-data archives and its signal passing with a stand-in java
# (no JVM, no build): bash cli/src/test/sh/launcher_cds_test.sh  (exit 0 = pass)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
launcher="$here/../../../../rdmatrace"
t="$(mktemp -d)"
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/root/cli/target" "$t/jdk/bin"
cp "$launcher" "$t/root/rdmatrace"
# a jar newer than any source (no build) without DuckDB's library (run as built)
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1], "w").writestr("x", "x")' "$t/root/cli/target/rdmatrace.jar"
# the stand-in java: logs its arguments; writes the archive it is asked to dump when it exits;
# "capture ... --wait" runs until SIGTERM or SIGINT and logs which one came
cat >"$t/jdk/bin/java" <<'JAVA'
#!/usr/bin/env bash
echo "$*" >>"$LOG"
echo "MALLOC_TRIM_THRESHOLD_=${MALLOC_TRIM_THRESHOLD_:-unset}" >>"$LOG"
dump=""
for a in "$@"; do case "$a" in -XX:ArchiveClassesAtExit=*) dump="${a#*=}" ;; esac; done
finish() { if [[ -n "$dump" ]]; then echo archive >"$dump"; fi; }
if [[ " $* " == *" --wait "* ]]; then
    trap 'echo "got TERM" >>"$LOG"; finish; exit 143' TERM
    trap 'echo "got INT" >>"$LOG"; finish; exit 130' INT
    echo ready >>"$LOG"
    while true; do sleep 0.1; done
fi
finish
JAVA
chmod +x "$t/jdk/bin/java"
export JAVA_HOME="$t/jdk" XDG_CACHE_HOME="$t/cache" LOG="$t/log"
fail() { echo "FAIL: $*" >&2; cat "$LOG" >&2; exit 1; }
run() { : >"$LOG"; "$t/root/rdmatrace" "$@"; }

run capture --no-record --listen 0
grep -q -- "-XX:ArchiveClassesAtExit\|SharedArchiveFile" "$LOG" && fail "a capture that does not record made or used an archive"
run capture --listen 0
grep -q -- "-XX:ArchiveClassesAtExit=$t/cache/rdmatrace/cds-capture-" "$LOG" || fail "the first recording capture made no archive"
ls "$t/cache/rdmatrace/"cds-capture-*.jsa >/dev/null 2>&1 || fail "the capture archive was not moved into place"
ls "$t/cache/rdmatrace/"cds-capture-*.jsa.* >/dev/null 2>&1 && fail "a temporary dump file was left"
run capture --listen 0
grep -q -- "-XX:SharedArchiveFile=$t/cache/rdmatrace/cds-capture-" "$LOG" || fail "a later capture did not use the capture archive"
run capture --no-record --listen 0
grep -q -- "-XX:SharedArchiveFile=$t/cache/rdmatrace/cds-capture-" "$LOG" || fail "a bare capture did not use the capture archive"
mkdir -p "$t/trace"
run analyze "$t/trace"
grep -q -- "-XX:ArchiveClassesAtExit=$t/cache/rdmatrace/cds-[0-9]" "$LOG" || fail "analyze did not make its own archive"
run capture --listen 0
grep -q -- "SharedArchiveFile=$t/cache/rdmatrace/cds-capture-" "$LOG" || fail "capture took the analyze archive"

# a bring-up of a few hundred events (< 640 KB on disk) compiles 4x later; more events compile at
# the JVM's own thresholds, still C1 only below 256 MB
run analyze "$t/trace"
grep -q -- "-XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=4" "$LOG" || fail "a small analyze did not compile late"
mkdir -p "$t/medium"
if fallocate -l 1M "$t/medium/2026W49.cq4" 2>/dev/null; then
    run analyze "$t/medium"
    grep -q -- "-XX:TieredStopAtLevel=1" "$LOG" || fail "a 1 MB analyze did not run with C1 only"
    grep -q -- "CompileThresholdScaling" "$LOG" && fail "a 1 MB analyze compiled late"
    rm -rf "$t/medium"
else
    echo "launcher_cds_test: SKIPPED the medium-input check (fallocate of 1 MB failed here)" >&2
fi

# large inputs (>= 256 MB on disk) keep freed memory in glibc; small ones run with its defaults
run analyze "$t/trace"
grep -q "MALLOC_TRIM_THRESHOLD_=unset" "$LOG" || fail "a small analyze changed glibc's malloc settings"
grep -q -- "-XX:Tier4" "$LOG" && fail "a small analyze (C1 only) was given C2 thresholds"
mkdir -p "$t/big"
if fallocate -l 300M "$t/big/2026W49.cq4" 2>/dev/null; then
    run analyze "$t/big"
    grep -q "MALLOC_TRIM_THRESHOLD_=1073741824" "$LOG" || fail "a large analyze kept glibc's trim threshold"
    grep -q -- "-XX:TieredStopAtLevel=1" "$LOG" && fail "a large analyze ran with C1 only"
    grep -q -- "-XX:Tier4InvocationThreshold=50000 .*-XX:Tier4BackEdgeThreshold=400000" "$LOG" \
        || fail "a large analyze kept C2's default compile thresholds"
    grep -q -- "CompileThresholdScaling" "$LOG" && fail "a large analyze compiled late"
    MALLOC_TRIM_THRESHOLD_=4096 run analyze "$t/big"
    grep -q "MALLOC_TRIM_THRESHOLD_=4096" "$LOG" || fail "the launcher overrode a trim threshold set in the environment"
    rm -f "$t/big/2026W49.cq4"
else
    echo "launcher_cds_test: SKIPPED the large-input check (fallocate of 300 MB failed here)" >&2
fi

# a signal to the launcher of a dumping run reaches the JVM, and the archive still lands
for sig in TERM INT; do
    rm -f "$t/cache/rdmatrace/"cds-capture-*
    : >"$LOG"
    # python restores SIGINT's default: a background job of this script would inherit it ignored
    python3 -c 'import signal, subprocess, sys; sys.exit(subprocess.call(sys.argv[1:], preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)))' \
        "$t/root/rdmatrace" capture --listen 0 --wait &
    pid=$!
    for _ in $(seq 100); do grep -q ready "$LOG" && break; sleep 0.1; done
    grep -q ready "$LOG" || fail "the stand-in java did not start"
    launcher_pid="$(pgrep -P "$pid" -f 'root/rdmatrace capture')" || fail "no launcher process"
    kill -"$sig" "$launcher_pid"
    status=0
    wait "$pid" || status=$?
    grep -q "got $sig" "$LOG" || fail "SIG$sig to the launcher did not reach the JVM"
    expected=$([[ $sig == TERM ]] && echo 143 || echo 130)
    [[ "$status" == "$expected" ]] || fail "launcher exit $status after SIG$sig, expected $expected"
    ls "$t/cache/rdmatrace/"cds-capture-*.jsa >/dev/null 2>&1 || fail "no archive after SIG$sig"
done
echo "launcher_cds_test: pass"
