#!/usr/bin/env bash
# Whole-program cost of `rdmatrace record --soft` on softverbs: each measurement runs bare and
# recorded (both sides under record) alternately, ROUNDS times, and prints the medians and ratios.
#   ibv_rc_pingpong -s 64 -n PP_ITERS   latency, µs/iter (recorded / bare: lower is better)
#   ib_send_bw -s 65536 -n BW_ITERS     bandwidth, MB/s (recorded / bare: goal >= 0.90)
# Usage: record_bench.sh ROOT [ROUNDS]   (ROOT: the repository; ./rdmatrace builds the jar if needed)
set -euo pipefail
root="$(cd "${1:?repository root}" && pwd)"
rounds="${2:-3}"
pp_iters="${PP_ITERS:-10000}"
bw_iters="${BW_ITERS:-3000}"
sv_lib="$(dirname "$(find "$root/softverbs/target/classes" -path '*softverbs/libibverbs.so.1' | head -1)")"
[[ -d "$sv_lib" ]] || { echo "record_bench: build softverbs first (make -C softverbs softverbs)" >&2; exit 2; }
command -v ib_send_bw >/dev/null || { echo "record_bench: ib_send_bw missing (apt-get install perftest)" >&2; exit 2; }
# RDMATRACE: the command to run (default: the repository's launcher, which builds the jar when needed)
read -r -a rdmatrace <<< "${RDMATRACE:-$root/rdmatrace}"
"${rdmatrace[@]}" --version >/dev/null   # builds the jar once, before anything is timed
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

free_port() {
    local p
    for _ in $(seq 50); do
        p=$((20000 + RANDOM % 40000))
        ss -Htan "sport = :$p" | grep -q . || { echo "$p"; return; }
    done
    echo "record_bench: no free port" >&2; exit 2
}

# run_pair MODE SERVER_CMD... -- CLIENT_CMD... ; prints the client's output. MODE bare|recorded.
run_pair() {
    local mode=$1; shift
    local server=() client=()
    while [[ $1 != -- ]]; do server+=("$1"); shift; done; shift
    client=("$@")
    local net="127.$((RANDOM % 200 + 20)).$((RANDOM % 250 + 1))"
    local port; port=$(free_port)
    server=("${server[@]/@PORT@/$port}"); client=("${client[@]/@PORT@/$port}"); client=("${client[@]/@SERVER@/$net.1}")
    local pre_a=(env SOFTVERBS_DEVICES="bencha@$net.1") pre_b=(env SOFTVERBS_DEVICES="benchb@$net.2")
    if [[ $mode == bare ]]; then
        pre_a+=(LD_LIBRARY_PATH="$sv_lib"); pre_b+=(LD_LIBRARY_PATH="$sv_lib")
    else
        rm -rf "$work/trace"
        pre_a+=("${rdmatrace[@]}" record --soft --out "$work/trace" --host-id a --)
        pre_b+=("${rdmatrace[@]}" record --soft --out "$work/trace" --host-id b --)
    fi
    "${pre_a[@]}" timeout 300 "${server[@]}" > "$work/server.out" 2>&1 &
    local spid=$!
    # the server listens once its device is open (a recorded one after its JVM's start, seconds on a
    # loaded machine); a client started before would fail its connect and leave the server waiting
    for _ in $(seq 600); do
        ss -Htln "sport = :$port" | grep -q . && break
        kill -0 "$spid" 2>/dev/null || break
        sleep 0.1
    done
    "${pre_b[@]}" timeout 300 "${client[@]}" > "$work/client.out" 2>&1 || true
    wait "$spid" || true
    if [[ $mode == recorded ]]; then   # a full ring drops records, and a dropped record costs the program less
        cat "$work/server.out" "$work/client.out" | awk '/records dropped/ {for (i = 1; i < NF; i++) if ($(i+1) == "records") s += $i}
            END {print s + 0}' >> "$work/dropped.${server[0]}"
    fi
    cat "$work/client.out"
}

pp() { run_pair "$1" ibv_rc_pingpong -d bencha -g 3 -s 64 -n "$pp_iters" -p @PORT@ -- \
                     ibv_rc_pingpong -d benchb -g 3 -s 64 -n "$pp_iters" -p @PORT@ @SERVER@ \
       | awk '/usec\/iter/ {print $(NF-1)}'; }
bw() { run_pair "$1" ib_send_bw -d bencha -x 3 -s 65536 -n "$bw_iters" -p @PORT@ -- \
                     ib_send_bw -d benchb -x 3 -s 65536 -n "$bw_iters" -p @PORT@ @SERVER@ \
       | awk '$1 == 65536 {print $4}'; }

median() { sort -n | awk '{v[NR]=$1} END {if (NR == 0) print "nan"; else print v[int((NR+1)/2)]}'; }

for r in $(seq "$rounds"); do
    for mode in bare recorded; do
        echo "pp $mode $(pp $mode)" >> "$work/results"
        echo "bw $mode $(bw $mode)" >> "$work/results"
    done
    echo "round $r/$rounds: $(tail -n 4 "$work/results" | tr '\n' ' ')" >&2
done
pp_bare=$(awk '$1=="pp" && $2=="bare" && $3!="" {print $3}' "$work/results" | median)
pp_rec=$(awk '$1=="pp" && $2=="recorded" && $3!="" {print $3}' "$work/results" | median)
bw_bare=$(awk '$1=="bw" && $2=="bare" && $3!="" {print $3}' "$work/results" | median)
bw_rec=$(awk '$1=="bw" && $2=="recorded" && $3!="" {print $3}' "$work/results" | median)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "nan" }'; }
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-44s %10s %10s %8s\n' "median of $rounds alternating rounds" bare recorded ratio
printf '%-44s %10s %10s %8s\n' "ibv_rc_pingpong -s 64 -n $pp_iters (µs/iter)" "$pp_bare" "$pp_rec" "$(ratio "$pp_rec" "$pp_bare")"
printf '%-44s %10s %10s %8s\n' "ib_send_bw -s 65536 -n $bw_iters (MB/s)" "$bw_bare" "$bw_rec" "$(ratio "$bw_rec" "$bw_bare")"
dropped() { awk '{s += $1} END {print s + 0}' "$work/dropped.$1" 2>/dev/null || echo 0; }
echo "records the tracer dropped (ring full), all recorded rounds: ibv_rc_pingpong $(dropped ibv_rc_pingpong), ib_send_bw $(dropped ib_send_bw)"
