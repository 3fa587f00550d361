// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Tier 3: RC SEND/RECV between two network namespaces over xroce (AF_XDP
 * engine, XDP steering), every byte verified.
 */
#include <stdlib.h>

#include "rc_util.h"
#include "test_progs.h"

static void fill(uint8_t *b, size_t n, unsigned seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 8));
}

XR_TEST_ROOT(rc_send_recv_pingpong)
{
	struct rc_opts o = { .psn = { 0x123456, 0xfffff0 } };
	struct rc_pair p;
	struct xr_wc wc[4];
	int it, n;

	if (rc_pair_create(&p, &o)) {
		test__fail();
		goto out;
	}
	for (it = 0; it < 50; it++) {
		int a = it & 1, b = !a;
		uint32_t len = 64 + it;
		struct xr_sge rs = { (uintptr_t)p.e[b].buf + 65536, 4096, p.e[b].mr->lkey };
		struct xr_sge ss = { (uintptr_t)p.e[a].buf, len, p.e[a].mr->lkey };
		struct xr_recv_wr rwr = { .wr_id = 100 + it, .sg_list = &rs, .num_sge = 1 };
		struct xr_send_wr swr = { .wr_id = 200 + it, .sg_list = &ss, .num_sge = 1,
					  .opcode = XR_WR_SEND,
					  .send_flags = XR_SEND_SIGNALED };

		fill(p.e[a].buf, len, it);
		memset(p.e[b].buf + 65536, 0, 4096);
		if (!ASSERT_OK(xr_post_recv(p.e[b].qp[0], &rwr, NULL), "post_recv") ||
		    !ASSERT_OK(xr_post_send(p.e[a].qp[0], &swr, NULL), "post_send"))
			break;
		n = rc_wait(p.e[a].cq, wc, 1, 2000);
		if (!ASSERT_EQ(n, 1, "send completion") ||
		    !ASSERT_EQ(wc[0].status, XR_WC_SUCCESS, "send status") ||
		    !ASSERT_EQ(wc[0].wr_id, 200 + it, "send wr_id"))
			break;
		n = rc_wait(p.e[b].cq, wc, 1, 2000);
		if (!ASSERT_EQ(n, 1, "recv completion") ||
		    !ASSERT_EQ(wc[0].status, XR_WC_SUCCESS, "recv status") ||
		    !ASSERT_EQ(wc[0].opcode, XR_WC_RECV, "recv opcode") ||
		    !ASSERT_EQ(wc[0].byte_len, len, "recv byte_len") ||
		    !ASSERT_EQ(wc[0].src_qp, p.e[a].qp[0]->qp_num, "src_qp") ||
		    !ASSERT_MEMEQ(p.e[b].buf + 65536, p.e[a].buf, len, "payload"))
			break;
	}
	ASSERT_EQ(it, 50, "iterations");
out:
	rc_pair_destroy(&p);
}
