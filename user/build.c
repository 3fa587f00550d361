// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <string.h>

#include <xroce/eth.h>
#include <xroce/icrc.h>

#include "build.h"
#include "crc32.h"
#include "pkt.h"

static uint32_t l3_len(const struct xr_frame_addr *a)
{
	return a->ip_version == 6 ? XR_IPV6_HLEN : XR_IPV4_HLEN;
}

static uint32_t l2_len(const struct xr_frame_addr *a)
{
	return XR_ETH_HLEN + (a->vlan_tci ? XR_VLAN_HLEN : 0);
}

uint32_t xr_frame_len(const struct xr_frame_addr *a, uint8_t opcode,
		      uint32_t paylen)
{
	return l2_len(a) + l3_len(a) + XR_UDP_HLEN +
	       xr_opcode_table[opcode].length + ((paylen + 3) & ~3u) +
	       XR_ICRC_LEN;
}

static void write_l2(uint8_t *buf, const struct xr_frame_addr *a, uint16_t proto)
{
	struct xr_ethhdr *eth = (struct xr_ethhdr *)buf;

	memcpy(eth->dst, a->dst_mac, XR_ETH_ALEN);
	memcpy(eth->src, a->src_mac, XR_ETH_ALEN);
	if (a->vlan_tci) {
		struct xr_vlanhdr *v = (struct xr_vlanhdr *)(buf + XR_ETH_HLEN);

		eth->proto = xr_cpu_to_be16(XR_ETH_P_8021Q);
		v->tci = xr_cpu_to_be16(a->vlan_tci);
		v->proto = xr_cpu_to_be16(proto);
	} else {
		eth->proto = xr_cpu_to_be16(proto);
	}
}

static void write_ipv4(uint8_t *p, const struct xr_frame_addr *a,
		       uint16_t ip_id, uint32_t tot)
{
	struct xr_iphdr *ip = (struct xr_iphdr *)p;
	uint16_t sum;

	ip->ver_ihl = 0x45;
	ip->tos = a->tclass;
	ip->tot_len = xr_cpu_to_be16(tot);
	ip->id = xr_cpu_to_be16(ip_id);
	ip->frag_off = xr_cpu_to_be16(XR_IPV4_DF);
	ip->ttl = a->hop_limit ? a->hop_limit : 64;
	ip->protocol = XR_IPPROTO_UDP;
	ip->check = 0;
	memcpy(&ip->saddr, a->src_ip, 4);
	memcpy(&ip->daddr, a->dst_ip, 4);
	sum = xr_ip_checksum(ip);
	ip->check = xr_cpu_to_be16(sum);
}

static void write_ipv6(uint8_t *p, const struct xr_frame_addr *a, uint32_t plen)
{
	struct xr_ipv6hdr *ip6 = (struct xr_ipv6hdr *)p;

	ip6->ver_tc_flow = xr_cpu_to_be32(6u << 28 | (uint32_t)a->tclass << 20 |
					  (a->flow_label & 0xfffff));
	ip6->payload_len = xr_cpu_to_be16(plen);
	ip6->nexthdr = XR_IPPROTO_UDP;
	ip6->hop_limit = a->hop_limit ? a->hop_limit : 64;
	memcpy(ip6->saddr, a->src_ip, 16);
	memcpy(ip6->daddr, a->dst_ip, 16);
}

/* Extension headers in table order; returns bytes written after the BTH. */
static void write_ext(uint8_t *bth, const struct xr_opcode_info *info,
		      const struct xr_frame_hdrs *h)
{
	uint32_t m = info->mask;

	if (m & XR_M_DETH) {
		struct xr_deth *d = (void *)(bth + info->off_deth);

		d->qkey = xr_cpu_to_be32(h->deth.qkey);
		d->sqp = xr_cpu_to_be32(h->deth.sqp & XR_DETH_SQP_MASK);
	}
	if (m & XR_M_RETH)
		xr_reth_init((void *)(bth + info->off_reth), h->reth.va,
			     h->reth.rkey, h->reth.len);
	if (m & XR_M_ATMETH)
		xr_atmeth_init((void *)(bth + info->off_atmeth), h->atmeth.va,
			       h->atmeth.rkey, h->atmeth.swap_add,
			       h->atmeth.compare);
	if (m & XR_M_AETH)
		xr_aeth_init((void *)(bth + info->off_aeth), h->aeth.syndrome,
			     h->aeth.msn);
	if (m & XR_M_ATMACK)
		xr_atmack_init((void *)(bth + info->off_atmack), h->atmack_orig);
	if (m & XR_M_IMMDT)
		((struct xr_immdt *)(bth + info->off_immdt))->imm = h->imm_be;
	if (m & XR_M_IETH)
		((struct xr_ieth *)(bth + info->off_ieth))->rkey =
			xr_cpu_to_be32(h->ieth_rkey);
	if (m & XR_M_CNPRSV)
		memset(bth + XR_OFF_CNPRSV(m), 0, XR_CNP_RSV_LEN);
}

uint32_t xr_frame_hdr(uint8_t *buf, const struct xr_frame_addr *a,
		      const struct xr_frame_hdrs *h, uint32_t paylen,
		      struct xr_frame_layout *lo)
{
	const struct xr_opcode_info *info = &xr_opcode_table[h->opcode];
	uint32_t l3 = l2_len(a), pad = (4 - (paylen & 3)) & 3;
	uint32_t udp_len = XR_UDP_HLEN + info->length + paylen + pad + XR_ICRC_LEN;
	struct xr_udphdr *udp;
	uint8_t *bth;
	uint8_t ps[XR_ICRC_PSHDR_MAX];
	uint32_t pslen, reg;

	write_l2(buf, a, a->ip_version == 6 ? XR_ETH_P_IPV6 : XR_ETH_P_IP);
	if (a->ip_version == 6)
		write_ipv6(buf + l3, a, udp_len);
	else
		write_ipv4(buf + l3, a, h->ip_id, XR_IPV4_HLEN + udp_len);
	udp = (struct xr_udphdr *)(buf + l3 + l3_len(a));
	udp->source = xr_cpu_to_be16(a->sport);
	udp->dest = xr_cpu_to_be16(XR_ROCE_UDP_PORT);
	udp->len = xr_cpu_to_be16(udp_len);
	udp->check = 0;
	bth = (uint8_t *)(udp + 1);
	xr_bth_init((struct xr_bth *)bth, h->opcode, h->se, pad, h->pkey,
		    h->dqpn, h->ackreq, h->psn);
	write_ext(bth, info, h);

	lo->l3_off = l3;
	lo->hdr_len = (uint32_t)(bth - buf) + info->length;
	lo->pad = pad;
	lo->icrc_off = lo->hdr_len + paylen + pad;
	lo->len = lo->icrc_off + XR_ICRC_LEN;

	pslen = a->ip_version == 6 ? XR_ICRC_PSHDR_V6_LEN : XR_ICRC_PSHDR_V4_LEN;
	memcpy(ps, buf + l3, pslen);
	if (a->ip_version == 6)
		xr_icrc_mask_v6(ps);
	else
		xr_icrc_mask_v4(ps);
	reg = xr_crc32_update(XR_ICRC_SEED, ps, pslen);
	return xr_crc32_update(reg, bth + XR_BTH_LEN, info->length - XR_BTH_LEN);
}

uint32_t xr_icrc_update(uint32_t reg, const void *buf, size_t len)
{
	return xr_crc32_update(reg, buf, len);
}

void xr_icrc_final(uint32_t reg, uint8_t out[4])
{
	uint32_t v = ~reg;

	out[0] = (uint8_t)v;
	out[1] = (uint8_t)(v >> 8);
	out[2] = (uint8_t)(v >> 16);
	out[3] = (uint8_t)(v >> 24);
}

uint32_t xr_frame_build(uint8_t *buf, size_t cap, const struct xr_frame_addr *a,
			const struct xr_frame_hdrs *h, const void *payload,
			uint32_t paylen)
{
	struct xr_frame_layout lo;
	uint32_t reg;

	if (xr_frame_len(a, h->opcode, paylen) > cap)
		return 0;
	reg = xr_frame_hdr(buf, a, h, paylen, &lo);
	if (paylen)
		memcpy(buf + lo.hdr_len, payload, paylen);
	memset(buf + lo.hdr_len + paylen, 0, lo.pad);
	reg = xr_icrc_update(reg, buf + lo.hdr_len, paylen + lo.pad);
	xr_icrc_final(reg, buf + lo.icrc_off);
	return lo.len;
}
