/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* IPv6 fixed header; RoCEv2 puts UDP directly after it (no extension headers). */
#ifndef XROCE_IPV6_H
#define XROCE_IPV6_H

#include <xroce/endian.h>

#define XR_IPV6_HLEN 40

struct xr_ipv6hdr {
	/* version (4) | traffic class (8) | flow label (20); all but the
	 * version are masked to ones in the ICRC */
	__be32 ver_tc_flow;
	__be16 payload_len;
	__u8 nexthdr;
	__u8 hop_limit;		/* masked to ones in the ICRC */
	__u8 saddr[16];
	__u8 daddr[16];
} __xr_packed;

static __xr_always_inline __u8 xr_ip6_version(const struct xr_ipv6hdr *ip6)
{
	return xr_be32_to_cpu(ip6->ver_tc_flow) >> 28;
}

static __xr_always_inline __u8 xr_ip6_tclass(const struct xr_ipv6hdr *ip6)
{
	return (xr_be32_to_cpu(ip6->ver_tc_flow) >> 20) & 0xff;
}

static __xr_always_inline __u32 xr_ip6_flow_label(const struct xr_ipv6hdr *ip6)
{
	return xr_be32_to_cpu(ip6->ver_tc_flow) & 0xfffff;
}

static __xr_always_inline __u16 xr_ip6_payload_len(const struct xr_ipv6hdr *ip6)
{
	return xr_be16_to_cpu(ip6->payload_len);
}

#endif /* XROCE_IPV6_H */
