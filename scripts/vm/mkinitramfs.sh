#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Builds the interop VM's initramfs (build/vm/initramfs.cpio.gz) from the
# Debian packages scripts/install-deps.sh --vm installs: busybox, the
# Debian 6.1 kernel's rdma_rxe and virtio-net modules, rdma-core's tools
# (ibv_rc_pingpong, ibv_devinfo, rdma) with every library they load, and an
# /init that brings up eth0 and an rxe device on it, runs the command given
# on the kernel command line (xr.run=, '+' for spaces) and powers off.
# Prints the kernel image path to use with it.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${XROCE_BUILD:-$PWD/build}/vm
KVER=${XROCE_VM_KERNEL:-$(ls /lib/modules | grep -E '^6\.1\.' | sort -V | tail -n 1)}
[ -n "$KVER" ] && [ -f "/boot/vmlinuz-$KVER" ] || {
	echo "mkinitramfs: no Debian 6.1 kernel (apt-get install linux-image-amd64)" >&2
	exit 1
}
root=$OUT/root
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,etc/libibverbs.d,proc,sys,dev,tmp,run,lib/modules}

cp /bin/busybox "$root/bin/busybox"
for a in sh ash mount umount insmod ip sleep cat echo poweroff sed tr grep ls \
	 seq dmesg ping ifconfig hostname uname awk timeout; do
	ln -sf busybox "$root/bin/$a"
done

# Modules in dependency order.
declare -A seen=()
order=()
add_mod() {
	local m=$1 d
	[ -n "${seen[$m]:-}" ] && return
	seen[$m]=1
	for d in $(modinfo -k "$KVER" -F depends "$m" | tr ',' ' '); do
		add_mod "$d"
	done
	order+=("$m")
}
# rdma_rxe computes its ICRC with the crypto API's "crc32", a module here.
for m in virtio_pci virtio_net crc32_generic rdma_rxe ib_uverbs; do
	add_mod "$m"
done
: > "$root/modules.order"
for m in "${order[@]}"; do
	f=$(modinfo -k "$KVER" -n "$m")
	case "$f" in
	*.ko.xz) xz -dc "$f" > "$root/lib/modules/$m.ko" ;;
	*.ko.zst) zstd -qdc "$f" > "$root/lib/modules/$m.ko" ;;
	*.ko) cp "$f" "$root/lib/modules/$m.ko" ;;
	*) continue ;;	# built in
	esac
	echo "$m.ko" >> "$root/modules.order"
done

# Programs and every shared object they (and the rxe provider) load.
copy_with_libs() {
	local f=$1 l
	mkdir -p "$root$(dirname "$f")"
	cp -L "$f" "$root$f"
	for l in $(ldd "$f" 2>/dev/null | grep -o '/[^ ]*'); do
		[ -e "$root$l" ] && continue
		mkdir -p "$root$(dirname "$l")"
		cp -L "$l" "$root$l"
	done
}
for b in ibv_rc_pingpong ibv_devinfo ib_write_bw ib_read_bw rdma; do
	p=$(command -v "$b" || true)
	[ -n "$p" ] && copy_with_libs "$p"
done
for p in /usr/lib/x86_64-linux-gnu/libibverbs/librxe-*.so; do
	copy_with_libs "$p"
done
cp /etc/libibverbs.d/rxe.driver "$root/etc/libibverbs.d/"
echo "127.0.0.1 localhost" > "$root/etc/hosts"

cat > "$root/init" <<'INIT'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /modules.order); do insmod /lib/modules/$m 2>/dev/null; done
arg() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
ip link set lo up
ip link set eth0 mtu "$(arg xr.mtu)" 2>/dev/null
ip addr add "$(arg xr.ip)/24" dev eth0
ip link set eth0 up
rdma link add rxe0 type rxe netdev eth0
sleep 1
echo "XR-READY"
cmd=$(arg xr.run | tr '+' ' ')
echo "XR-RUN $cmd"
sh -c "$cmd"
echo "XR-RESULT rc=$?"
poweroff -f
INIT
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$OUT/initramfs.cpio.gz"
echo "/boot/vmlinuz-$KVER"
