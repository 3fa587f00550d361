// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Tier 3: what xroce puts on the wire, captured by the relay between the
 * hosts, holds rdma_rxe's habits (selftests/fixtures/rxe/MANIFEST.md):
 * UDP source port from both QPNs, checksum 0, DF, TTL 64, a fresh non-zero
 * IP ID per packet, MigReq 0, P_Key 0xffff, AckReq only on the last packet
 * of short messages, AETH credits 0x1F with an MSN, and a valid ICRC on
 * every frame. Also: the QP map as bpftool prints it, the CQ file
 * descriptor under poll(), and more READs than max_rd_atomic at once.
 */
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine.h"
#include "pcap.h"
#include "pkt.h"
#include "rc_util.h"
#include "test_progs.h"
#include "test_util.h"

struct habits {
	unsigned frames, roce, icrc_bad, sport_bad, csum_bad, df_bad, ttl_bad,
		ipid_zero, ipid_repeat, mig, pkey_bad, ackreq_mid, acks,
		ack_credit_bad, read_resp, aeth_mid;
	uint16_t want_sport;
	uint16_t last_id[2];
};

static int check_frame(const uint8_t *f, uint32_t len, void *vctx)
{
	struct habits *h = vctx;
	struct xr_pkt_info pi;
	const struct xr_bth *bth;
	const uint8_t *ip, *udp;
	uint16_t id;
	int dir;

	h->frames++;
	if (xr_parse_frame(f, len, XR_PARSE_ICRC, &pi) != XR_PKT_ROCE) {
		h->icrc_bad++;
		return 0;
	}
	h->roce++;
	ip = f + pi.l3_off;
	udp = f + pi.l4_off;
	bth = xr_pkt_bth(&pi);
	dir = ip[15] == 1;	/* from 10.77.0.1 */
	if ((udp[0] << 8 | udp[1]) != h->want_sport)
		h->sport_bad++;
	if (udp[6] || udp[7])
		h->csum_bad++;
	if (!(ip[6] & 0x40))
		h->df_bad++;
	if (ip[8] != 64)
		h->ttl_bad++;
	id = ip[4] << 8 | ip[5];
	if (!id)
		h->ipid_zero++;
	if (id == h->last_id[dir])
		h->ipid_repeat++;
	h->last_id[dir] = id;
	if (xr_bth_mig(bth))
		h->mig++;
	if (xr_bth_pkey(bth) != 0xffff)
		h->pkey_bad++;
	/* Messages here are at most 16 packets: AckReq only at the end. */
	if (xr_bth_ackreq(bth) && (pi.mask & XR_M_REQ) && !(pi.mask & XR_M_LAST))
		h->ackreq_mid++;
	if (pi.opcode == XR_OP_RC_ACKNOWLEDGE) {
		const struct xr_aeth *a = xr_pkt_hdr(&pi, XR_M_AETH);

		h->acks++;
		if (xr_aeth_syndrome(a) != 0x1f)
			h->ack_credit_bad++;
	}
	if (pi.mask & XR_M_READ && pi.mask & XR_M_RESP) {
		h->read_resp++;
		if ((pi.mask & XR_M_MIDDLE) && (pi.mask & XR_M_AETH))
			h->aeth_mid++;
	}
	return 0;
}

XR_TEST_ROOT(rc_wire_rxe_habits)
{
	struct rc_opts o = { .relay = 1, .psn = { 0x10, 0x20 } };
	struct xr_relay_rules rules = { 0 };
	struct habits hb = { 0 };
	char path[128];
	struct rc_pair p;
	int i;

	snprintf(path, sizeof(path), "/tmp/xrt%d-wire.pcap", (int)getpid());
	if (rc_pair_create(&p, &o)) {
		test__fail();
		goto out;
	}
	rules.pcap = fopen(path, "w");
	if (!ASSERT_OK_PTR(rules.pcap, "pcap file"))
		goto out;
	xr_pcap_write_header(rules.pcap);
	xr_relay_set(&p.h, &rules);
	for (i = 0; i < 8; i++) {
		static const enum xr_wr_opcode ops[] = { XR_WR_SEND, XR_WR_RDMA_WRITE,
							 XR_WR_RDMA_READ, XR_WR_SEND_WITH_IMM };
		uint32_t len = 700 + 2000 * i;
		struct xr_sge ls = { (uintptr_t)p.e[0].buf, len, p.e[0].mr->lkey };
		struct xr_sge rs = { (uintptr_t)p.e[1].buf, len, p.e[1].mr->lkey };
		struct xr_recv_wr rw = { .sg_list = &rs, .num_sge = 1 };
		struct xr_send_wr sw = { .sg_list = &ls, .num_sge = 1, .opcode = ops[i % 4],
					 .send_flags = XR_SEND_SIGNALED };
		struct xr_wc wc;

		sw.rdma.remote_addr = (uintptr_t)p.e[1].buf + (1 << 20);
		sw.rdma.rkey = p.e[1].mr->rkey;
		if (ops[i % 4] == XR_WR_SEND || ops[i % 4] == XR_WR_SEND_WITH_IMM)
			xr_post_recv(p.e[1].qp[0], &rw, NULL);
		ASSERT_OK(xr_post_send(p.e[0].qp[0], &sw, NULL), "post");
		ASSERT_EQ(rc_wait(p.e[0].cq, &wc, 1, 3000), 1, "completion");
		ASSERT_EQ(wc.status, XR_WC_SUCCESS, "status");
	}
	usleep(20000);
	{
		/* The relay writes under its lock: after this, nothing more. */
		struct xr_relay_rules none = { 0 };

		xr_relay_set(&p.h, &none);
		fclose(rules.pcap);
	}
	hb.want_sport = xr_roce_sport(p.e[0].qp[0]->qp_num, p.e[1].qp[0]->qp_num, 0);
	ASSERT_GE(xr_fixture_frames(path, check_frame, &hb), 40, "frames captured");
	ASSERT_EQ(hb.roce, hb.frames, "every frame RoCEv2 with a valid ICRC");
	ASSERT_EQ(hb.sport_bad, 0, "UDP source port as rdma_rxe (both directions)");
	ASSERT_EQ(hb.csum_bad, 0, "UDP checksum 0");
	ASSERT_EQ(hb.df_bad, 0, "DF set");
	ASSERT_EQ(hb.ttl_bad, 0, "TTL 64");
	ASSERT_EQ(hb.ipid_zero, 0, "IP ID never 0");
	ASSERT_EQ(hb.ipid_repeat, 0, "IP ID fresh per packet");
	ASSERT_EQ(hb.mig, 0, "MigReq 0");
	ASSERT_EQ(hb.pkey_bad, 0, "P_Key 0xffff");
	ASSERT_EQ(hb.ackreq_mid, 0, "AckReq only on LAST/ONLY");
	ASSERT_GE(hb.acks, 6, "one ACK per message");
	ASSERT_EQ(hb.ack_credit_bad, 0, "AETH credits 0x1f");
	ASSERT_GE(hb.read_resp, 2, "READ responses captured");
	ASSERT_EQ(hb.aeth_mid, 0, "no AETH on READ MIDDLE");
	/* xroce dump reads our own capture back: every ICRC ok. */
	{
		static char out[65536];
		char cmd[700];
		FILE *f;
		size_t n;

		snprintf(cmd, sizeof(cmd), "%s/xroce dump %s | tail -n 1", test__builddir(),
			 path);
		f = popen(cmd, "r");
		n = f ? fread(out, 1, sizeof(out) - 1, f) : 0;
		out[n] = '\0';
		if (f)
			pclose(f);
		ASSERT_TRUE(strstr(out, "icrc_bad 0 malformed 0"), "xroce dump agrees");
	}
out:
	unlink(path);
	rc_pair_destroy(&p);
}

XR_TEST_ROOT(rc_qp_map_cq_fd_many_reads)
{
	struct rc_opts o = { 0 };
	static char out[16384];
	struct rc_pair p;
	struct xr_wc wc[64];
	struct pollfd pfd;
	int i, n, st;

	if (rc_pair_create(&p, &o)) {
		test__fail();
		goto out;
	}
	/* The QP as bpftool prints it, by field name. */
	st = xr_hosts_capture(&p.h, 0, out, sizeof(out),
			      "bpftool map dump pinned /sys/fs/bpf/xroce/xr0@%s/xr_qps",
			      p.h.ns[0]);
	ASSERT_EQ(st, 0, "bpftool map dump xr_qps");
	ASSERT_TRUE(strstr(out, "\"qpn\": 17") && strstr(out, "\"state\": 3") &&
		    strstr(out, "\"dest_qpn\": 17") && strstr(out, "\"path_mtu\": 1024"),
		    "live QP with named fields");

	/* 40 READs of 5000 bytes at once, max_rd_atomic 16: all complete. */
	for (i = 0; i < 40 * 5000; i++)
		p.e[1].buf[i] = (uint8_t)(i * 7 + (i >> 11));
	memset(p.e[0].buf + (1 << 20), 0, 40 * 5000);
	ASSERT_OK(xr_req_notify_cq(p.e[0].cq, 0), "arm the CQ");
	for (i = 0; i < 40; i++) {
		struct xr_sge s = { (uintptr_t)p.e[0].buf + (1 << 20) + i * 5000, 5000,
				    p.e[0].mr->lkey };
		struct xr_send_wr w = { .wr_id = i, .sg_list = &s, .num_sge = 1,
					.opcode = XR_WR_RDMA_READ,
					.send_flags = XR_SEND_SIGNALED };

		w.rdma.remote_addr = (uintptr_t)p.e[1].buf + i * 5000;
		w.rdma.rkey = p.e[1].mr->rkey;
		ASSERT_OK(xr_post_send(p.e[0].qp[0], &w, NULL), "post READ");
	}
	/* The CQ's file descriptor wakes poll() when the first one lands. */
	pfd.fd = xr_cq_fd(p.e[0].cq);
	pfd.events = POLLIN;
	ASSERT_EQ(poll(&pfd, 1, 3000), 1, "cq fd readable");
	ASSERT_OK(xr_get_cq_event(p.e[0].cq), "consume the event");
	n = rc_wait(p.e[0].cq, wc, 40, 5000);
	ASSERT_EQ(n, 40, "40 READs completed");
	for (i = 0; i < n; i++) {
		ASSERT_EQ(wc[i].status, XR_WC_SUCCESS, "status");
		ASSERT_EQ(wc[i].wr_id, i, "in order");
		ASSERT_EQ(wc[i].byte_len, 5000, "byte_len");
	}
	ASSERT_MEMEQ(p.e[0].buf + (1 << 20), p.e[1].buf, 40 * 5000, "READ data");
out:
	rc_pair_destroy(&p);
}

/* xr_req_notify_cq(cq, 1): only solicited receives (and errors) wake. */
XR_TEST_ROOT(rc_solicited_events)
{
	struct rc_opts o = { 0 };
	struct rc_pair p;
	struct xr_wc wc[4];
	struct pollfd pfd;
	int i;

	if (rc_pair_create(&p, &o)) {
		test__fail();
		goto out;
	}
	pfd.fd = xr_cq_fd(p.e[1].cq);
	pfd.events = POLLIN;
	ASSERT_OK(xr_req_notify_cq(p.e[1].cq, 1), "arm, solicited only");
	for (i = 0; i < 2; i++) {
		struct xr_sge rs = { (uintptr_t)p.e[1].buf, 64, p.e[1].mr->lkey };
		struct xr_sge ss = { (uintptr_t)p.e[0].buf, 64, p.e[0].mr->lkey };
		struct xr_recv_wr rw = { .wr_id = i, .sg_list = &rs, .num_sge = 1 };
		struct xr_send_wr sw = { .wr_id = i, .sg_list = &ss, .num_sge = 1,
					 .opcode = XR_WR_SEND,
					 .send_flags = XR_SEND_SIGNALED |
						       (i ? XR_SEND_SOLICITED : 0) };

		ASSERT_OK(xr_post_recv(p.e[1].qp[0], &rw, NULL), "recv");
		ASSERT_OK(xr_post_send(p.e[0].qp[0], &sw, NULL), "send");
		ASSERT_EQ(rc_wait(p.e[0].cq, wc, 1, 2000), 1, "sent");
		if (!i)
			ASSERT_EQ(poll(&pfd, 1, 200), 0, "no event for an unsolicited SEND");
		else
			ASSERT_EQ(poll(&pfd, 1, 2000), 1, "event for a solicited SEND");
	}
	ASSERT_OK(xr_get_cq_event(p.e[1].cq), "consume");
	ASSERT_EQ(rc_wait(p.e[1].cq, wc, 2, 1000), 2, "both receives completed");
out:
	rc_pair_destroy(&p);
}
