/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* IPv4 header as RoCEv2 uses it: no options, DF set, UDP inside. */
#ifndef XROCE_IPV4_H
#define XROCE_IPV4_H

#include <xroce/endian.h>

#define XR_IPV4_HLEN		20
#define XR_IPPROTO_UDP		17
#define XR_IPV4_DF		0x4000
#define XR_IPV4_MF		0x2000
#define XR_IPV4_FRAG_OFF_MASK	0x1fff

struct xr_iphdr {
	__u8 ver_ihl;		/* version (4 bits) | IHL in 32-bit words (4 bits) */
	__u8 tos;		/* DSCP (6) | ECN (2); masked to ones in the ICRC */
	__be16 tot_len;
	__be16 id;		/* covered by the ICRC: a retransmission differs */
	__be16 frag_off;	/* flags (3) | fragment offset (13) */
	__u8 ttl;		/* masked to ones in the ICRC */
	__u8 protocol;
	__be16 check;		/* masked to ones in the ICRC */
	__be32 saddr;
	__be32 daddr;
} __xr_packed;

static __xr_always_inline __u8 xr_ip_version(const struct xr_iphdr *ip)
{
	return ip->ver_ihl >> 4;
}

static __xr_always_inline __u32 xr_ip_hlen(const struct xr_iphdr *ip)
{
	return (ip->ver_ihl & 0x0f) * 4;
}

static __xr_always_inline __u16 xr_ip_tot_len(const struct xr_iphdr *ip)
{
	return xr_be16_to_cpu(ip->tot_len);
}

static __xr_always_inline int xr_ip_is_fragment(const struct xr_iphdr *ip)
{
	return (xr_be16_to_cpu(ip->frag_off) &
		(XR_IPV4_MF | XR_IPV4_FRAG_OFF_MASK)) != 0;
}

/*
 * RFC 1071 checksum over a 20-byte header, in host order. Over a header
 * whose check field is filled in, it is 0 when the header is intact.
 */
static __xr_always_inline __u16 xr_ip_checksum(const struct xr_iphdr *ip)
{
	const __u8 *p = (const __u8 *)ip;
	__u32 sum = 0;
	int i;

	for (i = 0; i < XR_IPV4_HLEN; i += 2)
		sum += ((__u32)p[i] << 8) | p[i + 1];
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)~sum;
}

#endif /* XROCE_IPV4_H */
