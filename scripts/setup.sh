#!/usr/bin/env bash
# Installs the Debian packages troupe needs and builds it into build/ (or the
# directory given as $TROUPE_BUILD_DIR). Extra CMake flags come from $TROUPE_CMAKE_FLAGS.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

PACKAGES=(
  cmake g++ ninja-build pkg-config
  libcaf-dev libboost1.81-dev rapidjson-dev libspdlog-dev libfmt-dev libyaml-cpp-dev
  catch2 libssl-dev libbenchmark-dev
  python3 python3-kubernetes python3-yaml openssl curl
)
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${PACKAGES[@]}" >/dev/null

# kubectl for the client tests: use the machine's, else Debian's kubernetes-client.
if ! command -v kubectl >/dev/null 2>&1; then
  $SUDO apt-get install -y -qq kubernetes-client >/dev/null || \
    echo "warning: no kubectl available; the kubectl client tests will fail" >&2
fi

BUILD_DIR="${TROUPE_BUILD_DIR:-build}"
# shellcheck disable=SC2086
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${TROUPE_CMAKE_FLAGS:-} >/dev/null
ninja -C "$BUILD_DIR" -j"${TROUPE_JOBS:-$(nproc)}"
