#!/bin/sh
# softverbs exports what the system libibverbs.so.1 exports: every (symbol, version node,
# default or not, function or object) the system library has must be in softverbs' dynamic
# symbol table, and softverbs may add only its own SOFTVERBS_1.0 extras.
# Usage: abi_symbols.sh SOFTVERBS_LIB [SYSTEM_LIB]. Skips (exit 0, saying so) when there is no
# system libibverbs.so.1 or no objdump to compare with.
set -eu
sv_lib="$1"
sys_lib="${2:-}"
if [ -z "$sys_lib" ]; then
  for c in /lib/x86_64-linux-gnu/libibverbs.so.1 /usr/lib/x86_64-linux-gnu/libibverbs.so.1 \
           /usr/lib64/libibverbs.so.1 /usr/lib/libibverbs.so.1; do
    if [ -f "$c" ]; then sys_lib="$c"; break; fi
  done
fi
if [ -z "$sys_lib" ] || [ ! -f "$sys_lib" ]; then
  echo "SKIPPED abi_symbols: no system libibverbs.so.1 to compare with (Debian package libibverbs1)"
  exit 0
fi
if ! command -v objdump >/dev/null 2>&1; then
  echo "SKIPPED abi_symbols: objdump is not installed (Debian package binutils)"
  exit 0
fi
if [ ! -f "$sv_lib" ]; then
  echo "FAIL abi_symbols: $sv_lib does not exist" >&2
  exit 1
fi

# One line per defined dynamic symbol: "<DF|DO> <version> <name>"; a non-default version is
# printed by objdump in parentheses, "(IBVERBS_1.0)", and kept so.
exports() {
  objdump -T "$1" | awk '$0 ~ / D[FO] / && $0 !~ /\*UND\*/ {
      for (i = 1; i <= NF; i++) if ($i == "DF" || $i == "DO") kind = $i;
      print kind, $(NF-1), $NF }' | sort -u
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
exports "$sys_lib" > "$tmp/sys"
exports "$sv_lib" > "$tmp/sv"
comm -23 "$tmp/sys" "$tmp/sv" > "$tmp/missing"
comm -13 "$tmp/sys" "$tmp/sv" | grep -v ' SOFTVERBS_1\.0 ' > "$tmp/extra" || true

n_sys=$(wc -l < "$tmp/sys")
status=0
if [ -s "$tmp/missing" ]; then
  echo "FAIL abi_symbols: $(wc -l < "$tmp/missing") of $n_sys exports of $sys_lib are missing from $sv_lib:" >&2
  sed 's/^/  /' "$tmp/missing" >&2
  status=1
fi
if [ -s "$tmp/extra" ]; then
  echo "FAIL abi_symbols: $sv_lib exports symbols the system library does not (internal names must be sv_*):" >&2
  sed 's/^/  /' "$tmp/extra" >&2
  status=1
fi
[ $status -eq 0 ] && echo "abi_symbols: all $n_sys exports of $sys_lib present (with their version nodes)"
exit $status
