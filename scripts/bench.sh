#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Benchmarks (not part of make check); results go to stdout. docs/perf.md
# says what each measures and on which machine the recorded numbers ran.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${XROCE_BUILD:-$PWD/build}
echo "== CRC-32 implementations and the XDP validator"
"$B/selftests/bench_crc"
