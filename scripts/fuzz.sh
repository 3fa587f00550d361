#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Bounded libFuzzer runs (clang -fsanitize=fuzzer,address,undefined) of the
# pcap reader + parser + dump printer (fuzz_pcap) and of the raw-frame
# parser (fuzz_frame), seeded from the rxe fixtures. Not part of make check.
#   XROCE_FUZZ_SECONDS   seconds per target (default 60; the two share them)
#   XROCE_FUZZ_TARGETS   which targets (default "fuzz_pcap fuzz_frame")
# A crash is copied to selftests/fuzz/regressions/, where `make check`
# (test fuzz_regressions) replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${XROCE_FUZZ_SECONDS:-60}
targets=${XROCE_FUZZ_TARGETS:-"fuzz_pcap fuzz_frame"}
out=build/fuzz
mkdir -p "$out"
CLANG=${CLANG:-clang}
srcs="user/pcap.c user/pkt.c user/dump.c user/json.c user/crc32.c user/crc32_select.c selftests/fuzz_body.c -lisal"
ntargets=$(wc -w <<<"$targets")
per=$(( secs / ntargets )); [ "$per" -ge 1 ] || per=1
status=0
for t in $targets; do
	echo "== $t: building"
	$CLANG -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-D_GNU_SOURCE -Iinclude -Iuser -Ibuild/gen -Iselftests \
		-o "$out/$t" "selftests/fuzz/$t.c" $srcs
	corpus=fuzz-corpus/$t
	mkdir -p "$corpus"
	seeds=(selftests/fixtures/rxe selftests/fixtures/rxe-ipv6 selftests/fuzz/regressions)
	echo "== $t: ${per}s (corpus $corpus, seeds from ${seeds[*]})"
	log="$out/$t.log"
	if ! "$out/$t" -max_total_time="$per" -max_len=70000 -print_final_stats=1 \
		-artifact_prefix="$out/$t-" "$corpus" "${seeds[@]}" >"$log" 2>&1; then
		status=1
		echo "$t: CRASH, see $log"
		for a in "$out/$t"-crash-* "$out/$t"-leak-* "$out/$t"-timeout-*; do
			[ -e "$a" ] || continue
			kind=pcap; [ "$t" = fuzz_frame ] && kind=frame
			cp "$a" "selftests/fuzz/regressions/$kind-$(basename "$a")"
			echo "  saved as selftests/fuzz/regressions/$kind-$(basename "$a"): commit it and fix the bug"
		done
	fi
	grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" | sed "s/^/  $t /" || true
	grep -E '^#[0-9]+.*(DONE|cov:)' "$log" | tail -1 | sed "s/^/  $t /" || true
done
exit $status
