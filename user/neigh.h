/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The peer's MAC address from the kernel's neighbour table (rtnetlink over
 * libmnl), and the interface's own MAC, MTU and addresses.
 */
#ifndef XROCE_USER_NEIGH_H
#define XROCE_USER_NEIGH_H

#include <stdint.h>

struct mnl_socket;

/*
 * Sockets opened once, in the device's network namespace, so lookups work
 * from any thread whatever namespace it is in.
 */
struct xr_neigh {
	struct mnl_socket *nl;
	int udp4, udp6;
	unsigned int seq;
};

int xr_neigh_open(struct xr_neigh *n);
void xr_neigh_close(struct xr_neigh *n);

/*
 * The kernel's route to @dst: the output interface and the next hop (the
 * gateway, or @dst itself when it is on link). 0 or -ENETUNREACH/-errno.
 */
int xr_route_nexthop(struct xr_neigh *n, int family, const uint8_t *dst, int *oif,
		     uint8_t nexthop[16]);

/*
 * Looks up @ip (4 or 16 bytes by @family) on @ifindex; when there is no
 * reachable entry, makes the kernel resolve it (a UDP datagram to the
 * discard port of @probe_dst, routed through @ip, sends the ARP request or
 * neighbour solicitation) and waits up to @timeout_ms. 0, -EHOSTUNREACH
 * (no answer) or -errno.
 */
int xr_neigh_resolve(struct xr_neigh *n, int ifindex, int family, const uint8_t *ip,
		     const uint8_t *probe_dst, uint8_t mac[6], int timeout_ms);

/* The interface's MAC address and MTU; 0 or -errno. */
int xr_link_info(int ifindex, uint8_t mac[6], uint32_t *mtu);

#endif
