#!/bin/sh
# Prints the -I flag that makes <infiniband/verbs.h> visible to gcc.
# Order: the system's headers; headers already provisioned into $1; Debian's libibverbs-dev
# downloaded (no root needed) and unpacked into $1. Fails with one line naming the package.
set -e
dest="$1"
if [ -f /usr/include/infiniband/verbs.h ]; then
  exit 0
fi
if [ -f "$dest/usr/include/infiniband/verbs.h" ]; then
  echo "-I$dest/usr/include"
  exit 0
fi
if command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1; then
  tmp="$dest.download"
  mkdir -p "$tmp" "$dest"
  if (cd "$tmp" && apt-get download -qq libibverbs-dev >/dev/null 2>&1); then
    dpkg-deb -x "$tmp"/libibverbs-dev_*.deb "$dest"
    rm -rf "$tmp"
    if [ -f "$dest/usr/include/infiniband/verbs.h" ]; then
      echo "-I$dest/usr/include"
      exit 0
    fi
  fi
  rm -rf "$tmp"
fi
echo "rdmatrace build: libibverbs headers not found; install the package libibverbs-dev (apt-get install libibverbs-dev)" >&2
exit 1
