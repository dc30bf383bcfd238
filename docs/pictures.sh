#!/usr/bin/env bash
# Shoots the README's pictures (docs/*.png) again: renders each timeline from the trace it shows
# (a committed sample, or a synthetic trace from a fixed seed; the list is DocsPicturesTest.PICTURES),
# takes a screenshot with headless chromium and records both hashes in docs/pictures.sha256.
# The analyzer's DocsPicturesTest fails when a picture no longer shows the timeline as it is drawn
# today; this script is what it asks you to run. Needs chromium (apt-get install chromium).
# Usage: docs/pictures.sh   (then review and commit docs/)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v chromium >/dev/null || command -v chromium-browser >/dev/null || command -v google-chrome >/dev/null || {
    echo "docs/pictures.sh: needs chromium on PATH (sudo apt-get install chromium)" >&2
    exit 2
}
mvn -B -q -pl analyzer -am verify -Dtest=DocsPicturesTest -Dsurefire.failIfNoSpecifiedTests=false \
    -Drdmatrace.docs.regenerate=true
git status --short docs/
