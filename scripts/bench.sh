#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Benchmarks (not part of make check). docs/perf.md says what each measures
# and records the numbers of a run with the machine it ran on.
#   XROCE_BENCH_ITERS   ping-pong round trips per size (default 20000)
# Sections: CRC-32 implementations; ping-pong latency against a busy-polling
# kernel UDP ping-pong; RC WRITE/SEND bandwidth against kernel TCP (iperf3).
set -euo pipefail
cd "$(dirname "$0")/.."
B=${XROCE_BUILD:-$PWD/build}
ITERS=${XROCE_BENCH_ITERS:-20000}
[ "$(id -u)" -eq 0 ] || { echo "bench: needs root" >&2; exit 1; }

echo "== CRC-32 implementations and the XDP validator"
"$B/selftests/bench_crc"

P=xrb$$
A="nsenter --net=/run/netns/$P-a"
Bh="nsenter --net=/run/netns/$P-b"
cleanup() {
	$A "$B/xroce" detach xr0 >/dev/null 2>&1 || true
	$Bh "$B/xroce" detach xr0 >/dev/null 2>&1 || true
	ip netns del "$P-a" 2>/dev/null || true
	ip netns del "$P-b" 2>/dev/null || true
}
trap cleanup EXIT
grep -qs ' /sys/fs/bpf bpf ' /proc/mounts || mount -t bpf bpf /sys/fs/bpf
ip netns add "$P-a"
ip netns add "$P-b"
ip -n "$P-a" link add xr0 mtu 9000 type veth peer name xr0 netns "$P-b" mtu 9000
ip -n "$P-a" addr add 10.79.0.1/24 dev xr0
ip -n "$P-b" addr add 10.79.0.2/24 dev xr0
ip -n "$P-a" link set xr0 up
ip -n "$P-b" link set xr0 up
$A "$B/xroce" attach xr0 2>/dev/null
$Bh "$B/xroce" attach xr0 2>/dev/null

echo
echo "== ping-pong latency on one veth pair, $ITERS round trips (usec/iter = one round trip)"
printf '%-8s %14s %14s %14s %8s\n' size xroce-poll xroce-events udp-busypoll ratio
for size in 64 4096; do
	$Bh "$B/xroce-pingpong" -d xr0 -g 1 -s $size -n $ITERS > /dev/null &
	sleep 0.3
	x=$($A "$B/xroce-pingpong" -d xr0 -g 1 -s $size -n $ITERS 10.79.0.2 | sed -n 's/.* = \(.*\) usec\/iter/\1/p')
	wait
	$Bh "$B/xroce-pingpong" -d xr0 -g 1 -e -s $size -n $ITERS > /dev/null &
	sleep 0.3
	xe=$($A "$B/xroce-pingpong" -d xr0 -g 1 -e -s $size -n $ITERS 10.79.0.2 | sed -n 's/.* = \(.*\) usec\/iter/\1/p')
	wait
	$Bh "$B/selftests/udp_pingpong" -s $size -n $ITERS &
	sleep 0.3
	u=$($A "$B/selftests/udp_pingpong" -s $size -n $ITERS 10.79.0.2 | sed -n 's/.* = \(.*\) usec\/iter/\1/p')
	wait
	printf '%-8s %14s %14s %14s %8s\n' "$size" "$x" "$xe" "$u" \
		"$(awk -v a="$x" -v b="$u" 'BEGIN { printf "%.2f", a / b }')"
done
echo "(ratio = xroce-poll / udp-busypoll; below 1 means xroce is faster)"

echo
echo "== bandwidth on the same veth pair (MTU 9000), 3 s each"
for m in 1024 4096; do
	for op in write send; do
		printf 'xroce %-5s 64 KiB messages, path MTU %-4s: ' "$op" "$m"
		"$B/selftests/rc_bw" "$P-a" "$P-b" xr0 10.79.0.1 10.79.0.2 "$op" 65536 "$m" |
			sed 's/.* = //'
	done
done
$Bh iperf3 -s -1 > /dev/null 2>&1 &
sleep 0.3
printf 'kernel TCP (iperf3, 1 stream):           %s\n' \
	"$($A iperf3 -c 10.79.0.2 -t 3 -f g | sed -n 's/.* \([0-9.]* Gbits\/sec\).*receiver/\1/p')"
wait
