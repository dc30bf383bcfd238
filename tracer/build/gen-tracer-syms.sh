#!/bin/bash
# Generates the tracer's symbol plumbing from src/main/c/tracer/symbols.list (one line per symbol
# of the real libibverbs: NAME VERSION HOW) into OUTDIR:
#   tr_syms.h       X-macro lists of the wrapped and the forwarded symbols
#   tr_fwd.S        one trampoline per forwarded symbol: jmp through tr_fwd_ptr[i]
#   libibverbs.map  the version script (libibverbs' version nodes and their inheritance)
set -eu
LIST=$1
OUT=$2
mkdir -p "$OUT"
body=$(grep -v '^#' "$LIST" | grep -v '^[[:space:]]*$')

{
  echo "/* Generated from symbols.list by build/gen-tracer-syms.sh; do not edit. */"
  echo "#ifndef TR_SYMS_H"
  echo "#define TR_SYMS_H"
  echo "#define TR_WRAP_LIST(X) \\"
  echo "$body" | awk '$3=="wrap" {printf "    X(%s, \"%s\") \\\n", $1, $2}'
  echo ""
  echo "#define TR_FWD_LIST(X) \\"
  echo "$body" | awk '$3=="fwd" || $3=="compat" {printf "    X(%s, \"%s\") \\\n", $1, $2}'
  echo ""
  echo "/* Wrapped verbs that also have an old version: the wrapper is bound to NAME@@VERSION (@@@: the plain name is not kept) explicitly. */"
  echo "$body" | awk 'NR==FNR { if ($3=="compat") compat[$1]=1; next }
      $3=="wrap" { if ($1 in compat) printf "#define TR_SYMVER_%s __asm__(\".symver %s,%s@@@%s\");\n", $1, $1, $1, $2;
                   else printf "#define TR_SYMVER_%s\n", $1 }' - <(echo "$body")
  echo "#define TR_SYMVER(name) TR_SYMVER_##name"
  echo ""
  echo "#endif"
} > "$OUT/tr_syms.h"

{
  echo "/* Generated from symbols.list by build/gen-tracer-syms.sh; do not edit."
  echo " * Each forwarded symbol jumps through its slot of tr_fwd_ptr (resolved with dlvsym at load):"
  echo " * the arguments stay in their registers, so no prototype is needed. */"
  echo "    .text"
  echo "$body" | awk 'NR==FNR { if ($3=="compat") compat[$1]=1; next }
      $3=="fwd" || $3=="compat" {
      i = idx++;
      tname = ($3 == "compat") ? sprintf("tr_compat_%d", i) : $1;
      printf "    .globl %s\n    .type %s,@function\n    .p2align 4\n%s:\n    jmp *tr_fwd_ptr+%d(%%rip)\n    .size %s,.-%s\n", tname, tname, tname, 8*i, tname, tname;
      if ($3 == "compat") printf "    .symver %s,%s@%s,remove\n", tname, $1, $2;
      else if ($1 in compat) printf "    .symver %s,%s@@@%s\n", tname, $1, $2;
  }' - <(echo "$body")
  echo "    .section .note.GNU-stack,\"\",@progbits"
} > "$OUT/tr_fwd.S"

{
  echo "/* Generated from symbols.list by build/gen-tracer-syms.sh; do not edit. */"
  prev=""
  for v in $(echo "$body" | awk '{print $2}' | sort -u -t. -k1,1 -k2,2n | grep -v PRIVATE) \
           $(echo "$body" | awk '{print $2}' | sort -u | grep PRIVATE); do
    echo "$v {"
    echo "    global:"
    echo "$body" | awk -v v="$v" '$2==v {printf "        %s;\n", $1}'
    if [ -z "$prev" ]; then echo "    local: *;"; fi
    case "$v" in
      *PRIVATE*) echo "};";;
      *) if [ -n "$prev" ]; then echo "} $prev;"; else echo "};"; fi; prev=$v;;
    esac
  done
} > "$OUT/libibverbs.map"
