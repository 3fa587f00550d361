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
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>

#define XR_NS_NAMELEN 32

struct xr_relay;

struct xr_hosts {
	char ns[3][XR_NS_NAMELEN];	/* [2]: the relay, when there is one */
	struct xr_relay *relay;
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

/*
 * Like xr_hosts_create(), but the veth pair runs through a third namespace
 * (xrt<pid>-m) whose thread forwards every frame between its two veths
 * with AF_PACKET sockets, so a test can drop, duplicate or corrupt chosen
 * RoCE frames in flight (see struct xr_relay_rules).
 */
int xr_hosts_create_relay(struct xr_hosts *h, int mtu);

/*
 * Two hosts in different subnets with a router namespace (xrt<pid>-r,
 * kernel forwarding) between them: host 0 10.77.1.1/24 and fd77:1::1/64,
 * host 1 10.77.2.1/24 and fd77:2::1/64, default routes via the router. Every
 * frame crosses an IP hop (TTL/hop limit decremented, IPv4 checksum redone).
 */
int xr_hosts_create_routed(struct xr_hosts *h, int mtu);

/*
 * Faults by ordinal (1-based) of the RoCE frames (UDP port 4791) seen in
 * each direction: [0] host 0 -> host 1, [1] host 1 -> host 0. Zeros end a
 * list. Changes take effect for frames seen afterwards.
 */
#define XR_RELAY_MAX_RULES 16
struct xr_relay_rules {
	unsigned drop[2][XR_RELAY_MAX_RULES];
	unsigned dup[2][XR_RELAY_MAX_RULES];
	unsigned corrupt[2][XR_RELAY_MAX_RULES];
	bool drop_all[2];
	FILE *pcap;		/* if set: every RoCE frame forwarded, as pcap */
};

struct xr_relay_counts {
	unsigned seen[2], dropped[2], duplicated[2], corrupted[2], forwarded[2];
};

/* Replaces the rules and zeroes the frame ordinals and counters. */
void xr_relay_set(struct xr_hosts *h, const struct xr_relay_rules *r);
void xr_relay_counts(struct xr_hosts *h, struct xr_relay_counts *c);

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
