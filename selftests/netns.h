/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Two "hosts" for C tests: network namespaces xrt<pid>-a and xrt<pid>-b
 * joined by a veth pair (interface "xr0" in each), with IPv4 10.77.0.1/24
 * and .2, IPv6 fd77::1/64 and ::2 (no DAD), both ends up.
 *
 * The test process keeps its mount namespace (so bpffs pins stay visible)
 * and moves between network namespaces with setns(): sockets, netlink
 * queries and AF_XDP binds happen in the namespace current at creation.
 * test_progs deletes every xrt<pid>-* namespace after the test, also
 * when it crashed.
 */
#ifndef XROCE_TEST_NETNS_H
#define XROCE_TEST_NETNS_H

#include <stddef.h>
#include <stdint.h>

#define XR_NS_NAMELEN 32

struct xr_hosts {
	char ns[2][XR_NS_NAMELEN];
	char ifname[16];		/* the same name in both namespaces */
	int ifindex[2];
	uint8_t mac[2][6];
	char ip4[2][16];
	char ip6[2][48];
	int mtu;
};

/* 0 or -1 (with a test__log line). mtu 0 keeps 1500. */
int xr_hosts_create(struct xr_hosts *h, int mtu);
void xr_hosts_destroy(struct xr_hosts *h);

/* Moves the calling thread into host 0 or 1; -1 restores the original. */
int xr_hosts_enter(const struct xr_hosts *h, int host);

/* Runs a shell command inside host 0 or 1 (nsenter, same mount namespace). */
int xr_hosts_sys(const struct xr_hosts *h, int host, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Like xr_hosts_sys() but captures stdout and stderr (merged, truncated to
 * len - 1 bytes, NUL-terminated); returns the exit status.
 */
int xr_hosts_capture(const struct xr_hosts *h, int host, char *out, size_t len,
		     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Sends raw Ethernet frames out of host's xr0 (AF_PACKET); 0 or -errno. */
int xr_hosts_send_frame(const struct xr_hosts *h, int host, const void *frame,
			size_t len);

/* Mounts bpffs on /sys/fs/bpf if nothing is mounted there. */
int xr_ensure_bpffs(void);

#endif
