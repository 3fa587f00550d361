/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* UDP header; RoCEv2 is UDP destination port 4791, checksum 0. */
#ifndef XROCE_UDP_H
#define XROCE_UDP_H

#include <xroce/endian.h>

#define XR_UDP_HLEN		8
#define XR_ROCE_UDP_PORT	4791
/*
 * rdma_rxe (and RoCE NICs) take the source port from 0xC000 plus a 14-bit
 * hash of the QPN, so ECMP/RSS spread QPs while one QP keeps one 5-tuple.
 */
#define XR_ROCE_SPORT_BASE	0xC000
#define XR_ROCE_SPORT_MASK	0x3FFF

struct xr_udphdr {
	__be16 source;
	__be16 dest;
	__be16 len;
	__be16 check;		/* masked to ones in the ICRC; sent as 0 */
} __xr_packed;

static __xr_always_inline __u16 xr_udp_sport(const struct xr_udphdr *u)
{
	return xr_be16_to_cpu(u->source);
}

static __xr_always_inline __u16 xr_udp_dport(const struct xr_udphdr *u)
{
	return xr_be16_to_cpu(u->dest);
}

static __xr_always_inline __u16 xr_udp_len(const struct xr_udphdr *u)
{
	return xr_be16_to_cpu(u->len);
}

#endif /* XROCE_UDP_H */
