#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Runs every test tier that exists and prints one closing line
#   N passed, N failed, N skipped
# Tiers: 1 unit and 2 BPF (build/selftests/test_progs), 3 network namespaces
# (in test_progs), 4 the rdma_rxe VM (selftests/net/test_*.sh); and the
# docs checks (selftests/docs/test_*.sh). Each test prints "PASS name", "FAIL name" or
# "SKIP name: reason"; this script counts those lines.
#
#   selftests/run.sh [-t FILTER]     FILTER selects tests by substring
set -u
cd "$(dirname "$0")/.."
export XROCE_SRC=$PWD
export XROCE_BUILD=${XROCE_BUILD:-$PWD/build}
filter=""
[ "${1:-}" = "-t" ] && filter=${2:-}

log=$(mktemp /tmp/xroce-tests.XXXXXX)
trap 'rm -f "$log"' EXIT

run_tier() {
	echo "== $1"
	shift
	"$@" 2>&1 | tee -a "$log"
}

if [ -x "$XROCE_BUILD/selftests/test_progs" ]; then
	if [ -n "$filter" ]; then
		run_tier "unit + bpf + C netns tests" "$XROCE_BUILD/selftests/test_progs" -t "$filter"
	else
		run_tier "unit + bpf + C netns tests" "$XROCE_BUILD/selftests/test_progs"
	fi
else
	echo "FAIL test_progs: $XROCE_BUILD/selftests/test_progs not built" | tee -a "$log"
fi

for t in selftests/docs/test_*.sh selftests/net/test_*.sh; do
	[ -e "$t" ] || continue
	name=$(basename "$t" .sh)
	if [ -n "$filter" ] && [[ "$name" != *"$filter"* ]]; then
		continue
	fi
	run_tier "$name" bash "$t"
done

passed=$(grep -c '^PASS ' "$log")
failed=$(grep -c '^FAIL ' "$log")
skipped=$(grep -c '^SKIP ' "$log")
echo
if [ "$failed" -gt 0 ]; then
	echo "failed tests:"
	grep '^FAIL ' "$log" | sed 's/^/  /'
fi
if [ "$skipped" -gt 0 ]; then
	echo "skipped tests:"
	grep '^SKIP ' "$log" | sed 's/^/  /'
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
