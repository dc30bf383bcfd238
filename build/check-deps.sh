#!/usr/bin/env bash
# Checks what rdmatrace needs (build/deps.txt) and, when something is missing, says in one line what
# to install, or installs it (as root on Debian/Ubuntu, with apt-get). Used by ./rdmatrace before it
# builds, by the Maven build (validate, --no-install) and by .ci/run (--tests).
#
#   build/check-deps.sh [--tests] [--no-install] [--dry-run]
#     --tests       also what the tests run (ibverbs-utils, tshark, chromium, perftest, ...)
#     --no-install  never install, only say what is missing (exit 2)
#     --dry-run     print the commands an install would run instead of running them (exit 0)
# Exit: 0 everything is there (or was installed), 2 something is missing, 3 a broken deps.txt.
#
# The environment can be replaced, so a test can run the check against a machine that lacks things:
#   RDMATRACE_DEPS_ROOT  prefix of every file probed (headers, files, etc/os-release); default /
#   RDMATRACE_DEPS_PATH  where commands are looked for; default $PATH
#   RDMATRACE_DEPS_UID   the user id deciding root or not; default $EUID
# Pure bash apart from the probed commands themselves, so an empty RDMATRACE_DEPS_PATH is a fair test.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
list="$here/deps.txt"
sysroot="${RDMATRACE_DEPS_ROOT:-}"
sysroot="${sysroot%/}"
probe_path="${RDMATRACE_DEPS_PATH-$PATH}"
uid="${RDMATRACE_DEPS_UID:-$EUID}"

want=build install=1 dry_run=0
for arg in "$@"; do
    case "$arg" in
        --tests) want=tests ;;
        --no-install) install=0 ;;
        --dry-run) dry_run=1 ;;
        -h | --help) sed -n '2,17s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "check-deps: unknown option '$arg' (see --help)" >&2; exit 2 ;;
    esac
done

find_command() {   # $1: name; prints its path
    local dir
    local IFS=:
    for dir in $probe_path; do
        if [[ -n "$dir" && -x "$dir/$1" && ! -d "$dir/$1" ]]; then printf '%s\n' "$dir/$1"; return 0; fi
    done
    return 1
}

exists_glob() {   # $1: path pattern below the root
    local match
    for match in $sysroot/$1; do
        if [[ -e "$match" ]]; then return 0; fi
    done
    return 1
}

jdk_ok() {   # $1: least feature release; JAVA_HOME's javac first, as Maven uses it
    local javac="" version feature
    if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/javac" ]]; then javac="$JAVA_HOME/bin/javac"; else javac="$(find_command javac)" || return 1; fi
    version="$("$javac" -version 2>&1)" || return 1
    [[ "$version" =~ javac\ ([0-9]+) ]] || return 1
    feature="${BASH_REMATCH[1]}"
    if [[ "$feature" == 1 && "$version" =~ javac\ 1\.([0-9]+) ]]; then feature="${BASH_REMATCH[1]}"; fi
    ((feature >= $1))
}

present() {   # $1: kind, $2: probe (a|b: any)
    local alt
    local IFS='|'
    for alt in $2; do
        case "$1" in
            header) [[ -e "$sysroot/usr/include/$alt" ]] && return 0 ;;
            command) find_command "$alt" >/dev/null && return 0 ;;
            file) exists_glob "$alt" && return 0 ;;
            jdk) jdk_ok "$alt" && return 0 ;;
            *) echo "check-deps: $list: unknown kind '$1'" >&2; exit 3 ;;
        esac
    done
    return 1
}

describe() {   # $1: kind, $2: probe; how the missing piece is named in the message
    case "$1" in
        header) printf '%s' "$2" ;;
        command) printf '%s' "${2%%|*}" ;;
        jdk) printf 'a JDK >= %s' "$2" ;;
        file) local f="${2%%|*}"; printf '%s' "${f##*/}" ;;
    esac
}

# Which package manager: from os-release (ID, ID_LIKE), as distributions describe themselves.
family=other
if [[ -r "$sysroot/etc/os-release" ]]; then
    ids=""
    while IFS='=' read -r key value; do
        value="${value//\"/}"
        if [[ "$key" == ID || "$key" == ID_LIKE ]]; then ids="$ids $value "; fi
    done <"$sysroot/etc/os-release"
    case "$ids" in
        *" debian "* | *" ubuntu "*) family=debian ;;
        *" fedora "* | *" rhel "* | *" centos "*) family=fedora ;;
    esac
fi

missing_what=() missing_pkgs=()
add_pkg() {
    local p
    for p in "${missing_pkgs[@]}"; do [[ "$p" == "$1" ]] && return 0; done
    missing_pkgs+=("$1")
}
check_all() {
    missing_what=() missing_pkgs=()
    local line for kind probe debian fedora extra
    while read -r for kind probe debian fedora extra; do
        [[ -z "$for" || "$for" == \#* ]] && continue
        if [[ -z "$fedora" || -n "$extra" || ( "$for" != build && "$for" != tests ) ]]; then
            echo "check-deps: $list: a line needs 5 columns: '$for $kind $probe $debian $fedora $extra'" >&2
            exit 3
        fi
        [[ "$for" == tests && "$want" != tests ]] && continue
        if ! present "$kind" "$probe"; then
            missing_what+=("$(describe "$kind" "$probe")")
            if [[ "$family" == fedora ]]; then add_pkg "$fedora"; else add_pkg "$debian"; fi
        fi
    done <"$list"
}

check_all
((${#missing_what[@]} == 0)) && exit 0

join() { local IFS="$1"; shift; printf '%s' "$*"; }
what="$(join , "${missing_what[@]}")"
what="${what//,/, }"
pkgs="$(join ' ' "${missing_pkgs[@]}")"
sudo="sudo "
((uid == 0)) && sudo=""
needs="rdmatrace: the $want needs $what"
[[ "$want" == tests ]] && needs="rdmatrace: the build and the tests need $what"

case "$family" in
    debian)
        if ((uid != 0 || !install)) || ! find_command apt-get >/dev/null; then
            echo "$needs; install them with: ${sudo}apt-get install $pkgs" >&2
            exit 2
        fi
        echo "rdmatrace: installing $pkgs with apt-get (for $what)" >&2
        apt="$(find_command apt-get)"
        update=("$apt" update -qq)
        get=("$apt" install -y -qq --no-install-recommends "${missing_pkgs[@]}")
        if ((dry_run)); then
            echo "would run: apt-get update -qq && apt-get install -y -qq --no-install-recommends $pkgs"
            exit 0
        fi
        export DEBIAN_FRONTEND=noninteractive
        # apt's own progress lines are kept, and shown (the last 15) only when it fails
        if ! log="$("${update[@]}" 2>&1)" || ! log="$("${get[@]}" 2>&1)"; then
            mapfile -t lines <<<"$log"
            ((${#lines[@]} > 15)) && lines=("${lines[@]: -15}")
            [[ -n "$log" ]] && printf '%s\n' "${lines[@]}" >&2
            echo "rdmatrace: apt-get could not install $pkgs; run it yourself: apt-get install $pkgs" >&2
            exit 2
        fi
        check_all
        if ((${#missing_what[@]})); then
            echo "rdmatrace: still missing after apt-get: $(join , "${missing_what[@]}")" >&2
            exit 2
        fi
        exit 0
        ;;
    fedora)
        echo "$needs; install them with: ${sudo}dnf install $pkgs" >&2
        exit 2
        ;;
    *)
        echo "$needs; install them with your package manager (Debian's names: $pkgs)" >&2
        exit 2
        ;;
esac
