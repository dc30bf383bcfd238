#!/usr/bin/env bash
# Regenerates the reference captures in this folder: one clean two-host bring-up and one capture per
# fault override, each made by `rdmatrace demo` (hostA listens on softverbs@127.0.0.1, hostB connects
# from softverbs@127.0.0.2). A capture's queue files are sparse (~80 MB apparent, a few KB of events),
# so each is stored gzip-compressed: <name>/<host>/<file>.gz. `rdmatrace analyze sample-traces/<name>` reads
# that form directly; other tools may need the plain files:
#   sample-traces/regenerate.sh --unpack <name> <dir>
# Usage: sample-traces/regenerate.sh [name...]      (default: every sample)
# Env: RDMATRACE_JAR=path/to/rdmatrace.jar to use a built jar instead of the repo's ./rdmatrace launcher.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

rdmatrace() {
    if [[ -n "${RDMATRACE_JAR:-}" ]]; then
        java -Dchronicle.analytics.disable=true -Dchronicle.announcer.disable=true -jar "$RDMATRACE_JAR" "$@"
    else
        "$here/../rdmatrace" "$@"
    fi
}

# name | hostA (listener) options | hostB (connector) options | what it shows
samples=(
  "clean|||a clean RC bring-up: TC01-TC04 pass on both hosts"
  "psn-wraparound|--sq-psn 0xfffffe --iterations 4|--sq-psn 0xfffffd --iterations 4|clean, with PSNs that wrap past 0xffffff"
  "advertise-psn-off-by-one||--advertise-psn -1 --retry-cnt 2 --timeout 12|hostB tells hostA a PSN one below its sq_psn: hostA NAKs every packet, hostB retry exceeded"
  "post-recv-never|--post-recv never|--rnr-retry 0 --min-rnr-timer 1|hostA posts no receive: hostB gets RNR NAKs, RNR retry exceeded"
  "path-mtu-one-side|--path-mtu 4096||hostA programs path MTU 4096 on a 1500-byte link (active 1024), hostB 1024: both get errors"
  "no-grh||--no-grh|hostB's address vector has no GRH on RoCE: INIT->RTR refused (EINVAL)"
  "dest-qpn-wrong||--dest-qpn 0x999|hostB programs a dest_qp_num that is not hostA's QP: its packets go nowhere"
  "pkey-index-bad||--pkey-index 5|hostB uses a P_Key index beyond the 1-entry table: RESET->INIT refused"
  "gid-index-wrong||--gid-index 0|hostB sources from the link-local RoCE v1 GID instead of the IPv4 RoCE v2 one"
  "mr-access-missing|--op write|--op write --mr-access local-write|hostB's MR lacks REMOTE_WRITE: hostA's RDMA WRITE gets a remote access error"
  "qp-access-missing|--op write|--op write --qp-access local-write|hostB's QP lacks REMOTE_WRITE: hostA's RDMA WRITE is an invalid request"
  "cq-overflow|--iterations 4|--iterations 4 --cq-depth 1 --sq-depth 1|hostB's CQ holds one entry for a send and a receive per iteration: overrun"
  "rq-depth-too-small|--iterations 4|--iterations 4 --rq-depth 1|hostB posts 4 receives into a receive queue of 1: ENOMEM"
  "peer-not-ready|--no-barrier --delay-rtr 1500|--no-barrier|no barrier and hostA late to RTR: hostB sends into a QP still in INIT, retry exceeded"
  "modify-in-rts-illegal||--modify-in-rts path_mtu=4096|an extra RTS->RTS modify of path_mtu, which that transition does not allow: EINVAL"
)

unpack() {
    local name=$1 dir=$2
    [[ -d "$here/$name" ]] || { echo "no sample '$name'" >&2; exit 2; }
    for gz in "$here/$name"/host*/*.gz; do
        local host; host="$(basename "$(dirname "$gz")")"
        mkdir -p "$dir/$host"
        gzip -dc "$gz" > "$dir/$host/$(basename "$gz" .gz)"
    done
    echo "unpacked $name into $dir"
}

generate() {
    local name=$1 a=$2 b=$3 what=$4
    local tmp; tmp="$(mktemp -d)"
    local common="--cq-timeout-ms 2000 --oob-timeout-ms 20000"
    echo "== $name: $what"
    set +e
    rdmatrace demo --out "$tmp" --no-analyze --host-a-args "$common $a" --host-b-args "$common $b" > "$tmp/demo.log" 2>&1
    local code=$?
    set -e
    if [[ $code -ne 0 && $code -ne 1 ]] || [[ ! -d "$tmp/hostA" || ! -d "$tmp/hostB" ]]; then
        cat "$tmp/demo.log" >&2
        echo "$name: demo failed (exit $code)" >&2
        exit 1
    fi
    rm -rf "${here:?}/$name"
    for host in hostA hostB; do
        mkdir -p "$here/$name/$host"
        for f in "$tmp/$host"/*; do
            gzip -9 -n -c "$f" > "$here/$name/$host/$(basename "$f").gz"
        done
    done
    {
        echo "# $name"
        echo
        echo "$what"
        echo
        echo "hostA: rdmatrace capture --listen ... $common $a"
        echo "hostB: rdmatrace capture --connect ... $common $b"
        echo "demo exit code: $code"
        echo
        echo '```'
        grep -E '^\[host[AB]\] ( |rdmatrace capture: host|PASS|FAIL|trace:)' "$tmp/demo.log" | sed -E 's#trace: [^ ]*/(host[AB])#trace: \1#'
        echo '```'
    } > "$here/$name/CAPTURE.md"
    rm -rf "$tmp"
}

if [[ "${1:-}" == "--unpack" ]]; then
    unpack "$2" "$3"
    exit 0
fi
for entry in "${samples[@]}"; do
    IFS='|' read -r name a b what <<< "$entry"
    if [[ $# -eq 0 ]] || [[ " $* " == *" $name "* ]]; then
        generate "$name" "$a" "$b" "$what"
    fi
done
