#!/usr/bin/env bash
# Installs what is needed, builds, and runs every test (unit suites and the
# end-to-end tests that start real troupe processes and real clients).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
BUILD_DIR="${TROUPE_BUILD_DIR:-build}"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j"${TROUPE_JOBS:-$(nproc)}" "$@"
