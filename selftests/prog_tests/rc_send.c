// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Tier 3: RC SEND/RECV between two network namespaces over xroce (AF_XDP
 * engine, XDP steering), every byte verified.
 */
#include <stdlib.h>
#include <unistd.h>

#include "rc_util.h"
#include "test_progs.h"
#include "test_util.h"

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

		rc_fill(p.e[a].buf, len, it);
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

/* xroce-pingpong end to end, as ibv_rc_pingpong would be run. */
XR_TEST_ROOT(pingpong_tool)
{
	static char out[8192];
	char bin[512], pp[512], srv_log[64];
	struct xr_hosts h;
	int i, st;

	snprintf(bin, sizeof(bin), "%s/xroce", test__builddir());
	snprintf(pp, sizeof(pp), "%s/xroce-pingpong", test__builddir());
	snprintf(srv_log, sizeof(srv_log), "/tmp/xrt%d-pp.log", (int)getpid());
	if (xr_ensure_bpffs() || xr_hosts_create(&h, 0)) {
		test__fail();
		return;
	}
	for (i = 0; i < 2; i++)
		ASSERT_OK(xr_hosts_sys(&h, i, "%s attach xr0 2>/dev/null", bin), "attach");
	for (i = 0; i < 3; i++) {
		static const int sizes[] = { 1, 4096, 20000 };

		ASSERT_OK(xr_hosts_sys(&h, 1, "(timeout 30 %s -g 1 -s %d -n 200 -m 1024 "
				       "> %s 2>&1; echo rc=$? >> %s) &", pp, sizes[i],
				       srv_log, srv_log), "server started");
		usleep(300000);
		st = xr_hosts_capture(&h, 0, out, sizeof(out),
				      "timeout 30 %s -g 1 -s %d -n 200 -m 1024 %s%s %s",
				      pp, sizes[i], i == 2 ? "-e " : "", "-d xr0", h.ip4[1]);
		if (!ASSERT_EQ(st, 0, "client exit status"))
			test__log("%s", out);
		ASSERT_TRUE(strstr(out, "local address:  LID 0x0000, QPN 0x") &&
			    strstr(out, "GID ::ffff:10.77.0.1"), "local address line");
		ASSERT_TRUE(strstr(out, "remote address: LID 0x0000") &&
			    strstr(out, "GID ::ffff:10.77.0.2"), "remote address line");
		ASSERT_TRUE(strstr(out, "200 iters in ") && strstr(out, " usec/iter"),
			    "iters line");
		usleep(200000);
		st = xr_sys("for t in $(seq 50); do grep -q rc= %s && break; sleep 0.1; done; "
			    "grep -q rc=0 %s", srv_log, srv_log);
		if (!ASSERT_EQ(st, 0, "server exit status"))
			xr_sys("cat %s >&2", srv_log);
	}
	/* A second application on an interface in use is refused clearly. */
	xr_hosts_sys(&h, 1, "(timeout 5 %s -g 1 -n 1 > /dev/null 2>&1 &)", pp);
	usleep(300000);
	st = xr_hosts_capture(&h, 1, out, sizeof(out), "timeout 5 %s -g 1 -p 18600 -n 1", pp);
	ASSERT_NEQ(st, 0, "second application refused");
	if (!ASSERT_TRUE(strstr(out, "in use by another xroce application"), "busy message"))
		test__log("%s", out);
	xr_sys("rm -f %s", srv_log);
	for (i = 0; i < 2; i++)
		xr_hosts_sys(&h, i, "%s detach xr0 >/dev/null 2>&1", bin);
	xr_hosts_destroy(&h);
}
