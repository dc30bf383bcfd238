#!/usr/bin/env bash
# Two softverbs "hosts" on one machine that look like real ones: two network namespaces of our own
# joined by a veth pair (host a 10.29.0.1, host b 10.29.0.2 by default, IPv6 fd29::1/2 too), each
# running one command with a softverbs device bound to its interface (SOFTVERBS_DEVICES=NAME@IFNAME)
# and, in a mount namespace of its own, the device's sysfs files at /sys/class/infiniband and
# /dev/infiniband (softverbs-sysfs), which UCX reads before it offers a device.
# Everything made here is removed when the script ends, however it ends; traffic never leaves
# the two namespaces. Needs root (or CAP_SYS_ADMIN + CAP_NET_ADMIN).
#
# usage: softverbs-hosts.sh [options] -- 'COMMAND A' 'COMMAND B'
#   --mtu N          the veth MTU (default 1500); the devices take it as their link MTU
#   --net A.B.C      the hosts' IPv4 /24 (default 10.29.0: a = .1, b = .2)
#   --device-opts S  appended to each device spec, e.g. ':gid=rxe'
#   --wait-tcp PORT  start b once a listens on TCP PORT (else b starts right after a)
#   --timeout SEC    end both commands after SEC seconds (default 120); exit 1
#   --log-dir DIR    each host's stdout+stderr in DIR/a.log, DIR/b.log (default: a temporary dir,
#                    printed with a "[a] " / "[b] " prefix at the end and removed)
#   --lib DIR        the directory of softverbs' libibverbs.so.1 (default: the build's)
# Each command runs under bash -c with SV_HOST (a|b), SV_IP, SV_PEER, SV_IFNAME, SV_DEVICE (the
# device name), SOFTVERBS_DEVICES and LD_LIBRARY_PATH (softverbs first) set, and SV_RSH: an rsh
# agent (`$SV_RSH HOST COMMAND...`, HOST a, b or its IPv4) that runs COMMAND on that host, in its
# namespaces and with its environment, while the host's own command lives; e.g. Open MPI's
# `mpirun --mca plm_rsh_agent "$SV_RSH" --host $SV_IP,$SV_PEER`.
# Exit: 0 both commands exited 0; 1 a command failed or timed out; 2 usage, or namespaces could
# not be made (the message says which step); 3 internal.
set -uo pipefail

self="$(readlink -f "${BASH_SOURCE[0]}")"
here="$(dirname "$self")"

die() { echo "softverbs-hosts: $2" >&2; exit "$1"; }

# ---- inside one host: `ip netns exec` made a mount namespace with this netns' sysfs at /sys ----
if [[ "${1:-}" == "--inside" ]]; then
    work="$2"; shift 2
    mkdir -p "$work/sysc-up" "$work/sysc-wk" "$work/dev-up" "$work/dev-wk" "$work/dev0" || exit 3
    # /sys/class and /dev get an overlay each: the host's entries stay, ours are added on top
    mount -t overlay overlay -o "lowerdir=/sys/class,upperdir=$work/sysc-up,workdir=$work/sysc-wk" /sys/class \
        || die 2 "cannot overlay /sys/class in the host's mount namespace"
    mount --rbind /dev "$work/dev0" || die 2 "cannot bind /dev"
    mount -t overlay overlay -o "lowerdir=/dev,upperdir=$work/dev-up,workdir=$work/dev-wk" /dev \
        || die 2 "cannot overlay /dev in the host's mount namespace"
    for m in shm pts mqueue hugepages; do   # the overlay shows /dev's own files, not its mounts
        [[ -d "$work/dev0/$m" && -d "/dev/$m" ]] && mount --rbind "$work/dev0/$m" "/dev/$m"
    done
    "$SV_LIB/softverbs-sysfs" /sys/class/infiniband /dev/infiniband \
        || die 2 "softverbs-sysfs failed for SOFTVERBS_DEVICES=$SOFTVERBS_DEVICES"
    exec bash -c "$1"
fi

# ---- the rsh agent: COMMAND on a host, entering the namespaces of that host's own command ----
if [[ "${1:-}" == "--rsh" ]]; then
    work="$2" host="$3"; shift 3
    for h in a b; do [[ "$host" == "$h" || "$host" == "$(cat "$work/$h.ip" 2>/dev/null)" ]] && break; h=""; done
    [[ -n "$h" && -f "$work/$h.pid" ]] || die 2 "rsh: no host '$host' (a, b or their IPv4 addresses)"
    pid="$(cat "$work/$h.pid")"
    kill -0 "$pid" 2>/dev/null || die 2 "rsh: host $h's command has ended"
    mapfile -t envs <"$work/$h.env"
    exec nsenter -t "$pid" -m -n -- env "${envs[@]}" bash -c "$*"
fi

mtu=1500 net=10.29.0 devopts="" wait_tcp="" timeout=120 logdir="" lib=""
while (($#)); do
    case "$1" in
        --mtu) mtu="${2:?}"; shift 2 ;;
        --net) net="${2:?}"; shift 2 ;;
        --device-opts) devopts="${2?}"; shift 2 ;;
        --wait-tcp) wait_tcp="${2:?}"; shift 2 ;;
        --timeout) timeout="${2:?}"; shift 2 ;;
        --log-dir) logdir="${2:?}"; shift 2 ;;
        --lib) lib="${2:?}"; shift 2 ;;
        --) shift; break ;;
        -h|--help) sed -n '2,/^set -uo/p' "$self" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die 2 "unknown option '$1' (see --help)" ;;
    esac
done
(($# == 2)) || die 2 "expected -- 'COMMAND A' 'COMMAND B' (see --help)"
cmd_a="$1" cmd_b="$2"
[[ "$mtu" =~ ^[0-9]+$ && "$mtu" -ge 576 && "$mtu" -le 9216 ]] || die 2 "bad --mtu '$mtu' (576..9216)"
[[ "$net" =~ ^[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$ ]] || die 2 "bad --net '$net' (three octets, e.g. 10.29.0)"
[[ "$timeout" =~ ^[0-9]+$ && "$timeout" -gt 0 ]] || die 2 "bad --timeout '$timeout'"
[[ -z "$wait_tcp" || "$wait_tcp" =~ ^[0-9]+$ ]] || die 2 "bad --wait-tcp '$wait_tcp'"
lib="${lib:-$(readlink -f "$here/../../../target/classes/io/rdmatrace/native/linux-x86_64/softverbs")}"
[[ -f "$lib/libibverbs.so.1" && -x "$lib/softverbs-sysfs" ]] \
    || die 2 "no softverbs build in '$lib' (make -C softverbs softverbs, or --lib DIR)"
command -v ip >/dev/null || die 2 "the ip command is missing (apt-get install iproute2)"

# unique among concurrent runs: pid and a random pair of digits, 7 digits (veth names: IFNAMSIZ 16)
printf -v id '%07d' $((($$ * 100 + RANDOM % 100) % 10000000))
ns_a="svh$id-a" ns_b="svh$id-b" if_a="svh${id}a" if_b="svh${id}b"
work="$(mktemp -d "${TMPDIR:-/tmp}/softverbs-hosts.XXXXXX")" || exit 3
keep_logs=1
[[ -n "$logdir" ]] || { logdir="$work/logs"; keep_logs=0; }
mkdir -p "$logdir" || die 2 "cannot make --log-dir '$logdir'"
pid_a="" pid_b=""

stop() {   # a host's process group: TERM, then KILL after 5 s
    local pid="$1" i
    [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM -- "-$pid" 2>/dev/null
    for ((i = 0; i < 50; i++)); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null
}
cleanup() {
    trap - EXIT INT TERM HUP
    stop "$pid_a"; stop "$pid_b"
    ip netns del "$ns_a" 2>/dev/null; ip netns del "$ns_b" 2>/dev/null   # takes the veth pair along
    if ((keep_logs == 0)); then
        for h in a b; do [[ -f "$logdir/$h.log" ]] && sed "s/^/[$h] /" "$logdir/$h.log"; done
    fi
    rm -rf "$work" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

step() { "$@" 2>"$work/err" || die 2 "cannot make the hosts ($*: $(cat "$work/err"))"; }
step ip netns add "$ns_a"
step ip netns add "$ns_b"
step ip link add "$if_a" mtu "$mtu" netns "$ns_a" type veth peer name "$if_b" mtu "$mtu" netns "$ns_b"
for h in a b; do
    ns="ns_$h" ifn="if_$h" n=1; [[ $h == b ]] && n=2
    step ip -n "${!ns}" link set lo up
    step ip -n "${!ns}" addr add "$net.$n/24" dev "${!ifn}"
    ip -n "${!ns}" addr add "fd29::$n/64" dev "${!ifn}" nodad 2>/dev/null   # IPv6 where the kernel has it
    step ip -n "${!ns}" link set "${!ifn}" up
done
for ((i = 0; i < 100; i++)); do   # carrier comes when both ends are up
    ip -n "$ns_a" link show "$if_a" | grep -q LOWER_UP && ip -n "$ns_b" link show "$if_b" | grep -q LOWER_UP && break
    sleep 0.05
done

start() {   # host, netns, ifname, own ip, peer ip, command; sets pid_<host>
    local h="$1" ns="$2" ifn="$3" ip="$4" peer="$5" cmd="$6"
    mkdir -p "$work/$h"
    local -a envs=("SV_HOST=$h" "SV_IP=$ip" "SV_PEER=$peer" "SV_IFNAME=$ifn" "SV_DEVICE=sv_$h" "SV_LIB=$lib"
        "SV_RSH=$self --rsh $work" "SOFTVERBS_DEVICES=sv_$h@$ifn$devopts"
        "LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
    printf '%s\n' "${envs[@]}" >"$work/$h.env"   # what the rsh agent gives a command on this host
    echo "$ip" >"$work/$h.ip"
    env "${envs[@]}" setsid ip netns exec "$ns" bash "$self" --inside "$work/$h" "$cmd" >"$logdir/$h.log" 2>&1 </dev/null &
    printf -v "pid_$h" '%s' "$!"
    echo "$!" >"$work/$h.pid"   # ip netns exec and --inside exec: this pid is the host's command
}
deadline=$((SECONDS + timeout))
start a "$ns_a" "$if_a" "$net.1" "$net.2" "$cmd_a"
if [[ -n "$wait_tcp" ]]; then
    until ip netns exec "$ns_a" ss -Hltn "sport = :$wait_tcp" 2>/dev/null | grep -q .; do
        kill -0 "$pid_a" 2>/dev/null || break
        ((SECONDS < deadline)) || break
        sleep 0.1
    done
fi
start b "$ns_b" "$if_b" "$net.2" "$net.1" "$cmd_b"

rc_a="" rc_b=""
while [[ -z "$rc_a" || -z "$rc_b" ]]; do
    if [[ -z "$rc_a" ]] && ! kill -0 "$pid_a" 2>/dev/null; then wait "$pid_a"; rc_a=$?; fi
    if [[ -z "$rc_b" ]] && ! kill -0 "$pid_b" 2>/dev/null; then wait "$pid_b"; rc_b=$?; fi
    if ((SECONDS >= deadline)); then
        echo "softverbs-hosts: timed out after ${timeout}s (a: ${rc_a:-running}, b: ${rc_b:-running})" >&2
        exit 1
    fi
    sleep 0.1
done
if ((rc_a != 0 || rc_b != 0)); then
    echo "softverbs-hosts: host a exited $rc_a, host b exited $rc_b" >&2
    exit 1
fi
exit 0
