#!/usr/bin/env bash
# Installs what is needed, builds, and runs the demo on the embedded API server.
# Extra arguments go to `troupe demo` (e.g. --serve to keep it up for kubectl).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec "${TROUPE_BUILD_DIR:-build}/troupe" demo "$@"
