/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * RoCEv2 frame validation in XDP. The rules and their order are those of
 * the userspace parser (user/pkt.c, listed in docs/wire.md): both return the
 * first rule a frame breaks, and a randomized test compares them.
 *
 * The first XR_HDR_SCRATCH bytes of the frame are copied into per-CPU
 * scratch with bpf_xdp_load_bytes(), so headers are read the same way
 * whether they sit in the linear part or in fragments of a multi-buffer
 * frame, and every offset is a bounded map-value offset the verifier can
 * check without per-field packet bounds tests.
 */
#ifndef XROCE_BPF_PARSE_H
#define XROCE_BPF_PARSE_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include <xroce/eth.h>
#include <xroce/ipv4.h>
#include <xroce/ipv6.h>
#include <xroce/udp.h>
#include <xroce/opcode.h>
#include <xroce/stats.h>

#include "xroce_maps.h"

/* The parse result every later stage reads. */
struct xr_pkt {
	struct xr_scratch *s;
	__u32 len;		/* whole frame, fragments included */
	__u32 l3_off;
	__u32 l4_off;
	__u32 bth_off;
	__u32 end_off;		/* end of the UDP datagram */
	__u32 icrc_off;
	__u32 payload_off;
	__u32 paylen;		/* payload without pad */
	__u32 mask;		/* opcode table mask */
	__u8 ip_version;
	__u8 opcode;
	__u8 pad;
	__u8 hdr_len;		/* BTH + extension headers */
};

static XR_DEFINE_OPCODE_TABLE(xr_opcodes);

/* Offsets into the header scratch, bounded for the verifier. */
#define XR_HOFF(x) ((x) & (XR_HDR_SCRATCH - 1))

static __always_inline __u16 xr_rd16(const __u8 *h, __u32 off)
{
	off = XR_HOFF(off);
	return (__u16)h[off] << 8 | h[off + 1];
}

static __always_inline __u32 xr_rd32(const __u8 *h, __u32 off)
{
	off = XR_HOFF(off);
	return (__u32)h[off] << 24 | (__u32)h[off + 1] << 16 |
	       (__u32)h[off + 2] << 8 | h[off + 3];
}

static __always_inline __u8 xr_rd8(const __u8 *h, __u32 off)
{
	return h[XR_HOFF(off)];
}

/* RFC 1071 over the 20-byte IPv4 header at @off; 0 when intact. */
static __always_inline __u16 xr_ip4_csum(const __u8 *h, __u32 off)
{
	__u32 sum = 0;
	int i;

#pragma unroll
	for (i = 0; i < XR_IPV4_HLEN; i += 2)
		sum += xr_rd16(h, off + i);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)~sum;
}

static __always_inline enum xr_stat xr_parse_ipv4(struct xr_pkt *p)
{
	const __u8 *h = p->s->hdr;
	__u32 l3 = p->l3_off, avail = p->len - l3, hlen, tot;

	if (avail < XR_IPV4_HLEN)
		return XR_STAT_IP_TRUNC;
	if ((xr_rd8(h, l3) >> 4) != 4)
		return XR_STAT_IP_BAD_VERSION;
	if (xr_rd8(h, l3 + 9) != XR_IPPROTO_UDP)
		return XR_STAT_PASS_NOT_ROCE;
	hlen = (xr_rd8(h, l3) & 0x0f) * 4;
	if (hlen < XR_IPV4_HLEN)
		return XR_STAT_IP_BAD_HLEN;
	/* A later fragment has no UDP header: the kernel reassembles it. */
	if (xr_rd16(h, l3 + 6) & XR_IPV4_FRAG_OFF_MASK)
		return XR_STAT_PASS_NOT_ROCE;
	if (avail < hlen + XR_UDP_HLEN)
		return XR_STAT_UDP_TRUNC;
	if (xr_rd16(h, l3 + hlen + 2) != XR_ROCE_UDP_PORT)
		return XR_STAT_PASS_NOT_ROCE;

	/* From here on the frame is addressed to RoCEv2. */
	if (hlen != XR_IPV4_HLEN)
		return XR_STAT_IP_BAD_HLEN;
	if (xr_rd16(h, l3 + 6) & XR_IPV4_MF)
		return XR_STAT_IP_FRAGMENT;
	tot = xr_rd16(h, l3 + 2);
	if (tot < XR_IPV4_HLEN + XR_UDP_HLEN || tot > avail)
		return XR_STAT_IP_BAD_LEN;
	if (xr_ip4_csum(h, l3))
		return XR_STAT_IP_BAD_CSUM;
	p->l4_off = l3 + XR_IPV4_HLEN;
	p->end_off = l3 + tot;
	return XR_STAT_ROCE_VALID;
}

static __always_inline enum xr_stat xr_parse_ipv6(struct xr_pkt *p)
{
	const __u8 *h = p->s->hdr;
	__u32 l3 = p->l3_off, avail = p->len - l3, plen;

	if (avail < XR_IPV6_HLEN)
		return XR_STAT_IP_TRUNC;
	if ((xr_rd8(h, l3) >> 4) != 6)
		return XR_STAT_IP_BAD_VERSION;
	if (xr_rd8(h, l3 + 6) != XR_IPPROTO_UDP)
		return XR_STAT_PASS_NOT_ROCE;
	if (avail < XR_IPV6_HLEN + XR_UDP_HLEN)
		return XR_STAT_UDP_TRUNC;
	if (xr_rd16(h, l3 + XR_IPV6_HLEN + 2) != XR_ROCE_UDP_PORT)
		return XR_STAT_PASS_NOT_ROCE;
	plen = xr_rd16(h, l3 + 4);
	if (plen < XR_UDP_HLEN || plen > avail - XR_IPV6_HLEN)
		return XR_STAT_IP_BAD_LEN;
	p->l4_off = l3 + XR_IPV6_HLEN;
	p->end_off = p->l4_off + plen;
	return XR_STAT_ROCE_VALID;
}

static __always_inline enum xr_stat xr_parse_transport(struct xr_pkt *p)
{
	const __u8 *h = p->s->hdr;
	const struct xr_opcode_info *info;
	enum xr_len_verdict lv;
	__u32 ulen, body;
	__u8 flags;

	ulen = xr_rd16(h, p->l4_off + 4);
	if (ulen != p->end_off - p->l4_off)
		return XR_STAT_UDP_BAD_LEN;
	p->bth_off = p->l4_off + XR_UDP_HLEN;
	if (ulen < XR_UDP_HLEN + XR_BTH_LEN + XR_ICRC_LEN)
		return XR_STAT_BTH_TRUNC;

	p->opcode = xr_rd8(h, p->bth_off);
	flags = xr_rd8(h, p->bth_off + 1);
	p->pad = (flags & XR_BTH_PAD_MASK) >> XR_BTH_PAD_SHIFT;
	p->icrc_off = p->end_off - XR_ICRC_LEN;
	if ((flags & XR_BTH_TVER_MASK) != XR_BTH_TVER)
		return XR_STAT_BAD_TVER;
	info = &xr_opcodes[p->opcode];
	if (!(info->mask & XR_M_VALID))
		return XR_STAT_OPCODE_UNKNOWN;
	p->mask = info->mask;
	p->hdr_len = info->length;
	if (p->bth_off + info->length > p->icrc_off)
		return XR_STAT_HDR_TRUNC;

	p->payload_off = p->bth_off + info->length;
	body = p->icrc_off - p->payload_off;
	lv = xr_opcode_check_len(info->mask, p->pad, body);
	switch (lv) {
	case XR_LEN_OK:
		break;
	case XR_LEN_NO_PAYLOAD_ALLOWED:
		return XR_STAT_LEN_PAYLOAD;
	case XR_LEN_PAD:
		return XR_STAT_LEN_PAD;
	case XR_LEN_NOT_PMTU:
		return XR_STAT_LEN_NOT_PMTU;
	case XR_LEN_TOO_LONG:
		return XR_STAT_LEN_TOO_LONG;
	default:
		return XR_STAT_LEN_UNALIGNED;
	}
	p->paylen = body - p->pad;
	return XR_STAT_ROCE_VALID;
}

/*
 * Classifies the frame: XR_STAT_PASS_NOT_ROCE, XR_STAT_ROCE_VALID (headers
 * only: the ICRC is checked separately) or the reason to drop it.
 */
static __always_inline enum xr_stat xr_parse(struct xdp_md *ctx, struct xr_pkt *p)
{
	__u32 zero = 0, n;
	__u16 proto;
	enum xr_stat r;
	const __u8 *h;

	p->s = bpf_map_lookup_elem(&xr_scratch, &zero);
	if (!p->s)
		return XR_STAT_ETH_TRUNC;	/* cannot happen: 1-entry array */
	h = p->s->hdr;
	p->len = bpf_xdp_get_buff_len(ctx);
	if (p->len < XR_ETH_HLEN)
		return XR_STAT_ETH_TRUNC;
	n = p->len < XR_HDR_SCRATCH ? p->len : XR_HDR_SCRATCH;
	/* clang may test a copy of n; restate the bound on the value passed. */
	n = ((n - 1) & (XR_HDR_SCRATCH - 1)) + 1;
	if (bpf_xdp_load_bytes(ctx, 0, p->s->hdr, n))
		return XR_STAT_ETH_TRUNC;
	/* Frames this long are not Ethernet; offsets stay 16-bit below. */
	if (p->len > 0xffff)
		p->len = 0xffff;

	proto = xr_rd16(h, 12);
	p->l3_off = XR_ETH_HLEN;
	if (proto == XR_ETH_P_8021Q) {
		if (p->len < XR_ETH_HLEN + XR_VLAN_HLEN)
			return XR_STAT_ETH_TRUNC;
		proto = xr_rd16(h, XR_ETH_HLEN + 2);
		p->l3_off += XR_VLAN_HLEN;
	}
	if (proto == XR_ETH_P_IP) {
		p->ip_version = 4;
		r = xr_parse_ipv4(p);
	} else if (proto == XR_ETH_P_IPV6) {
		p->ip_version = 6;
		r = xr_parse_ipv6(p);
	} else {
		return XR_STAT_PASS_NOT_ROCE;
	}
	if (r != XR_STAT_ROCE_VALID)
		return r;
	return xr_parse_transport(p);
}

#endif
