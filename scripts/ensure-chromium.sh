#!/usr/bin/env bash
# Installs Debian's Chromium where it is missing (the browser tests of the HTML report use it
# headless); prints the path of the browser. Exits non-zero when it cannot be installed.
set -euo pipefail
for name in chromium chromium-browser; do
    if command -v "$name" >/dev/null 2>&1; then
        command -v "$name"
        exit 0
    fi
done
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "chromium is missing and cannot be installed here (apt-get as root is needed)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q chromium >&2
command -v chromium
