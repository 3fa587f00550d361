#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Two-host xroce demo in network namespaces:
#   host A (xrd<pid>-a, 10.78.0.1) <== veth ==> host B (xrd<pid>-b, 10.78.0.2)
# attaches xroce on both ends, shows that ordinary traffic keeps flowing,
# runs RDMA ping-pongs between the hosts when xroce-pingpong is built,
# prints the XDP counters, decodes a real rdma_rxe capture, and removes
# everything again (also on Ctrl-C or failure).
set -euo pipefail
cd "$(dirname "$0")/.."
B=${XROCE_BUILD:-$PWD/build}
XR=$B/xroce
PP=$B/xroce-pingpong
[ -x "$XR" ] || { echo "demo: $XR is not built (run make)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "demo: needs root (network namespaces, XDP)" >&2; exit 1; }

P=xrd$$
NA=$P-a
NB=$P-b
A="nsenter --net=/run/netns/$NA"
Bh="nsenter --net=/run/netns/$NB"
pids=()

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	$A "$XR" detach xr0 >/dev/null 2>&1 || true
	$Bh "$XR" detach xr0 >/dev/null 2>&1 || true
	ip netns del "$NA" 2>/dev/null || true
	ip netns del "$NB" 2>/dev/null || true
	[ $rc -eq 0 ] && echo "== done: namespaces removed" || echo "== demo FAILED (exit $rc); namespaces removed" >&2
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step() { printf '\n== %s\n' "$*"; }

grep -qs ' /sys/fs/bpf bpf ' /proc/mounts || mount -t bpf bpf /sys/fs/bpf

step "two hosts: $NA (10.78.0.1) and $NB (10.78.0.2), veth xr0 <-> xr0"
ip netns add "$NA"
ip netns add "$NB"
ip link add "${P}a" netns "$NA" type veth peer name "${P}b" netns "$NB"
ip -n "$NA" link set "${P}a" name xr0
ip -n "$NB" link set "${P}b" name xr0
ip -n "$NA" addr add 10.78.0.1/24 dev xr0
ip -n "$NB" addr add 10.78.0.2/24 dev xr0
ip -n "$NA" link set xr0 up
ip -n "$NB" link set xr0 up
ip -n "$NA" link set lo up
ip -n "$NB" link set lo up

step "xroce attach xr0 on both hosts"
$A "$XR" attach xr0
$Bh "$XR" attach xr0
$A "$XR" status xr0 | head -3

step "ordinary traffic still flows: ping and TCP"
$A ping -c 3 -i 0.2 -W 2 10.78.0.2 | tail -2
$Bh sh -c 'nc -l -p 5001 > /dev/null' &
pids+=($!)
sleep 0.3
head -c 100000 /dev/urandom | $A nc -N -w 3 10.78.0.2 5001 && echo "100000 bytes sent over TCP"

if [ -x "$PP" ]; then
	step "RDMA: xroce-pingpong (SEND/RECV over RC), B serves, A connects"
	for size in 64 4096 65536; do
		$Bh "$PP" -d xr0 -g 1 -s "$size" -n 1000 -m 1024 > /tmp/$P.srv 2>&1 &
		srv=$!
		pids+=($srv)
		sleep 0.3
		if ! $A timeout 60 "$PP" -d xr0 -g 1 -s "$size" -n 1000 -m 1024 10.78.0.2; then
			cat /tmp/$P.srv >&2
			exit 1
		fi
		wait "$srv"
		rm -f /tmp/$P.srv
	done
fi

step "xroce status on host B: every frame counted under one reason"
$Bh "$XR" status xr0

step "xroce dump: a real rdma_rxe capture (ibv_rc_pingpong, 4 KiB, MTU 1024)"
"$XR" dump selftests/fixtures/rxe/rc_pingpong_s4096_mtu1024.pcap > "/tmp/$P.dump"
grep -v 'not RoCE' "/tmp/$P.dump" | sed -n '1,8p'
echo "   ..."
tail -n 1 "/tmp/$P.dump"
rm -f "/tmp/$P.dump"

step "bpftool sees the same counters, with field names"
bpftool map dump pinned "/sys/fs/bpf/xroce/xr0@$NB/xr_stats" > "/tmp/$P.maps"
grep -A3 '"pass_not_roce"' "/tmp/$P.maps" | sed -n '1,4p'
rm -f "/tmp/$P.maps"

step "xroce detach xr0 on both hosts"
$A "$XR" detach xr0
$Bh "$XR" detach xr0
