// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Frame classification. The order of the checks is the contract with the
 * XDP validator (bpf/xroce_parse.h): both report the first rule a frame
 * breaks, so their reasons can be compared packet by packet. The rules and
 * their order are listed in docs/wire.md.
 */
#include <string.h>

#include <xroce/icrc.h>

#include "crc32.h"
#include "pkt.h"

XR_DEFINE_OPCODE_TABLE(xr_opcode_table);

static const char *const opcode_names[256] = {
#define XR__OPCODE_NAME(name, val, mask) [val] = #name,
	XR_OPCODES(XR__OPCODE_NAME)
#undef XR__OPCODE_NAME
};

static const struct {
	const char *name;
	const char *desc;
	enum xr_stat_kind kind;
} stat_info[XR_STAT_MAX] = {
#define XR__STAT_INFO(sfx, n, k, d) [XR_STAT_##sfx] = { #n, d, k },
	XR_STATS(XR__STAT_INFO)
#undef XR__STAT_INFO
};

const char *xr_opcode_name(uint8_t opcode)
{
	return opcode_names[opcode] ? opcode_names[opcode] : "";
}

const char *xr_stat_name(enum xr_stat s)
{
	return (unsigned)s < XR_STAT_MAX ? stat_info[s].name : "?";
}

const char *xr_stat_desc(enum xr_stat s)
{
	return (unsigned)s < XR_STAT_MAX ? stat_info[s].desc : "?";
}

enum xr_stat_kind xr_stat_kind_of(enum xr_stat s)
{
	return (unsigned)s < XR_STAT_MAX ? stat_info[s].kind : XR_KIND_DROP;
}

static const enum xr_stat len_reason[] = {
	[XR_LEN_NO_PAYLOAD_ALLOWED] = XR_STAT_LEN_PAYLOAD,
	[XR_LEN_PAD] = XR_STAT_LEN_PAD,
	[XR_LEN_NOT_PMTU] = XR_STAT_LEN_NOT_PMTU,
	[XR_LEN_TOO_LONG] = XR_STAT_LEN_TOO_LONG,
	[XR_LEN_UNALIGNED] = XR_STAT_LEN_UNALIGNED,
};

uint32_t xr_icrc_calc(const uint8_t *frame, uint8_t ip_version,
		      uint32_t l3_off, uint32_t icrc_off)
{
	uint8_t ps[XR_ICRC_PSHDR_MAX];
	uint32_t pslen, reg;

	if (ip_version == 4) {
		pslen = XR_ICRC_PSHDR_V4_LEN;
		memcpy(ps, frame + l3_off, pslen);
		xr_icrc_mask_v4(ps);
	} else {
		pslen = XR_ICRC_PSHDR_V6_LEN;
		memcpy(ps, frame + l3_off, pslen);
		xr_icrc_mask_v6(ps);
	}
	reg = xr_crc32_update(XR_ICRC_SEED, ps, pslen);
	reg = xr_crc32_update(reg, frame + l3_off + pslen,
			      icrc_off - (l3_off + pslen));
	return ~reg;
}

static enum xr_pkt_class verdict(struct xr_pkt_info *pi, enum xr_stat reason)
{
	pi->reason = reason;
	switch (xr_stat_kind_of(reason)) {
	case XR_KIND_PASS:
		pi->cls = XR_PKT_NOT_ROCE;
		break;
	case XR_KIND_OK:
		pi->cls = XR_PKT_ROCE;
		break;
	default:
		pi->cls = XR_PKT_MALFORMED;
		break;
	}
	return pi->cls;
}

/* IPv4: returns 0 and sets l4/end offsets, or the verdict reason. */
static enum xr_stat parse_ipv4(struct xr_pkt_info *pi)
{
	const struct xr_iphdr *ip = (const void *)(pi->frame + pi->l3_off);
	uint32_t avail = pi->frame_len - pi->l3_off;
	const struct xr_udphdr *udp;
	uint32_t hlen, tot;

	if (avail < XR_IPV4_HLEN)
		return XR_STAT_IP_TRUNC;
	if (xr_ip_version(ip) != 4)
		return XR_STAT_IP_BAD_VERSION;
	if (ip->protocol != XR_IPPROTO_UDP)
		return XR_STAT_PASS_NOT_ROCE;
	hlen = xr_ip_hlen(ip);
	if (hlen < XR_IPV4_HLEN)
		return XR_STAT_IP_BAD_HLEN;
	/* A later fragment has no UDP header: the kernel reassembles it. */
	if (xr_be16_to_cpu(ip->frag_off) & XR_IPV4_FRAG_OFF_MASK)
		return XR_STAT_PASS_NOT_ROCE;
	if (avail < hlen + XR_UDP_HLEN)
		return XR_STAT_UDP_TRUNC;
	udp = (const void *)((const uint8_t *)ip + hlen);
	if (xr_udp_dport(udp) != XR_ROCE_UDP_PORT)
		return XR_STAT_PASS_NOT_ROCE;

	/* From here on the frame is addressed to RoCEv2. */
	if (hlen != XR_IPV4_HLEN)
		return XR_STAT_IP_BAD_HLEN;
	if (xr_ip_is_fragment(ip))
		return XR_STAT_IP_FRAGMENT;
	tot = xr_ip_tot_len(ip);
	if (tot < XR_IPV4_HLEN + XR_UDP_HLEN || tot > avail)
		return XR_STAT_IP_BAD_LEN;
	if (xr_ip_checksum(ip) != 0)
		return XR_STAT_IP_BAD_CSUM;
	pi->l4_off = pi->l3_off + XR_IPV4_HLEN;
	pi->end_off = pi->l3_off + tot;
	return XR_STAT_ROCE_VALID;
}

static enum xr_stat parse_ipv6(struct xr_pkt_info *pi)
{
	const struct xr_ipv6hdr *ip6 = (const void *)(pi->frame + pi->l3_off);
	uint32_t avail = pi->frame_len - pi->l3_off;
	const struct xr_udphdr *udp;
	uint32_t plen;

	if (avail < XR_IPV6_HLEN)
		return XR_STAT_IP_TRUNC;
	if (xr_ip6_version(ip6) != 6)
		return XR_STAT_IP_BAD_VERSION;
	if (ip6->nexthdr != XR_IPPROTO_UDP)
		return XR_STAT_PASS_NOT_ROCE;
	if (avail < XR_IPV6_HLEN + XR_UDP_HLEN)
		return XR_STAT_UDP_TRUNC;
	udp = (const void *)((const uint8_t *)ip6 + XR_IPV6_HLEN);
	if (xr_udp_dport(udp) != XR_ROCE_UDP_PORT)
		return XR_STAT_PASS_NOT_ROCE;
	plen = xr_ip6_payload_len(ip6);
	if (plen < XR_UDP_HLEN || plen > avail - XR_IPV6_HLEN)
		return XR_STAT_IP_BAD_LEN;
	pi->l4_off = pi->l3_off + XR_IPV6_HLEN;
	pi->end_off = pi->l4_off + plen;
	return XR_STAT_ROCE_VALID;
}

static enum xr_stat parse_transport(struct xr_pkt_info *pi, unsigned flags)
{
	const struct xr_udphdr *udp = (const void *)(pi->frame + pi->l4_off);
	const struct xr_opcode_info *info;
	const struct xr_bth *bth;
	enum xr_len_verdict lv;
	uint32_t ulen, body;

	ulen = xr_udp_len(udp);
	if (ulen != pi->end_off - pi->l4_off)
		return XR_STAT_UDP_BAD_LEN;
	pi->bth_off = pi->l4_off + XR_UDP_HLEN;
	if (ulen < XR_UDP_HLEN + XR_BTH_LEN + XR_ICRC_LEN)
		return XR_STAT_BTH_TRUNC;

	bth = xr_pkt_bth(pi);
	pi->opcode = xr_bth_opcode(bth);
	pi->pad = xr_bth_pad(bth);
	pi->icrc_off = pi->end_off - XR_ICRC_LEN;
	memcpy(&pi->icrc_wire, pi->frame + pi->icrc_off, XR_ICRC_LEN);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	pi->icrc_wire = __builtin_bswap32(pi->icrc_wire);
#endif
	if (xr_bth_tver(bth) != XR_BTH_TVER)
		return XR_STAT_BAD_TVER;
	info = &xr_opcode_table[pi->opcode];
	if (!(info->mask & XR_M_VALID))
		return XR_STAT_OPCODE_UNKNOWN;
	pi->mask = info->mask;
	pi->hdr_len = info->length;
	if (pi->bth_off + info->length > pi->icrc_off)
		return XR_STAT_HDR_TRUNC;

	pi->payload_off = pi->bth_off + info->length;
	body = pi->icrc_off - pi->payload_off;
	lv = xr_opcode_check_len(info->mask, pi->pad, body);
	if (lv != XR_LEN_OK)
		return len_reason[lv];
	pi->paylen = body - pi->pad;

	if (flags & XR_PARSE_ICRC) {
		pi->icrc_calc = xr_icrc_calc(pi->frame, pi->ip_version,
					     pi->l3_off, pi->icrc_off);
		pi->icrc_checked = true;
		if (pi->icrc_calc != pi->icrc_wire)
			return XR_STAT_ICRC_BAD;
	}
	return XR_STAT_ROCE_VALID;
}

enum xr_pkt_class xr_parse_frame(const void *frame, size_t len, unsigned flags,
				 struct xr_pkt_info *pi)
{
	const struct xr_ethhdr *eth = frame;
	enum xr_stat r;
	uint16_t proto;

	memset(pi, 0, sizeof(*pi));
	pi->frame = frame;
	/* Longer than any frame xroce accepts; keeps offsets in 32 bits. */
	pi->frame_len = len > 0xffff ? 0xffff : (uint32_t)len;

	if (pi->frame_len < XR_ETH_HLEN)
		return verdict(pi, XR_STAT_ETH_TRUNC);
	proto = xr_eth_proto(eth);
	pi->l3_off = XR_ETH_HLEN;
	if (proto == XR_ETH_P_8021Q) {
		const struct xr_vlanhdr *vlan;

		if (pi->frame_len < XR_ETH_HLEN + XR_VLAN_HLEN)
			return verdict(pi, XR_STAT_ETH_TRUNC);
		vlan = (const void *)(pi->frame + XR_ETH_HLEN);
		pi->has_vlan = true;
		pi->vlan_tci = xr_be16_to_cpu(vlan->tci);
		proto = xr_vlan_proto(vlan);
		pi->l3_off += XR_VLAN_HLEN;
	}

	if (proto == XR_ETH_P_IP) {
		pi->ip_version = 4;
		r = parse_ipv4(pi);
	} else if (proto == XR_ETH_P_IPV6) {
		pi->ip_version = 6;
		r = parse_ipv6(pi);
	} else {
		r = XR_STAT_PASS_NOT_ROCE;
	}
	if (r != XR_STAT_ROCE_VALID)
		return verdict(pi, r);
	return verdict(pi, parse_transport(pi, flags));
}

const void *xr_pkt_hdr(const struct xr_pkt_info *pi, uint32_t hdr_mask)
{
	const struct xr_opcode_info *info = &xr_opcode_table[pi->opcode];
	const uint8_t *bth = pi->frame + pi->bth_off;
	uint8_t off;

	if (!(info->mask & hdr_mask))
		return NULL;
	switch (hdr_mask) {
	case XR_M_DETH:
		off = info->off_deth;
		break;
	case XR_M_RETH:
		off = info->off_reth;
		break;
	case XR_M_ATMETH:
		off = info->off_atmeth;
		break;
	case XR_M_AETH:
		off = info->off_aeth;
		break;
	case XR_M_ATMACK:
		off = info->off_atmack;
		break;
	case XR_M_IMMDT:
		off = info->off_immdt;
		break;
	case XR_M_IETH:
		off = info->off_ieth;
		break;
	default:
		return NULL;
	}
	return bth + off;
}
