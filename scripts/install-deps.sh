#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Installs the Debian 12 packages xroce builds and tests with, when they are
# missing and we are root. Without root it lists what is missing and fails.
#   scripts/install-deps.sh [--bench] [--vm]
set -eu

pkgs=(make gcc clang llvm pkg-config libbpf-dev libxdp-dev xdp-tools bpftool
      libmnl-dev libelf-dev zlib1g-dev libisal-dev libclang-rt-14-dev
      iproute2 iputils-ping ethtool netcat-openbsd tcpdump procps man-db)
for arg in "$@"; do
	case "$arg" in
	--bench) pkgs+=(sockperf iperf3 linux-perf valgrind) ;;
	--vm) pkgs+=(qemu-system-x86 linux-image-amd64 busybox-static cpio
		      rdma-core ibverbs-utils perftest rdmacm-utils) ;;
	*) echo "install-deps: unknown option $arg" >&2; exit 2 ;;
	esac
done

missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$st" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing Debian packages: ${missing[*]}" >&2
	echo "install-deps: run 'make check' as root, or: sudo apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
