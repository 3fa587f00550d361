/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Ethernet II header and the single 802.1Q tag xroce accepts. */
#ifndef XROCE_ETH_H
#define XROCE_ETH_H

#include <xroce/endian.h>

#define XR_ETH_ALEN	6
#define XR_ETH_HLEN	14
#define XR_VLAN_HLEN	4
#define XR_ETH_P_IP	0x0800
#define XR_ETH_P_IPV6	0x86DD
#define XR_ETH_P_8021Q	0x8100
#define XR_ETH_P_8021AD	0x88A8
#define XR_ETH_MIN_FRAME 60	/* without FCS: shorter frames are padded */

struct xr_ethhdr {
	__u8 dst[XR_ETH_ALEN];
	__u8 src[XR_ETH_ALEN];
	__be16 proto;
} __xr_packed;

/* The tag follows the source address; proto is the encapsulated EtherType. */
struct xr_vlanhdr {
	__be16 tci;
	__be16 proto;
} __xr_packed;

#define XR_VLAN_VID_MASK 0x0fff
#define XR_VLAN_PCP_SHIFT 13

static __xr_always_inline __u16 xr_eth_proto(const struct xr_ethhdr *eth)
{
	return xr_be16_to_cpu(eth->proto);
}

static __xr_always_inline __u16 xr_vlan_vid(const struct xr_vlanhdr *v)
{
	return xr_be16_to_cpu(v->tci) & XR_VLAN_VID_MASK;
}

static __xr_always_inline __u16 xr_vlan_proto(const struct xr_vlanhdr *v)
{
	return xr_be16_to_cpu(v->proto);
}

#endif /* XROCE_ETH_H */
