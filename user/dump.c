// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <arpa/inet.h>
#include <inttypes.h>
#include <string.h>

#include "dump.h"
#include "json.h"
#include "pkt.h"

struct addrs {
	char src[INET6_ADDRSTRLEN];
	char dst[INET6_ADDRSTRLEN];
	uint16_t sport, dport;
	bool have_ip, have_udp;
	char l3[32];		/* what a non-RoCE frame is */
};

/* Addresses as far as the frame has them, independent of the verdict. */
static void find_addrs(const struct xr_pkt_info *pi, struct addrs *a)
{
	const uint8_t *l3 = pi->frame + pi->l3_off;
	uint32_t avail = pi->frame_len > pi->l3_off ? pi->frame_len - pi->l3_off : 0;
	uint32_t l4 = 0;
	uint8_t proto = 0;

	memset(a, 0, sizeof(*a));
	if (pi->frame_len < XR_ETH_HLEN) {
		snprintf(a->l3, sizeof(a->l3), "runt frame");
		return;
	}
	if (pi->ip_version == 4 && avail >= XR_IPV4_HLEN) {
		const struct xr_iphdr *ip = (const void *)l3;

		inet_ntop(AF_INET, &ip->saddr, a->src, sizeof(a->src));
		inet_ntop(AF_INET, &ip->daddr, a->dst, sizeof(a->dst));
		a->have_ip = true;
		proto = ip->protocol;
		l4 = xr_ip_hlen(ip);
	} else if (pi->ip_version == 6 && avail >= XR_IPV6_HLEN) {
		const struct xr_ipv6hdr *ip6 = (const void *)l3;

		inet_ntop(AF_INET6, ip6->saddr, a->src, sizeof(a->src));
		inet_ntop(AF_INET6, ip6->daddr, a->dst, sizeof(a->dst));
		a->have_ip = true;
		proto = ip6->nexthdr;
		l4 = XR_IPV6_HLEN;
	} else if (!pi->ip_version) {
		uint16_t et;

		memcpy(&et, pi->frame + pi->l3_off - 2, 2);
		et = ntohs(et);
		snprintf(a->l3, sizeof(a->l3), et == 0x0806 ? "ARP" :
			 "ethertype 0x%04x", et);
		return;
	}
	if (!a->have_ip)
		return;
	switch (proto) {
	case 6:
		snprintf(a->l3, sizeof(a->l3), "TCP");
		break;
	case 1:
	case 58:
		snprintf(a->l3, sizeof(a->l3), "ICMP");
		break;
	case 17:
		snprintf(a->l3, sizeof(a->l3), "UDP");
		break;
	default:
		snprintf(a->l3, sizeof(a->l3), "IP protocol %u", proto);
	}
	if ((proto == 6 || proto == 17) && l4 >= XR_IPV4_HLEN && avail >= l4 + 4) {
		a->sport = (uint16_t)(l3[l4] << 8 | l3[l4 + 1]);
		a->dport = (uint16_t)(l3[l4 + 2] << 8 | l3[l4 + 3]);
		a->have_udp = true;
	}
}

static const char *nak_name(uint8_t code)
{
	static const char *const names[] = {
		[XR_NAK_PSN_SEQ_ERR] = "psn_seq_err",
		[XR_NAK_INVALID_REQ] = "invalid_request",
		[XR_NAK_REM_ACCESS_ERR] = "remote_access_err",
		[XR_NAK_REM_OP_ERR] = "remote_op_err",
		[XR_NAK_INVALID_RD_REQ] = "invalid_rd_request",
	};

	return code < sizeof(names) / sizeof(names[0]) ? names[code] : "reserved";
}

/* "ack credits 31", "nak psn_seq_err", "rnr_nak timer 14". */
static void aeth_kind(uint8_t syn, char *buf, size_t len)
{
	uint8_t v = syn & XR_AETH_VALUE_MASK;

	switch (syn & XR_AETH_TYPE_MASK) {
	case XR_AETH_TYPE_ACK:
		snprintf(buf, len, "ACK credits %u", v);
		break;
	case XR_AETH_TYPE_RNR_NAK:
		snprintf(buf, len, "RNR_NAK timer %u", v);
		break;
	case XR_AETH_TYPE_NAK:
		snprintf(buf, len, "NAK %s", nak_name(v));
		break;
	default:
		snprintf(buf, len, "reserved 0x%02x", syn);
	}
}

static void text_line(FILE *out, uint64_t no, double t,
		      const struct xr_pkt_info *pi, const struct addrs *a)
{
	fprintf(out, "%5" PRIu64 " %11.6f ", no, t);
	if (a->have_ip && a->have_udp)
		fprintf(out, pi->ip_version == 6 ? "[%s]:%u > [%s]:%u " :
			"%s:%u > %s:%u ", a->src, a->sport, a->dst, a->dport);
	else if (a->have_ip)
		fprintf(out, "%s > %s ", a->src, a->dst);
	if (pi->has_vlan)
		fprintf(out, "vlan %u ", pi->vlan_tci & XR_VLAN_VID_MASK);

	if (pi->cls == XR_PKT_NOT_ROCE) {
		fprintf(out, "not RoCE (%s)\n", a->l3[0] ? a->l3 : "unknown");
		return;
	}
	if (pi->cls == XR_PKT_MALFORMED && pi->reason != XR_STAT_ICRC_BAD) {
		fprintf(out, "MALFORMED %s: %s\n", xr_stat_name(pi->reason),
			xr_stat_desc(pi->reason));
		return;
	}

	const struct xr_bth *bth = xr_pkt_bth(pi);
	const struct xr_reth *reth = xr_pkt_hdr(pi, XR_M_RETH);
	const struct xr_aeth *aeth = xr_pkt_hdr(pi, XR_M_AETH);
	const struct xr_atmeth *atm = xr_pkt_hdr(pi, XR_M_ATMETH);
	const struct xr_atmack *atmack = xr_pkt_hdr(pi, XR_M_ATMACK);
	const struct xr_immdt *imm = xr_pkt_hdr(pi, XR_M_IMMDT);
	const struct xr_ieth *ieth = xr_pkt_hdr(pi, XR_M_IETH);
	const struct xr_deth *deth = xr_pkt_hdr(pi, XR_M_DETH);

	fprintf(out, "%s qpn 0x%06x psn 0x%06x ackreq %d", xr_opcode_name(pi->opcode),
		xr_bth_qpn(bth), xr_bth_psn(bth), xr_bth_ackreq(bth));
	if (xr_bth_se(bth))
		fprintf(out, " se 1");
	if (xr_bth_pkey(bth) != XR_DEFAULT_PKEY)
		fprintf(out, " pkey 0x%04x", xr_bth_pkey(bth));
	if (deth)
		fprintf(out, " qkey 0x%08x sqp 0x%06x", xr_deth_qkey(deth),
			xr_deth_sqp(deth));
	if (reth)
		fprintf(out, " va 0x%" PRIx64 " rkey 0x%08x dlen %u",
			(uint64_t)xr_reth_va(reth), xr_reth_rkey(reth),
			xr_reth_len(reth));
	if (atm)
		fprintf(out, " va 0x%" PRIx64 " rkey 0x%08x swap_add 0x%" PRIx64
			" compare 0x%" PRIx64, (uint64_t)xr_atmeth_va(atm),
			xr_atmeth_rkey(atm), (uint64_t)xr_atmeth_swap_add(atm),
			(uint64_t)xr_atmeth_compare(atm));
	if (aeth) {
		char k[40];

		aeth_kind(xr_aeth_syndrome(aeth), k, sizeof(k));
		fprintf(out, " aeth %s msn %u", k, xr_aeth_msn(aeth));
	}
	if (atmack)
		fprintf(out, " orig 0x%" PRIx64, (uint64_t)xr_atmack_orig(atmack));
	if (imm)
		fprintf(out, " imm 0x%08x", ntohl(imm->imm));
	if (ieth)
		fprintf(out, " inv_rkey 0x%08x", xr_ieth_rkey(ieth));
	fprintf(out, " len %u icrc %s\n", pi->paylen,
		pi->reason == XR_STAT_ICRC_BAD ? "BAD" : "ok");
}

static void json_packet(struct xr_json *j, uint64_t no, double t,
			const struct xr_pkt_info *pi, const struct addrs *a)
{
	xr_json_open_object(j, NULL);
	xr_json_uint(j, "no", no);
	xr_json_double(j, "time", t);
	if (a->have_ip) {
		xr_json_string(j, "src", a->src);
		xr_json_string(j, "dst", a->dst);
	}
	if (a->have_udp) {
		xr_json_uint(j, "sport", a->sport);
		xr_json_uint(j, "dport", a->dport);
	}
	if (pi->has_vlan)
		xr_json_uint(j, "vlan", pi->vlan_tci & XR_VLAN_VID_MASK);
	if (pi->cls == XR_PKT_NOT_ROCE) {
		xr_json_string(j, "class", "not_roce");
		xr_json_string(j, "protocol", a->l3);
		xr_json_close_object(j);
		return;
	}
	if (pi->cls == XR_PKT_MALFORMED && pi->reason != XR_STAT_ICRC_BAD) {
		xr_json_string(j, "class", "malformed");
		xr_json_string(j, "reason", xr_stat_name(pi->reason));
		xr_json_string(j, "reason_desc", xr_stat_desc(pi->reason));
		xr_json_close_object(j);
		return;
	}

	const struct xr_bth *bth = xr_pkt_bth(pi);
	const struct xr_reth *reth = xr_pkt_hdr(pi, XR_M_RETH);
	const struct xr_aeth *aeth = xr_pkt_hdr(pi, XR_M_AETH);
	const struct xr_atmeth *atm = xr_pkt_hdr(pi, XR_M_ATMETH);
	const struct xr_atmack *atmack = xr_pkt_hdr(pi, XR_M_ATMACK);
	const struct xr_immdt *imm = xr_pkt_hdr(pi, XR_M_IMMDT);
	const struct xr_ieth *ieth = xr_pkt_hdr(pi, XR_M_IETH);
	const struct xr_deth *deth = xr_pkt_hdr(pi, XR_M_DETH);

	xr_json_string(j, "class", "roce");
	xr_json_string(j, "opcode", xr_opcode_name(pi->opcode));
	xr_json_uint(j, "opcode_value", pi->opcode);
	xr_json_uint(j, "qpn", xr_bth_qpn(bth));
	xr_json_uint(j, "psn", xr_bth_psn(bth));
	xr_json_bool(j, "ackreq", xr_bth_ackreq(bth));
	xr_json_bool(j, "se", xr_bth_se(bth));
	xr_json_uint(j, "pkey", xr_bth_pkey(bth));
	if (deth) {
		xr_json_open_object(j, "deth");
		xr_json_uint(j, "qkey", xr_deth_qkey(deth));
		xr_json_uint(j, "src_qpn", xr_deth_sqp(deth));
		xr_json_close_object(j);
	}
	if (reth) {
		xr_json_open_object(j, "reth");
		xr_json_hex(j, "va", xr_reth_va(reth));
		xr_json_hex(j, "rkey", xr_reth_rkey(reth));
		xr_json_uint(j, "dma_len", xr_reth_len(reth));
		xr_json_close_object(j);
	}
	if (atm) {
		xr_json_open_object(j, "atomiceth");
		xr_json_hex(j, "va", xr_atmeth_va(atm));
		xr_json_hex(j, "rkey", xr_atmeth_rkey(atm));
		xr_json_hex(j, "swap_add", xr_atmeth_swap_add(atm));
		xr_json_hex(j, "compare", xr_atmeth_compare(atm));
		xr_json_close_object(j);
	}
	if (aeth) {
		uint8_t syn = xr_aeth_syndrome(aeth);
		char k[40];

		aeth_kind(syn, k, sizeof(k));
		xr_json_open_object(j, "aeth");
		xr_json_hex(j, "syndrome", syn);
		xr_json_string(j, "kind", k);
		xr_json_uint(j, "msn", xr_aeth_msn(aeth));
		xr_json_close_object(j);
	}
	if (atmack)
		xr_json_hex(j, "atomic_orig", xr_atmack_orig(atmack));
	if (imm)
		xr_json_hex(j, "imm", ntohl(imm->imm));
	if (ieth)
		xr_json_hex(j, "inv_rkey", xr_ieth_rkey(ieth));
	xr_json_uint(j, "payload_len", pi->paylen);
	xr_json_uint(j, "pad", pi->pad);
	xr_json_string(j, "icrc", pi->reason == XR_STAT_ICRC_BAD ? "BAD" : "ok");
	xr_json_hex(j, "icrc_value", pi->icrc_wire);
	xr_json_close_object(j);
}

int xr_dump(struct xr_pcap *pc, FILE *out, const struct xr_dump_opts *opts,
	    struct xr_dump_summary *sum)
{
	struct xr_pcap_rec rec;
	struct xr_pkt_info pi;
	struct xr_json j;
	uint64_t t0 = 0;
	struct addrs a;
	int ret;

	memset(sum, 0, sizeof(*sum));
	if (opts->json) {
		xr_json_init(&j, out, opts->pretty);
		xr_json_open_object(&j, NULL);
		xr_json_open_array(&j, "packets");
	}
	while ((ret = xr_pcap_next(pc, &rec)) == 1) {
		double t;

		if (!sum->packets)
			t0 = rec.ts_ns;
		sum->packets++;
		t = (double)(int64_t)(rec.ts_ns - t0) / 1e9;
		xr_parse_frame(rec.data, rec.caplen, XR_PARSE_ICRC, &pi);
		if (pi.cls == XR_PKT_ROCE) {
			sum->roce++;
			sum->icrc_ok++;
		} else if (pi.reason == XR_STAT_ICRC_BAD) {
			sum->roce++;
			sum->icrc_bad++;
		} else if (pi.cls == XR_PKT_MALFORMED) {
			sum->malformed++;
		}
		find_addrs(&pi, &a);
		if (opts->json)
			json_packet(&j, sum->packets, t, &pi, &a);
		else
			text_line(out, sum->packets, t, &pi, &a);
	}
	if (opts->json) {
		xr_json_close_array(&j);
		xr_json_open_object(&j, "summary");
		xr_json_uint(&j, "packets", sum->packets);
		xr_json_uint(&j, "roce", sum->roce);
		xr_json_uint(&j, "icrc_ok", sum->icrc_ok);
		xr_json_uint(&j, "icrc_bad", sum->icrc_bad);
		xr_json_uint(&j, "malformed", sum->malformed);
		if (ret < 0)
			xr_json_string(&j, "error", pc->err);
		xr_json_close_object(&j);
		xr_json_close_object(&j);
		xr_json_finish(&j);
	} else {
		if (ret < 0)
			fprintf(out, "error: %s\n", pc->err);
		fprintf(out, "packets %" PRIu64 " roce %" PRIu64 " icrc_ok %" PRIu64
			" icrc_bad %" PRIu64 " malformed %" PRIu64 "\n",
			sum->packets, sum->roce, sum->icrc_ok, sum->icrc_bad,
			sum->malformed);
	}
	return ret < 0 ? -1 : 0;
}
