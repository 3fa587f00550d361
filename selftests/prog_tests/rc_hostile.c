// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Tier 3: a live QP under a stream of hostile but well-formed frames (valid
 * ICRC, the right addresses and QPN): random opcodes, PSNs inside and
 * outside the window, RETHs naming memory the rkey does not cover, lengths
 * that disagree, garbage AETHs. The engine must neither crash nor write
 * outside what was registered; afterwards fresh QPs on the same devices
 * work, byte for byte.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <unistd.h>

#include "build.h"
#include "engine.h"
#include "rc_util.h"
#include "test_progs.h"

static uint32_t rnd(void)
{
	return (uint32_t)rand() << 16 ^ (uint32_t)rand();
}

XR_TEST_ROOT(rc_hostile_frames)
{
	static const uint8_t ops[] = {
		XR_OP_RC_SEND_FIRST, XR_OP_RC_SEND_MIDDLE, XR_OP_RC_SEND_LAST,
		XR_OP_RC_SEND_ONLY, XR_OP_RC_SEND_ONLY_WITH_IMMEDIATE,
		XR_OP_RC_RDMA_WRITE_FIRST, XR_OP_RC_RDMA_WRITE_MIDDLE,
		XR_OP_RC_RDMA_WRITE_LAST, XR_OP_RC_RDMA_WRITE_ONLY,
		XR_OP_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, XR_OP_RC_RDMA_READ_REQUEST,
		XR_OP_RC_RDMA_READ_RESPONSE_FIRST, XR_OP_RC_RDMA_READ_RESPONSE_MIDDLE,
		XR_OP_RC_RDMA_READ_RESPONSE_LAST, XR_OP_RC_RDMA_READ_RESPONSE_ONLY,
		XR_OP_RC_ACKNOWLEDGE, XR_OP_RC_ATOMIC_ACKNOWLEDGE, XR_OP_RC_COMPARE_SWAP,
		XR_OP_RC_FETCH_ADD, XR_OP_RC_SEND_ONLY_WITH_INVALIDATE,
	};
	struct rc_opts o = { .psn = { 0x100, 0x200 } };
	static uint8_t frame[4096], payload[2048];
	struct xr_frame_addr a = { .ip_version = 4 };
	struct rc_pair p;
	struct xr_wc wc[64];
	uint8_t *canary = NULL;
	size_t mr_len;
	struct xr_qp_impl *q;
	int i, sent = 0, rounds, errored = 0;
	uint64_t handled = 0;
	size_t k;

	srand(4242);
	if (rc_pair_create(&p, &o)) {
		test__fail();
		goto out;
	}
	/* The last MiB of host 0's buffer leaves the MR: it must stay untouched. */
	mr_len = p.e[0].buf_len - (1 << 20);
	xr_dereg_mr(p.e[0].mr);
	p.e[0].mr = xr_reg_mr(p.e[0].pd, p.e[0].buf, mr_len, XR_ACCESS_LOCAL_WRITE |
			      XR_ACCESS_REMOTE_WRITE | XR_ACCESS_REMOTE_READ);
	if (!ASSERT_OK_PTR(p.e[0].mr, "smaller MR"))
		goto out;
	canary = p.e[0].buf + mr_len;
	memset(canary, 0xc5, 1 << 20);

	/* Frames from host 1's address to host 0's QP, as host 1 would send. */
	memcpy(a.src_mac, p.h.mac[1], 6);
	memcpy(a.dst_mac, p.h.mac[0], 6);
	inet_pton(AF_INET, p.h.ip4[1], a.src_ip);
	inet_pton(AF_INET, p.h.ip4[0], a.dst_ip);
	a.sport = 0xc123;
	/* A bad frame sends the QP to ERR: start over with fresh QPs often. */
	for (rounds = 0; rounds < 30; rounds++) {
		q = qpi(p.e[0].qp[0]);
		for (i = 0; i < 150; i++) {
			struct xr_frame_hdrs h = { .pkey = 0xffff };
			const struct xr_opcode_info *info;
			uint32_t plen = 0, n;

			h.opcode = ops[rnd() % sizeof(ops)];
			info = &xr_opcode_table[h.opcode];
			h.dqpn = p.e[0].qp[0]->qp_num;
			/* Mostly near what the QP expects, sometimes anywhere. */
			h.psn = rnd() % 4 ? (q->epsn + rnd() % 5 - 2) & 0xffffff :
				rnd() & 0xffffff;
			if (rnd() % 2)
				h.psn = (q->una_psn + rnd() % 5 - 2) & 0xffffff;
			h.ackreq = rnd() & 1;
			h.reth.va = rnd() % 3 ? (uintptr_t)p.e[0].buf + mr_len -
					       rnd() % 8192 : ((uint64_t)rnd() << 32 | rnd());
			h.reth.rkey = rnd() % 2 ? p.e[0].mr->rkey : rnd();
			h.reth.len = rnd() % 3 ? rnd() % 16384 : rnd();
			h.aeth.syndrome = rnd();
			h.aeth.msn = rnd();
			h.imm_be = rnd();
			if (info->mask & XR_M_PAYLOAD)
				plen = info->mask & XR_M_LAST ? rnd() % 1025 : 1024;
			for (k = 0; k < plen; k++)
				payload[k] = rnd();
			n = xr_frame_build(frame, sizeof(frame), &a, &h, payload, plen);
			if (n && !xr_hosts_send_frame(&p.h, 1, frame, n))
				sent++;
			if (i % 64 == 0)
				xr_poll_cq(p.e[0].cq, 64, wc);
		}
		while (xr_poll_cq(p.e[0].cq, 64, wc) > 0)
			;
		handled += q->ctr->rx_pkts;
		errored += p.e[0].qp[0]->state == XR_QPS_ERR;
		/* Whatever state the QP reached, it can be reset and used again. */
		rc_objs_destroy(p.e[0].qp[0], NULL, NULL, NULL, NULL);
		rc_objs_destroy(p.e[1].qp[0], NULL, NULL, NULL, NULL);
		p.e[0].qp[0] = p.e[1].qp[0] = NULL;
		{
			struct xr_qp_init_attr ia = { .qp_type = XR_QPT_RC,
						      .cap = { 64, 64, 1, 1, 0 } };

			ia.send_cq = ia.recv_cq = p.e[0].cq;
			p.e[0].qp[0] = xr_create_qp(p.e[0].pd, &ia);
			ia.send_cq = ia.recv_cq = p.e[1].cq;
			p.e[1].qp[0] = xr_create_qp(p.e[1].pd, &ia);
		}
		if (!ASSERT_OK_PTR(p.e[0].qp[0], "new QP") || !ASSERT_OK_PTR(p.e[1].qp[0], "new QP") ||
		    rc_connect(&p, 0, 0, &o) || rc_connect(&p, 1, 0, &o))
			break;
	}
	ASSERT_GE(sent, 4000, "hostile frames sent");
	test__log("%d frames sent, %llu reached the engine, %d of 30 QPs ended in ERR",
		  sent, (unsigned long long)handled, errored);
	ASSERT_GE(handled, 30, "frames handled by the engine");
	for (k = 0; k < (1u << 20) && canary[k] == 0xc5; k++)
		;
	ASSERT_EQ(k, 1u << 20, "memory past the MR untouched");
	/* The devices still work: a verified WRITE and READ on the new QPs. */
	while (xr_poll_cq(p.e[0].cq, 64, wc) > 0 || xr_poll_cq(p.e[1].cq, 64, wc) > 0)
		;
	for (i = 0; i < 2; i++) {
		struct xr_sge s = { (uintptr_t)p.e[0].buf, 50000, p.e[0].mr->lkey };
		struct xr_send_wr w = { .wr_id = i, .sg_list = &s, .num_sge = 1,
					.opcode = i ? XR_WR_RDMA_READ : XR_WR_RDMA_WRITE,
					.send_flags = XR_SEND_SIGNALED };

		if (!i)
			for (k = 0; k < 50000; k++)
				p.e[0].buf[k] = (uint8_t)(k * 3);
		w.rdma.remote_addr = (uintptr_t)p.e[1].buf + 4096;
		w.rdma.rkey = p.e[1].mr->rkey;
		if (i)
			memset(p.e[0].buf, 0, 50000);
		ASSERT_OK(xr_post_send(p.e[0].qp[0], &w, NULL), "post");
		ASSERT_EQ(rc_wait(p.e[0].cq, wc, 1, 3000), 1, "completion");
		ASSERT_EQ(wc[0].status, XR_WC_SUCCESS, "status");
	}
	for (k = 0; k < 50000 && p.e[0].buf[k] == (uint8_t)(k * 3); k++)
		;
	ASSERT_EQ(k, 50000, "data round-tripped after the storm");
out:
	rc_pair_destroy(&p);
}
