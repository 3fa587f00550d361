// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Tier 3: frames lost, duplicated or corrupted between the hosts (relay
 * namespace, AF_PACKET) are recovered by go-back-N retransmission, and the
 * data arrives intact. Which frames are hit is chosen by the test.
 */
#include <stdlib.h>
#include <unistd.h>

#include "engine.h"
#include "rc_util.h"
#include "test_progs.h"
#include "test_util.h"

static bool transfer(struct rc_pair *p, enum xr_wr_opcode op, uint32_t len,
		     unsigned seed)
{
	struct rc_end *a = &p->e[0], *b = &p->e[1];
	bool read = op == XR_WR_RDMA_READ;
	uint8_t *src = read ? b->buf : a->buf, *dst = read ? a->buf + (2 << 20) :
							     b->buf + (2 << 20);
	struct xr_sge ls = { (uintptr_t)(read ? dst : src), len, a->mr->lkey };
	struct xr_sge rs = { (uintptr_t)dst, len, b->mr->lkey };
	struct xr_recv_wr rw = { .wr_id = 1, .sg_list = &rs, .num_sge = 1 };
	struct xr_send_wr sw = { .wr_id = 2, .sg_list = &ls, .num_sge = 1, .opcode = op,
				 .send_flags = XR_SEND_SIGNALED };
	struct xr_wc wc[2];

	rc_fill(src, len, seed);
	memset(dst, 0, len);
	sw.rdma.remote_addr = (uintptr_t)(read ? src : dst);
	sw.rdma.rkey = b->mr->rkey;
	if (op == XR_WR_SEND && !ASSERT_OK(xr_post_recv(b->qp[0], &rw, NULL), "recv"))
		return false;
	if (!ASSERT_OK(xr_post_send(a->qp[0], &sw, NULL), "send") ||
	    !ASSERT_EQ(rc_wait(a->cq, wc, 1, 10000), 1, "completion") ||
	    !ASSERT_EQ(wc[0].status, XR_WC_SUCCESS, "status"))
		return false;
	if (op == XR_WR_SEND && (!ASSERT_EQ(rc_wait(b->cq, wc, 1, 5000), 1, "recv") ||
				 !ASSERT_EQ(wc[0].byte_len, len, "recv len")))
		return false;
	return ASSERT_MEMEQ(dst, src, len, "data intact");
}

XR_TEST_ROOT(rc_loss_recovered)
{
	struct rc_opts o = { .relay = 1, .timeout = 10 /* 4.2 ms */ };
	struct xr_relay_counts c;
	struct rc_pair p;
	uint64_t rtx0;

	if (rc_pair_create(&p, &o)) {
		test__fail();
		goto out;
	}
	{
		/* WRITE, 64 packets: lose the 3rd and the 40th, and the last. */
		struct xr_relay_rules r = { .drop = { { 3, 40, 64 } } };

		xr_relay_set(&p.h, &r);
		ASSERT_TRUE(transfer(&p, XR_WR_RDMA_WRITE, 65536, 1), "WRITE with loss");
		xr_relay_counts(&p.h, &c);
		ASSERT_EQ(c.dropped[0], 3, "requests dropped");
	}
	{
		/* SEND: lose the first packet and its ACK once. */
		struct xr_relay_rules r = { .drop = { { 1 }, { 1 } } };

		xr_relay_set(&p.h, &r);
		ASSERT_TRUE(transfer(&p, XR_WR_SEND, 10000, 2), "SEND with loss");
		xr_relay_counts(&p.h, &c);
		ASSERT_GE(c.dropped[0] + c.dropped[1], 2, "SEND and ACK dropped");
	}
	{
		/* READ of 32 packets: lose responses 2 and 17, and the request. */
		struct xr_relay_rules r = { .drop = { { 1 }, { 2, 17 } } };

		xr_relay_set(&p.h, &r);
		ASSERT_TRUE(transfer(&p, XR_WR_RDMA_READ, 32768, 3), "READ with loss");
		xr_relay_counts(&p.h, &c);
		ASSERT_EQ(c.dropped[0] + c.dropped[1], 3, "READ frames dropped");
	}
	{
		/* Duplicated and corrupted frames: one copy used, the bad one dropped. */
		struct xr_relay_rules r = { .dup = { { 2, 5, 9 }, { 1 } },
					    .corrupt = { { 7, 12 } } };

		xr_relay_set(&p.h, &r);
		ASSERT_TRUE(transfer(&p, XR_WR_RDMA_WRITE, 20000, 4), "WRITE dup/corrupt");
		xr_relay_counts(&p.h, &c);
		ASSERT_EQ(c.duplicated[0], 3, "duplicated");
		ASSERT_EQ(c.corrupted[0], 2, "corrupted");
	}
	rtx0 = qpi(p.e[0].qp[0])->ctr->retransmits;
	ASSERT_GE(rtx0, 4, "requester went back N");
	test__log("requester: %llu go-back-N, %llu timeouts; responder: %llu NAKs sent",
		  (unsigned long long)rtx0,
		  (unsigned long long)qpi(p.e[0].qp[0])->ctr->timeouts,
		  (unsigned long long)qpi(p.e[1].qp[0])->ctr->naks_tx);
	/* The same counters, live, for bpftool and `xroce status`. */
	{
		static char out[65536];
		const char *r;
		int st;

		st = xr_hosts_capture(&p.h, 0, out, sizeof(out),
				      "bpftool map dump pinned /sys/fs/bpf/xroce/xr0@%s/xr_qp_stats"
				      " | head -n 40", p.h.ns[0]);
		ASSERT_EQ(st, 0, "bpftool map dump xr_qp_stats");
		ASSERT_TRUE(strstr(out, "\"qpn\": 17,") && strstr(out, "\"retransmits\": "),
			    "bpftool shows QP 17's engine counters by name");
		st = xr_hosts_capture(&p.h, 0, out, sizeof(out), "%s/xroce --json status xr0",
				      test__builddir());
		ASSERT_EQ(st, 0, "xroce status");
		r = strstr(out, "\"retransmits\":");
		ASSERT_TRUE(r && strtoull(r + 14, NULL, 10) == rtx0,
			    "xroce status reports the QP's retransmits");
		ASSERT_TRUE(strstr(out, "\"running\":true"), "engine running");
		ASSERT_TRUE(strstr(out, "\"qpn\":17,\"state\":\"RTS\",\"dest_qpn\":17,"
				   "\"path_mtu\":1024"), "QP state and peer in the status");
	}
out:
	rc_pair_destroy(&p);
}
