// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Tier 1: opcode table, CRC-32, ICRC, parser and builder against rxe captures. */
#include <stdlib.h>

#include "build.h"
#include "crc32.h"
#include "pcap.h"
#include "pkt.h"
#include "test_progs.h"
#include "test_util.h"

XR_TEST(opcode_table_lengths)
{
	static const struct {
		uint8_t op;
		uint8_t len;	/* BTH + extension headers, IBTA vol 1 ch 9 */
	} want[] = {
		{ XR_OP_RC_SEND_FIRST, 12 },
		{ XR_OP_RC_SEND_ONLY_WITH_IMMEDIATE, 16 },
		{ XR_OP_RC_RDMA_WRITE_FIRST, 28 },
		{ XR_OP_RC_RDMA_WRITE_MIDDLE, 12 },
		{ XR_OP_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE, 16 },
		{ XR_OP_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, 32 },
		{ XR_OP_RC_RDMA_READ_REQUEST, 28 },
		{ XR_OP_RC_RDMA_READ_RESPONSE_FIRST, 16 },
		{ XR_OP_RC_RDMA_READ_RESPONSE_MIDDLE, 12 },
		{ XR_OP_RC_ACKNOWLEDGE, 16 },
		{ XR_OP_RC_ATOMIC_ACKNOWLEDGE, 24 },
		{ XR_OP_RC_COMPARE_SWAP, 40 },
		{ XR_OP_RC_FETCH_ADD, 40 },
		{ XR_OP_RC_SEND_ONLY_WITH_INVALIDATE, 16 },
		{ XR_OP_UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, 32 },
		{ XR_OP_UD_SEND_ONLY, 20 },
		{ XR_OP_UD_SEND_ONLY_WITH_IMMEDIATE, 24 },
		{ XR_OP_CNP, 28 },
	};
	unsigned i, known = 0;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct xr_opcode_info *o = &xr_opcode_table[want[i].op];

		ASSERT_TRUE(o->mask & XR_M_VALID, xr_opcode_name(want[i].op));
		ASSERT_EQ(o->length, want[i].len, xr_opcode_name(want[i].op));
	}
	/* Header offsets: ImmDt follows the RETH, AtomicAckETH the AETH. */
	ASSERT_EQ(xr_opcode_table[XR_OP_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE].off_immdt,
		  28, "immdt after reth");
	ASSERT_EQ(xr_opcode_table[XR_OP_RC_ATOMIC_ACKNOWLEDGE].off_atmack, 16,
		  "atmack after aeth");
	ASSERT_EQ(xr_opcode_table[XR_OP_UD_SEND_ONLY_WITH_IMMEDIATE].off_immdt, 20,
		  "immdt after deth");
	for (i = 0; i < 256; i++) {
		const struct xr_opcode_info *o = &xr_opcode_table[i];

		if (!(o->mask & XR_M_VALID)) {
			ASSERT_STREQ(xr_opcode_name(i), "", "unknown has no name");
			continue;
		}
		known++;
		/* Every request or response is exactly one of the roles. */
		ASSERT_EQ(!!(o->mask & XR_M_REQ) + !!(o->mask & XR_M_RESP) +
				  !!(o->mask & XR_M_CNP), 1, xr_opcode_name(i));
		ASSERT_TRUE(o->mask & (XR_M_FIRST | XR_M_MIDDLE | XR_M_LAST),
			    xr_opcode_name(i));
	}
	/* 12 RC + 12 UC send/write, 11 more RC, 2 UD, CNP. */
	ASSERT_EQ(known, 38, "known opcodes");
}

XR_TEST(crc32_implementations_agree)
{
	static uint8_t buf[70000];
	const struct xr_crc32_impl *impl;
	size_t i, lens[] = { 0, 1, 3, 7, 8, 15, 16, 17, 63, 64, 255, 1024,
			     4096, 4100, 65536 + 13 };

	srand(7);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rand();
	/* zlib's check value: crc32("123456789") = 0xcbf43926 */
	for (impl = xr_crc32_impls; impl->name; impl++) {
		if (impl->available && !impl->available()) {
			test__log("%s not available on this CPU", impl->name);
			continue;
		}
		ASSERT_EQ(~impl->update(~0u, "123456789", 9), 0xcbf43926u,
			  impl->name);
		for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			size_t off;

			for (off = 0; off < 8; off += 3)
				ASSERT_EQ(impl->update(0x12345678, buf + off, lens[i]),
					  xr_crc32_bitwise(0x12345678, buf + off,
							   lens[i]),
					  impl->name);
		}
	}
}

struct fixture_count {
	int roce, bad_icrc, malformed, frames;
};

static int count_frame(const uint8_t *frame, uint32_t len, void *ctx)
{
	struct fixture_count *c = ctx;
	struct xr_pkt_info pi;

	c->frames++;
	xr_parse_frame(frame, len, XR_PARSE_ICRC, &pi);
	if (pi.cls == XR_PKT_ROCE)
		c->roce++;
	else if (pi.reason == XR_STAT_ICRC_BAD)
		c->bad_icrc++;
	else if (pi.cls == XR_PKT_MALFORMED)
		c->malformed++;
	return 0;
}

XR_TEST(fixtures_icrc_valid)
{
	static struct xr_fixture fx[XR_MAX_FIXTURES];
	int n = xr_fixtures(fx, XR_MAX_FIXTURES), i;

	if (!ASSERT_GE(n, 30, "fixture pcaps found"))
		return;
	for (i = 0; i < n; i++) {
		struct fixture_count c = { 0 };

		ASSERT_GE(xr_fixture_frames(fx[i].path, count_frame, &c), 1,
			  fx[i].name);
		ASSERT_EQ(c.bad_icrc, 0, fx[i].name);
		ASSERT_EQ(c.malformed, 0, fx[i].name);
		if (ASSERT_GE(fx[i].manifest_roce, 1, "MANIFEST row"))
			ASSERT_EQ(c.roce, fx[i].manifest_roce, fx[i].name);
	}
}

/* Is byte @off (from the IP header) of a v4/v6 frame a masked variant field? */
static uint8_t masked_bits(uint8_t ipv, uint32_t off)
{
	uint32_t ipl = ipv == 6 ? XR_IPV6_HLEN : XR_IPV4_HLEN;

	if (ipv == 4 && (off == 1 || off == 8 || off == 10 || off == 11))
		return 0xff;
	if (ipv == 6 && off == 0)
		return 0x0f;
	if (ipv == 6 && (off == 1 || off == 2 || off == 3 || off == 7))
		return 0xff;
	if (off == ipl + 6 || off == ipl + 7)	/* UDP checksum */
		return 0xff;
	if (off == ipl + XR_UDP_HLEN + 4)	/* BTH resv8a */
		return 0xff;
	return 0;
}

struct flip_ctx {
	uint32_t seen_ops[256];
	int checked, failures;
};

static int flip_frame(const uint8_t *frame, uint32_t len, void *vctx)
{
	struct flip_ctx *c = vctx;
	static uint8_t copy[XR_PCAP_MAX_FRAME];
	struct xr_pkt_info pi;
	uint32_t off, bit;

	if (xr_parse_frame(frame, len, XR_PARSE_ICRC, &pi) != XR_PKT_ROCE)
		return 0;
	/* Two packets per opcode and capture keep the test quick. */
	if (c->seen_ops[pi.opcode]++ >= 2)
		return 0;
	memcpy(copy, frame, len);
	for (off = pi.l3_off; off < pi.end_off; off++) {
		uint8_t mask = off < pi.icrc_off ?
			masked_bits(pi.ip_version, off - pi.l3_off) : 0;

		for (bit = 0; bit < 8; bit++) {
			uint32_t calc, wire;

			copy[off] ^= 1u << bit;
			calc = xr_icrc_calc(copy, pi.ip_version, pi.l3_off,
					    pi.icrc_off);
			memcpy(&wire, copy + pi.icrc_off, 4);
			copy[off] ^= 1u << bit;
			c->checked++;
			if ((mask >> bit) & 1) {
				if (calc != wire)
					c->failures++;	/* variant bit must not count */
			} else if (calc == wire) {
				c->failures++;		/* covered bit went unnoticed */
			}
		}
	}
	return 0;
}

XR_TEST(icrc_single_bit_flips)
{
	static struct xr_fixture fx[XR_MAX_FIXTURES];
	int n = xr_fixtures(fx, XR_MAX_FIXTURES), i;

	for (i = 0; i < n; i++) {
		struct flip_ctx c;

		memset(&c, 0, sizeof(c));
		xr_fixture_frames(fx[i].path, flip_frame, &c);
		ASSERT_GE(c.checked, 8 * 60, fx[i].name);
		ASSERT_EQ(c.failures, 0, fx[i].name);
	}
}

/* Rebuild every RoCE frame of a capture from its parsed fields. */
struct rebuild_ctx {
	int rebuilt, mismatched;
};

static int rebuild_frame(const uint8_t *frame, uint32_t len, void *vctx)
{
	struct rebuild_ctx *c = vctx;
	struct xr_frame_addr a = { 0 };
	struct xr_frame_hdrs h = { 0 };
	static uint8_t out[XR_PCAP_MAX_FRAME];
	const struct xr_bth *bth;
	const void *hdr;
	struct xr_pkt_info pi;
	uint32_t n;

	if (xr_parse_frame(frame, len, XR_PARSE_ICRC, &pi) != XR_PKT_ROCE)
		return 0;
	memcpy(a.dst_mac, frame, 6);
	memcpy(a.src_mac, frame + 6, 6);
	a.vlan_tci = pi.has_vlan ? pi.vlan_tci : 0;
	a.ip_version = pi.ip_version;
	if (pi.ip_version == 4) {
		const struct xr_iphdr *ip = (const void *)(frame + pi.l3_off);

		memcpy(a.src_ip, &ip->saddr, 4);
		memcpy(a.dst_ip, &ip->daddr, 4);
		a.tclass = ip->tos;
		a.hop_limit = ip->ttl;
		h.ip_id = xr_be16_to_cpu(ip->id);
	} else {
		const struct xr_ipv6hdr *ip6 = (const void *)(frame + pi.l3_off);

		memcpy(a.src_ip, ip6->saddr, 16);
		memcpy(a.dst_ip, ip6->daddr, 16);
		a.tclass = xr_ip6_tclass(ip6);
		a.flow_label = xr_ip6_flow_label(ip6);
		a.hop_limit = ip6->hop_limit;
	}
	a.sport = xr_udp_sport((const void *)(frame + pi.l4_off));
	bth = xr_pkt_bth(&pi);
	h.opcode = pi.opcode;
	h.se = xr_bth_se(bth);
	h.ackreq = xr_bth_ackreq(bth);
	h.pkey = xr_bth_pkey(bth);
	h.dqpn = xr_bth_qpn(bth);
	h.psn = xr_bth_psn(bth);
	if ((hdr = xr_pkt_hdr(&pi, XR_M_RETH))) {
		h.reth.va = xr_reth_va(hdr);
		h.reth.rkey = xr_reth_rkey(hdr);
		h.reth.len = xr_reth_len(hdr);
	}
	if ((hdr = xr_pkt_hdr(&pi, XR_M_AETH))) {
		h.aeth.syndrome = xr_aeth_syndrome(hdr);
		h.aeth.msn = xr_aeth_msn(hdr);
	}
	if ((hdr = xr_pkt_hdr(&pi, XR_M_ATMETH))) {
		h.atmeth.va = xr_atmeth_va(hdr);
		h.atmeth.rkey = xr_atmeth_rkey(hdr);
		h.atmeth.swap_add = xr_atmeth_swap_add(hdr);
		h.atmeth.compare = xr_atmeth_compare(hdr);
	}
	if ((hdr = xr_pkt_hdr(&pi, XR_M_ATMACK)))
		h.atmack_orig = xr_atmack_orig(hdr);
	if ((hdr = xr_pkt_hdr(&pi, XR_M_IMMDT)))
		h.imm_be = ((const struct xr_immdt *)hdr)->imm;
	if ((hdr = xr_pkt_hdr(&pi, XR_M_IETH)))
		h.ieth_rkey = xr_ieth_rkey(hdr);
	if ((hdr = xr_pkt_hdr(&pi, XR_M_DETH))) {
		h.deth.qkey = xr_deth_qkey(hdr);
		h.deth.sqp = xr_deth_sqp(hdr);
	}
	n = xr_frame_build(out, sizeof(out), &a, &h, frame + pi.payload_off,
			   pi.paylen);
	c->rebuilt++;
	/* rxe pads with zeros too, so the whole datagram must match. */
	if (n != pi.end_off || memcmp(out, frame, n)) {
		if (!c->mismatched)
			test__log("first mismatch: %s psn 0x%06x (len %u vs %u)",
				  xr_opcode_name(pi.opcode), h.psn, n, pi.end_off);
		c->mismatched++;
	}
	return 0;
}

XR_TEST(builder_reproduces_rxe_frames)
{
	static struct xr_fixture fx[XR_MAX_FIXTURES];
	int n = xr_fixtures(fx, XR_MAX_FIXTURES), i;

	for (i = 0; i < n; i++) {
		struct rebuild_ctx c = { 0 };

		xr_fixture_frames(fx[i].path, rebuild_frame, &c);
		ASSERT_GE(c.rebuilt, 1, fx[i].name);
		ASSERT_EQ(c.mismatched, 0, fx[i].name);
	}
}

static const struct xr_frame_addr test_addr4 = {
	.src_mac = { 0x02, 0, 0, 0, 0, 1 },
	.dst_mac = { 0x02, 0, 0, 0, 0, 2 },
	.ip_version = 4,
	.src_ip = { 10, 0, 0, 1 },
	.dst_ip = { 10, 0, 0, 2 },
	.sport = 0xc123,
};

static enum xr_stat parse_reason(const uint8_t *f, uint32_t len)
{
	struct xr_pkt_info pi;

	xr_parse_frame(f, len, XR_PARSE_ICRC, &pi);
	return pi.reason;
}

XR_TEST(parser_rejects_malformed)
{
	static uint8_t payload[4200];
	uint8_t f[5000], g[5000];
	struct xr_frame_hdrs h = { .opcode = XR_OP_RC_RDMA_WRITE_ONLY,
				   .pkey = 0xffff, .dqpn = 0x11, .psn = 5,
				   .reth = { 0x1000, 0x42, 100 } };
	struct xr_frame_addr a = test_addr4;
	uint32_t n, cut;

	memset(payload, 0xab, sizeof(payload));
	n = xr_frame_build(f, sizeof(f), &a, &h, payload, 100);
	ASSERT_EQ(parse_reason(f, n), XR_STAT_ROCE_VALID, "baseline");

	/* Every truncation point yields a reason, none passes as valid. */
	for (cut = 0; cut < n; cut++) {
		enum xr_stat r = parse_reason(f, cut);

		if (!ASSERT_NEQ(r, XR_STAT_ROCE_VALID, "truncated frame valid"))
			test__log("cut at %u", cut);
	}
	ASSERT_EQ(parse_reason(f, 10), XR_STAT_ETH_TRUNC, "eth trunc");
	ASSERT_EQ(parse_reason(f, 30), XR_STAT_IP_TRUNC, "ip trunc");
	ASSERT_EQ(parse_reason(f, 38), XR_STAT_UDP_TRUNC, "udp trunc");
	ASSERT_EQ(parse_reason(f, 60), XR_STAT_IP_BAD_LEN, "ip len > frame");

#define MUTATE(what, off, val, reason)                                         \
	do {                                                                   \
		memcpy(g, f, n);                                               \
		g[off] = (val);                                                \
		ASSERT_EQ(parse_reason(g, n), reason, what);                   \
	} while (0)
	MUTATE("ip version", 14, 0x65, XR_STAT_IP_BAD_VERSION);
	/* Four bytes of IP options (NOPs) in front of the UDP header. */
	memcpy(g, f, 34);
	memset(g + 34, 1, 4);
	memcpy(g + 38, f + 34, n - 34);
	g[14] = 0x46;
	g[17] += 4;
	ASSERT_EQ(parse_reason(g, n + 4), XR_STAT_IP_BAD_HLEN, "ip options");
	g[37] = 0;	/* the same with a non-RoCE port is not ours */
	g[38 + 3] = 0x50;
	ASSERT_EQ(parse_reason(g, n + 4), XR_STAT_PASS_NOT_ROCE, "options, port 80");
	MUTATE("ip checksum", 24, f[24] ^ 1, XR_STAT_IP_BAD_CSUM);
	MUTATE("not udp", 23, 6, XR_STAT_PASS_NOT_ROCE);
	MUTATE("other port", 37, 0x00, XR_STAT_PASS_NOT_ROCE);
	MUTATE("udp len", 39, f[39] + 4, XR_STAT_UDP_BAD_LEN);
	MUTATE("tver", 43, 0x01, XR_STAT_BAD_TVER);
	MUTATE("opcode", 42, 0x1e, XR_STAT_OPCODE_UNKNOWN);
	MUTATE("payload", 42, XR_OP_RC_ACKNOWLEDGE, XR_STAT_LEN_PAYLOAD);
	MUTATE("not pmtu", 42, XR_OP_RC_RDMA_WRITE_FIRST, XR_STAT_LEN_NOT_PMTU);
	MUTATE("payload byte", 100, f[100] ^ 0x10, XR_STAT_ICRC_BAD);
	MUTATE("icrc", n - 1, f[n - 1] ^ 0x80, XR_STAT_ICRC_BAD);
	/* MF set: a first fragment of a RoCE datagram. */
	memcpy(g, f, n);
	g[20] |= 0x20;
	g[24] = g[25] = 0;
	{
		uint16_t s = xr_ip_checksum((void *)(g + 14));

		g[24] = s >> 8;
		g[25] = s & 0xff;
	}
	ASSERT_EQ(parse_reason(g, n), XR_STAT_IP_FRAGMENT, "fragment");

	/* An ACK too short to hold its AETH. */
	h = (struct xr_frame_hdrs){ .opcode = XR_OP_RC_SEND_ONLY, .pkey = 0xffff };
	n = xr_frame_build(f, sizeof(f), &a, &h, NULL, 0);
	f[42] = XR_OP_RC_RDMA_READ_REQUEST;
	ASSERT_EQ(parse_reason(f, n), XR_STAT_HDR_TRUNC, "hdr trunc");

	/* Pad count larger than the payload. */
	h = (struct xr_frame_hdrs){ .opcode = XR_OP_RC_SEND_ONLY, .pkey = 0xffff };
	n = xr_frame_build(f, sizeof(f), &a, &h, NULL, 0);
	f[43] = 0x30;
	ASSERT_EQ(parse_reason(f, n), XR_STAT_LEN_PAD, "pad > payload");

	/* One path MTU fits in an ONLY packet, one byte more does not. */
	{
		static uint8_t big[4300];

		n = xr_frame_build(big, sizeof(big), &a, &h, payload, 4096);
		ASSERT_EQ(parse_reason(big, n), XR_STAT_ROCE_VALID, "4096 payload");
		n = xr_frame_build(big, sizeof(big), &a, &h, payload, 4097);
		ASSERT_EQ(parse_reason(big, n), XR_STAT_LEN_TOO_LONG, "4097 payload");
	}
}

XR_TEST(builder_vlan_and_ipv6)
{
	uint8_t payload[300], f[600];
	struct xr_frame_addr a = test_addr4;
	struct xr_frame_hdrs h = { .opcode = XR_OP_RC_SEND_ONLY_WITH_IMMEDIATE,
				   .pkey = 0xffff, .dqpn = 0x123456,
				   .psn = 0xffffff, .ackreq = 1,
				   .imm_be = 0x01020304 };
	struct xr_pkt_info pi;
	uint32_t n, len;

	for (len = 0; len < 9; len++) {
		memset(payload, (int)len, sizeof(payload));
		a.vlan_tci = len & 1 ? 100 : 0;
		a.ip_version = len & 2 ? 6 : 4;
		n = xr_frame_build(f, sizeof(f), &a, &h, payload, len);
		ASSERT_EQ(xr_parse_frame(f, n, XR_PARSE_ICRC, &pi), XR_PKT_ROCE,
			  "valid");
		ASSERT_EQ(pi.paylen, len, "paylen");
		ASSERT_EQ(pi.pad, (4 - (len & 3)) & 3, "pad");
		ASSERT_EQ(pi.has_vlan, !!(len & 1), "vlan");
		ASSERT_EQ(xr_bth_psn(xr_pkt_bth(&pi)), 0xffffff, "psn");
		ASSERT_EQ(xr_bth_qpn(xr_pkt_bth(&pi)), 0x123456, "qpn");
		ASSERT_TRUE(xr_bth_ackreq(xr_pkt_bth(&pi)), "ackreq");
		ASSERT_EQ(((const struct xr_immdt *)xr_pkt_hdr(&pi, XR_M_IMMDT))->imm,
			  0x01020304, "imm");
	}
}
