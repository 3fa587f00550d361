#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Tier 4: interop with the kernel's rdma_rxe. A qemu VM (Debian's 6.1
# kernel, -accel tcg, initramfs from scripts/vm/mkinitramfs.sh) runs
# rdma-core's ibv_rc_pingpong on an rxe device; the host runs
# xroce-pingpong on the tap interface the VM's virtio-net is wired to, in a
# network namespace of its own (MTU 9000). Both directions (rxe client / xroce server
# and the reverse), several sizes, path MTU 256 to 4096; both sides must exit 0.
# Prints PASS/FAIL/SKIP lines for selftests/run.sh.
set -u
cd "$(dirname "$0")/../.."
B=${XROCE_BUILD:-$PWD/build}
N=xrvm$$
NS="nsenter --net=/run/netns/$N"
LOG=$(mktemp -d /tmp/xrvm.XXXXXX)

skip_all() {
	for t in rxe_client_xroce_server rxe_server_xroce_client; do
		echo "SKIP interop_$t: $1"
	done
	exit 0
}
[ "$(id -u)" -eq 0 ] || skip_all "needs root (namespaces, XDP, tap)"
command -v qemu-system-x86_64 >/dev/null || skip_all "qemu-system-x86 not installed (scripts/install-deps.sh --vm)"
KERNEL=$(scripts/vm/mkinitramfs.sh 2>"$LOG/mk.err") || skip_all "no VM image: $(tail -n 1 "$LOG/mk.err")"
INITRD=$B/vm/initramfs.cpio.gz

cleanup() {
	$NS "$B/xroce" detach xrtap0 >/dev/null 2>&1
	ip netns del "$N" 2>/dev/null
	rm -rf "$LOG"
}
trap cleanup EXIT
grep -qs ' /sys/fs/bpf bpf ' /proc/mounts || mount -t bpf bpf /sys/fs/bpf
ip netns add "$N"
ip -n "$N" tuntap add dev xrtap0 mode tap
ip -n "$N" addr add 10.80.0.1/24 dev xrtap0
ip -n "$N" link set xrtap0 mtu 9000 up
ip -n "$N" link set lo up
$NS "$B/xroce" attach xrtap0 2>/dev/null || skip_all "xroce attach on a tap failed"

# vm LOGFILE COMMAND...: boots the VM, runs COMMAND there, waits for it.
vm() {
	local log=$1
	shift
	timeout 240 $NS qemu-system-x86_64 -accel tcg -m 768 -smp 1 -nographic \
		-no-reboot -kernel "$KERNEL" -initrd "$INITRD" \
		-append "console=ttyS0 quiet panic=-1 xr.ip=10.80.0.2 xr.mtu=9000 xr.run=$(echo "$*" | tr ' ' '+')" \
		-netdev tap,id=n0,ifname=xrtap0,script=no,downscript=no \
		-device virtio-net-pci,netdev=n0 > "$log" 2>&1
}

failed=0
check() {	# name, host rc, vm log, host log
	if [ "$2" -eq 0 ] && grep -q "XR-RESULT rc=0" "$3" &&
	   grep -q " iters in " "$3" && grep -q " iters in " "$4"; then
		echo "    $(grep ' iters in ' "$4")   [xroce]"
		echo "    $(grep ' iters in ' "$3" | tr -d '\r')   [rdma_rxe]"
		return 0
	fi
	echo "    $1: xroce exit $2; VM says: $(grep -a 'XR-RESULT\|Failed\|Couldn' "$3" | tr -d '\r' | head -n 3 | tr '\n' ' ')"
	sed 's/^/      xroce: /' "$4" | tail -n 5
	return 1
}

# rdma_rxe is the client, xroce the server.
ok=1
for c in "64 1024" "4096 1024" "20000 1024" "3000 256" "8192 2048" "20000 4096"; do
	set -- $c
	$NS timeout 200 "$B/xroce-pingpong" -d xrtap0 -g 1 -s "$1" -m "$2" -n 50 \
		> "$LOG/host.log" 2>&1 &
	hp=$!
	vm "$LOG/vm.log" ibv_rc_pingpong -d rxe0 -g 1 -s "$1" -m "$2" -n 50 10.80.0.1
	wait $hp
	check "size $1 mtu $2" $? "$LOG/vm.log" "$LOG/host.log" || ok=0
done
if [ $ok = 1 ]; then echo "PASS interop_rxe_client_xroce_server"; else
	echo "FAIL interop_rxe_client_xroce_server"; failed=1; fi

# rdma_rxe is the server, xroce the client (with -e: sleeping on events).
ok=1
for c in "64 1024" "20000 1024" "4096 512" "9000 4096"; do
	set -- $c
	vm "$LOG/vm.log" ibv_rc_pingpong -d rxe0 -g 1 -s "$1" -m "$2" -n 50 &
	vp=$!
	for i in $(seq 600); do
		grep -q "local address" "$LOG/vm.log" 2>/dev/null && break
		sleep 0.1
	done
	rc=1
	for i in $(seq 20); do
		$NS timeout 120 "$B/xroce-pingpong" -d xrtap0 -g 1 -e -s "$1" -m "$2" -n 50 \
			10.80.0.2 > "$LOG/host.log" 2>&1 && { rc=0; break; }
		grep -q "Couldn't connect" "$LOG/host.log" || break
		sleep 0.5
	done
	wait $vp
	check "size $1 mtu $2" $rc "$LOG/vm.log" "$LOG/host.log" || ok=0
done
if [ $ok = 1 ]; then echo "PASS interop_rxe_server_xroce_client"; else
	echo "FAIL interop_rxe_server_xroce_client"; failed=1; fi
exit $failed
