#!/bin/bash
# Generates the tracing librdmacm's symbol plumbing from src/main/c/tracer/cm/symbols.list (one
# line per symbol of the real librdmacm: NAME VERSION HOW, HOW = wrap | fwd) into OUTDIR:
#   tc_syms.h       X-macro lists of the wrapped and the forwarded symbols
#   tc_fwd.S        one trampoline per forwarded symbol: jmp through tc_fwd_ptr[i]
#   librdmacm.map   the version script (librdmacm's version nodes and their inheritance)
set -eu
LIST=$1
OUT=$2
mkdir -p "$OUT"
body=$(grep -v '^#' "$LIST" | grep -v '^[[:space:]]*$')

{
  echo "/* Generated from cm/symbols.list by build/gen-tracer-cm-syms.sh; do not edit. */"
  echo "#ifndef TC_SYMS_H"
  echo "#define TC_SYMS_H"
  echo "#define TC_WRAP_LIST(X) \\"
  echo "$body" | awk '$3=="wrap" {printf "    X(%s, \"%s\") \\\n", $1, $2}'
  echo ""
  echo "#define TC_FWD_LIST(X) \\"
  echo "$body" | awk '$3=="fwd" {printf "    X(%s, \"%s\") \\\n", $1, $2}'
  echo ""
  echo "#endif"
} > "$OUT/tc_syms.h"

{
  echo "/* Generated from cm/symbols.list by build/gen-tracer-cm-syms.sh; do not edit."
  echo " * Each forwarded symbol jumps through its slot of tc_fwd_ptr (resolved with dlvsym at load). */"
  echo "    .text"
  echo "$body" | awk '$3=="fwd" {
      i = idx++;
      printf "    .globl %s\n    .type %s,@function\n    .p2align 4\n%s:\n    jmp *tc_fwd_ptr+%d(%%rip)\n    .size %s,.-%s\n", $1, $1, $1, 8*i, $1, $1;
  }'
  echo "    .section .note.GNU-stack,\"\",@progbits"
} > "$OUT/tc_fwd.S"

{
  echo "/* Generated from cm/symbols.list by build/gen-tracer-cm-syms.sh; do not edit. */"
  prev=""
  for v in $(echo "$body" | awk '{print $2}' | sort -u -t. -k1,1 -k2,2n | grep '^RDMACM_') \
           $(echo "$body" | awk '{print $2}' | sort -u | grep -v '^RDMACM_'); do
    echo "$v {"
    echo "    global:"
    echo "$body" | awk -v v="$v" '$2==v {printf "        %s;\n", $1}'
    if [ -z "$prev" ]; then echo "    local: *;"; fi
    case "$v" in
      RDMACM_*) if [ -n "$prev" ]; then echo "} $prev;"; else echo "};"; fi; prev=$v;;
      *) echo "};";;
    esac
  done
} > "$OUT/librdmacm.map"
