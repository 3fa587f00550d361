// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Tier 3: RNR, retry exhaustion, remote errors and API misuse. Every
 * failure must be an errno with a message or an error completion, never a
 * hang, a crash or data placed where it was not allowed.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rc_util.h"
#include "test_progs.h"
#include "test_util.h"

static uint64_t ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

static int send_bytes(struct rc_pair *p, int a, uint32_t off, uint32_t len,
		      enum xr_wr_opcode op, uint32_t rkey, uint64_t wr_id)
{
	struct xr_sge s = { (uintptr_t)p->e[a].buf + off, len, p->e[a].mr->lkey };
	struct xr_send_wr w = { .wr_id = wr_id, .sg_list = &s, .num_sge = len ? 1 : 0,
				.opcode = op, .send_flags = XR_SEND_SIGNALED };

	w.rdma.remote_addr = (uintptr_t)p->e[!a].buf;
	w.rdma.rkey = rkey;
	return xr_post_send(p->e[a].qp[0], &w, NULL);
}

static int recv_bytes(struct rc_pair *p, int b, uint32_t off, uint32_t len)
{
	struct xr_sge s = { (uintptr_t)p->e[b].buf + off, len, p->e[b].mr->lkey };
	struct xr_recv_wr w = { .wr_id = 9, .sg_list = &s, .num_sge = 1 };

	return xr_post_recv(p->e[b].qp[0], &w, NULL);
}

/* The receive is posted after the SEND: RNR NAKs, then the data arrives. */
XR_TEST_ROOT(rc_rnr_then_delivered)
{
	struct rc_opts o = { .min_rnr_timer = 14 /* 1.28 ms */ };
	struct rc_pair p;
	struct xr_wc wc[2];
	uint32_t i;

	if (rc_pair_create(&p, &o)) {
		test__fail();
		goto out;
	}
	for (i = 0; i < 6000; i++)
		p.e[0].buf[i] = (uint8_t)(i * 13);
	ASSERT_OK(send_bytes(&p, 0, 0, 6000, XR_WR_SEND, 0, 1), "post_send");
	usleep(30000);
	ASSERT_EQ(xr_poll_cq(p.e[0].cq, 2, wc), 0, "no completion without a receive");
	ASSERT_OK(recv_bytes(&p, 1, 8192, 8192), "post_recv later");
	ASSERT_EQ(rc_wait(p.e[0].cq, wc, 1, 3000), 1, "send completes");
	ASSERT_EQ(wc[0].status, XR_WC_SUCCESS, "send status");
	ASSERT_EQ(rc_wait(p.e[1].cq, wc, 1, 3000), 1, "recv completes");
	ASSERT_EQ(wc[0].byte_len, 6000, "byte_len");
	ASSERT_MEMEQ(p.e[1].buf + 8192, p.e[0].buf, 6000, "payload after RNR");
out:
	rc_pair_destroy(&p);
}

XR_TEST_ROOT(rc_rnr_retry_exceeded)
{
	struct rc_opts o = { .rnr_retry = 2, .min_rnr_timer = 4 };
	struct rc_pair p;
	struct xr_wc wc[4];
	struct xr_qp_attr a;
	struct xr_qp_init_attr ia;

	if (rc_pair_create(&p, &o)) {
		test__fail();
		goto out;
	}
	ASSERT_OK(send_bytes(&p, 0, 0, 100, XR_WR_SEND, 0, 1), "post_send");
	ASSERT_OK(send_bytes(&p, 0, 0, 100, XR_WR_SEND, 0, 2), "post_send 2");
	ASSERT_EQ(rc_wait(p.e[0].cq, wc, 2, 3000), 2, "two completions");
	ASSERT_EQ(wc[0].status, XR_WC_RNR_RETRY_EXC_ERR, "RNR retry exceeded");
	ASSERT_EQ(wc[0].wr_id, 1, "first WR failed");
	ASSERT_EQ(wc[1].status, XR_WC_WR_FLUSH_ERR, "second WR flushed");
	xr_query_qp(p.e[0].qp[0], &a, XR_QP_STATE, &ia);
	ASSERT_EQ(a.qp_state, XR_QPS_ERR, "QP in ERR");
	/* Posting to an ERR QP completes at once with a flush error. */
	ASSERT_OK(send_bytes(&p, 0, 0, 10, XR_WR_SEND, 0, 3), "post to ERR QP");
	ASSERT_EQ(rc_wait(p.e[0].cq, wc, 1, 1000), 1, "flushed");
	ASSERT_EQ(wc[0].status, XR_WC_WR_FLUSH_ERR, "flush status");
out:
	rc_pair_destroy(&p);
}

/* The peer's device goes away: retry_cnt timeouts, then RETRY_EXC_ERR. */
XR_TEST_ROOT(rc_peer_gone_retry_exceeded)
{
	struct rc_opts o = { .timeout = 12, .retry_cnt = 3 };
	struct rc_pair p;
	struct xr_wc wc[2];
	uint64_t t0, dt;
	/* (retry_cnt + 1) timeouts of 4.096 us * 2^12 = 16.8 ms. */
	uint64_t bound = 4 * 17 + 100;

	if (rc_pair_create(&p, &o)) {
		test__fail();
		goto out;
	}
	xr_destroy_qp(p.e[1].qp[0]);
	p.e[1].qp[0] = NULL;
	t0 = ms_now();
	ASSERT_OK(send_bytes(&p, 0, 0, 3000, XR_WR_RDMA_WRITE, p.e[1].mr->rkey, 7),
		  "post_send");
	ASSERT_EQ(rc_wait(p.e[0].cq, wc, 1, 5000), 1, "completion");
	dt = ms_now() - t0;
	ASSERT_EQ(wc[0].status, XR_WC_RETRY_EXC_ERR, "retry exceeded");
	ASSERT_GE(dt, 4 * 16, "not before retry_cnt + 1 timeouts");
	ASSERT_LE(dt, bound, "within retry_cnt x timeout");
	test__log("RETRY_EXC_ERR after %llu ms (bound %llu)", (unsigned long long)dt,
		  (unsigned long long)bound);
out:
	rc_pair_destroy(&p);
}

XR_TEST_ROOT(rc_remote_errors)
{
	struct rc_opts o = { 0 };
	struct rc_pair p;
	struct xr_wc wc[2];
	struct xr_qp_attr a;
	struct xr_qp_init_attr ia;

	if (rc_pair_create(&p, &o)) {
		test__fail();
		goto out;
	}
	/* A WRITE with an rkey the peer never handed out. */
	memset(p.e[1].buf, 0x11, 64);
	ASSERT_OK(send_bytes(&p, 0, 0, 64, XR_WR_RDMA_WRITE, p.e[1].mr->rkey ^ 0x100, 1),
		  "post bad rkey");
	ASSERT_EQ(rc_wait(p.e[0].cq, wc, 1, 2000), 1, "completion");
	ASSERT_EQ(wc[0].status, XR_WC_REM_ACCESS_ERR, "remote access error");
	ASSERT_EQ(p.e[1].buf[0], 0x11, "nothing written");
	xr_query_qp(p.e[1].qp[0], &a, XR_QP_STATE, &ia);
	ASSERT_EQ(a.qp_state, XR_QPS_ERR, "responder QP in ERR");
	rc_pair_destroy(&p);

	if (rc_pair_create(&p, &o)) {
		test__fail();
		goto out;
	}
	/* A range past the end of the peer's MR. */
	{
		struct xr_sge s = { (uintptr_t)p.e[0].buf, 64, p.e[0].mr->lkey };
		struct xr_send_wr w = { .wr_id = 2, .sg_list = &s, .num_sge = 1,
					.opcode = XR_WR_RDMA_READ,
					.send_flags = XR_SEND_SIGNALED };

		w.rdma.remote_addr = (uintptr_t)p.e[1].buf + p.e[1].buf_len - 32;
		w.rdma.rkey = p.e[1].mr->rkey;
		ASSERT_OK(xr_post_send(p.e[0].qp[0], &w, NULL), "post READ past MR");
		ASSERT_EQ(rc_wait(p.e[0].cq, wc, 1, 2000), 1, "completion");
		ASSERT_EQ(wc[0].status, XR_WC_REM_ACCESS_ERR, "READ past the MR refused");
	}
	rc_pair_destroy(&p);

	if (rc_pair_create(&p, &o)) {
		test__fail();
		goto out;
	}
	/* A SEND longer than the receive buffer. */
	ASSERT_OK(recv_bytes(&p, 1, 0, 100), "small receive");
	ASSERT_OK(send_bytes(&p, 0, 0, 3000, XR_WR_SEND, 0, 3), "long send");
	ASSERT_EQ(rc_wait(p.e[0].cq, wc, 1, 2000), 1, "send completion");
	ASSERT_EQ(wc[0].status, XR_WC_REM_INV_REQ_ERR, "remote invalid request");
	ASSERT_EQ(rc_wait(p.e[1].cq, wc, 1, 2000), 1, "recv completion");
	ASSERT_EQ(wc[0].status, XR_WC_LOC_LEN_ERR, "local length error");
out:
	rc_pair_destroy(&p);
}

XR_TEST_ROOT(rc_api_misuse)
{
	struct rc_opts o = { 0 };
	struct xr_qp_init_attr ia = { 0 };
	struct xr_qp_attr a = { 0 };
	struct xr_send_wr w = { 0 }, *bad = NULL;
	struct xr_sge s;
	struct rc_pair p;
	struct xr_pd *pd2;
	struct xr_mr *mr2;
	struct xr_qp *qp, *qp1;
	int i, ret;

	if (rc_pair_create(&p, &o)) {
		test__fail();
		goto out;
	}
	ia.send_cq = ia.recv_cq = p.e[0].cq;
	ia.qp_type = XR_QPT_RC;
	ia.cap.max_send_wr = 2;
	ia.cap.max_recv_wr = 2;
	ia.cap.max_send_sge = 1;
	qp = qp1 = xr_create_qp(p.e[0].pd, &ia);
	if (!ASSERT_OK_PTR(qp, "create_qp"))
		goto out;

	/* State machine. */
	a.qp_state = XR_QPS_RTR;
	ret = xr_modify_qp(qp, &a, XR_QP_STATE);
	ASSERT_EQ(ret, EINVAL, "RESET -> RTR refused");
	ASSERT_TRUE(strstr(xr_last_error(), "cannot go from RESET to RTR"), "message");
	a.qp_state = XR_QPS_INIT;
	ret = xr_modify_qp(qp, &a, XR_QP_STATE);
	ASSERT_EQ(ret, EINVAL, "INIT without port/pkey/access refused");
	a.port_num = 1;
	ASSERT_OK(xr_modify_qp(qp, &a, XR_QP_STATE | XR_QP_PORT | XR_QP_PKEY_INDEX |
			       XR_QP_ACCESS_FLAGS), "RESET -> INIT");
	a.qp_state = XR_QPS_RTS;
	ASSERT_EQ(xr_modify_qp(qp, &a, XR_QP_STATE), EINVAL, "INIT -> RTS refused");
	a.qp_state = XR_QPS_RTR;
	a.path_mtu = XR_MTU_4096;
	ASSERT_EQ(xr_modify_qp(qp, &a, XR_QP_STATE | XR_QP_AV | XR_QP_PATH_MTU |
			       XR_QP_DEST_QPN | XR_QP_RQ_PSN | XR_QP_MAX_DEST_RD_ATOMIC |
			       XR_QP_MIN_RNR_TIMER), EINVAL, "path MTU 4096 refused on a 1500-byte link");
	a.path_mtu = XR_MTU_1024;
	a.ah_attr.is_global = 0;
	ASSERT_EQ(xr_modify_qp(qp, &a, XR_QP_STATE | XR_QP_AV | XR_QP_PATH_MTU |
			       XR_QP_DEST_QPN | XR_QP_RQ_PSN | XR_QP_MAX_DEST_RD_ATOMIC |
			       XR_QP_MIN_RNR_TIMER), EINVAL, "no GRH refused");
	ASSERT_TRUE(strstr(xr_last_error(), "global route"), "GRH message");
	/* A peer no route leads to. */
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.sgid_index = 1;
	memset(&a.ah_attr.grh.dgid, 0, sizeof(a.ah_attr.grh.dgid));
	a.ah_attr.grh.dgid.raw[10] = a.ah_attr.grh.dgid.raw[11] = 0xff;
	a.ah_attr.grh.dgid.raw[12] = 192;
	a.ah_attr.grh.dgid.raw[13] = 0;
	a.ah_attr.grh.dgid.raw[14] = 2;
	a.ah_attr.grh.dgid.raw[15] = 1;
	ASSERT_EQ(xr_modify_qp(qp, &a, XR_QP_STATE | XR_QP_AV | XR_QP_PATH_MTU |
			       XR_QP_DEST_QPN | XR_QP_RQ_PSN | XR_QP_MAX_DEST_RD_ATOMIC |
			       XR_QP_MIN_RNR_TIMER), ENETUNREACH, "no route refused");
	ASSERT_TRUE(strstr(xr_last_error(), "no route to 192.0.2.1"), "route message");
	/* An IPv6 GID as source for an IPv4 destination. */
	a.ah_attr.grh.sgid_index = 2;
	ASSERT_EQ(xr_modify_qp(qp, &a, XR_QP_STATE | XR_QP_AV | XR_QP_PATH_MTU |
			       XR_QP_DEST_QPN | XR_QP_RQ_PSN | XR_QP_MAX_DEST_RD_ATOMIC |
			       XR_QP_MIN_RNR_TIMER), EINVAL, "family mismatch refused");

	/* Posting before RTS. */
	s = (struct xr_sge){ (uintptr_t)p.e[0].buf, 8, p.e[0].mr->lkey };
	w.sg_list = &s;
	w.num_sge = 1;
	w.opcode = XR_WR_SEND;
	ASSERT_EQ(xr_post_send(qp, &w, &bad), EINVAL, "send in INIT refused");
	ASSERT_TRUE(bad == &w, "bad_wr set");

	/* SGEs: outside the MR, another PD's lkey, too many. */
	qp = p.e[0].qp[0];
	s = (struct xr_sge){ (uintptr_t)p.e[0].buf + p.e[0].buf_len - 4, 8,
			     p.e[0].mr->lkey };
	ASSERT_EQ(xr_post_send(qp, &w, NULL), EINVAL, "SGE past the MR refused");
	ASSERT_TRUE(strstr(xr_last_error(), "not inside a memory region"), "SGE message");
	pd2 = xr_alloc_pd(p.e[0].ctx);
	mr2 = xr_reg_mr(pd2, p.e[0].buf, 4096, XR_ACCESS_LOCAL_WRITE);
	s = (struct xr_sge){ (uintptr_t)p.e[0].buf, 8, mr2->lkey };
	ASSERT_EQ(xr_post_send(qp, &w, NULL), EINVAL, "lkey of another PD refused");
	s = (struct xr_sge){ (uintptr_t)p.e[0].buf, 8, 0x7fffff00 };
	ASSERT_EQ(xr_post_send(qp, &w, NULL), EINVAL, "unknown lkey refused");
	w.num_sge = 5;
	ASSERT_EQ(xr_post_send(qp, &w, NULL), EINVAL, "too many SGEs refused");
	w.num_sge = 1;
	ASSERT_EQ(xr_dealloc_pd(pd2), EBUSY, "PD with an MR is busy");
	ASSERT_OK(xr_dereg_mr(mr2), "dereg");
	ASSERT_OK(xr_dealloc_pd(pd2), "dealloc");
	ASSERT_EQ(xr_destroy_cq(p.e[0].cq), EBUSY, "CQ in use is busy");

	/* Queue full: 1024 WRs fit, the next is refused with ENOMEM. */
	s = (struct xr_sge){ (uintptr_t)p.e[0].buf, 8, p.e[0].mr->lkey };
	for (i = 0; i < 1024; i++)
		if (recv_bytes(&p, 0, 0, 64))
			break;
	ASSERT_EQ(i, 1024, "receive queue takes its depth");
	ASSERT_EQ(recv_bytes(&p, 0, 0, 64), ENOMEM, "full receive queue refused");

	/* Memory registration rules. */
	ASSERT_TRUE(!xr_reg_mr(p.e[0].pd, p.e[0].buf, 64, XR_ACCESS_REMOTE_WRITE) &&
		    errno == EINVAL, "REMOTE_WRITE without LOCAL_WRITE refused");

	/* A device on an interface xroce is not attached to. */
	xr_hosts_sys(&p.h, 0, "ip link add xr9 type veth peer name xr8");
	if (!xr_hosts_enter(&p.h, 0)) {
		ASSERT_TRUE(!xr_open_device("xr9") && errno == ENODEV, "not attached");
		ASSERT_TRUE(strstr(xr_last_error(), "xroce attach xr9"), "says what to run");
		ASSERT_TRUE(!xr_open_device("nope0") && errno == ENODEV, "no interface");
		xr_hosts_enter(&p.h, -1);
	}
	ASSERT_OK(xr_destroy_qp(qp1), "destroy_qp");
out:
	rc_pair_destroy(&p);
}

struct peer_info {
	uint32_t qpn, rkey;
	uint64_t addr;
	union xr_gid gid;
};

/* The passive peer: a process of its own that the test kills. */
static void peer_main(struct xr_hosts *h, int to_parent, int from_parent,
		      const struct rc_opts *o)
{
	struct xr_qp_init_attr ia = { .qp_type = XR_QPT_RC,
				      .cap = { 16, 16, 1, 1, 0 } };
	struct peer_info me = { 0 }, them;
	struct xr_context *ctx;
	struct xr_pd *pd;
	struct xr_mr *mr;
	struct xr_qp *qp;
	static uint8_t buf[1 << 20];

	if (xr_hosts_enter(h, 1) || !(ctx = xr_open_device("xr0")))
		_exit(2);
	pd = xr_alloc_pd(ctx);
	mr = xr_reg_mr(pd, buf, sizeof(buf), XR_ACCESS_LOCAL_WRITE |
		       XR_ACCESS_REMOTE_WRITE);
	ia.send_cq = ia.recv_cq = xr_create_cq(ctx, 64, NULL);
	qp = xr_create_qp(pd, &ia);
	if (!mr || !qp || xr_query_gid(ctx, 1, 1, &me.gid))
		_exit(3);
	me.qpn = qp->qp_num;
	me.rkey = mr->rkey;
	me.addr = (uintptr_t)buf;
	if (write(to_parent, &me, sizeof(me)) != sizeof(me) ||
	    read(from_parent, &them, sizeof(them)) != sizeof(them) ||
	    rc_connect_qp(qp, them.qpn, &them.gid, 1, 200, 100, o))
		_exit(4);
	if (write(to_parent, &me, 1) != 1)
		_exit(5);
	for (;;)
		pause();	/* the progress thread answers the WRITEs */
}

/*
 * The peer process is killed (SIGKILL) in the middle of a stream of RDMA
 * WRITEs: the requester ends in RETRY_EXC_ERR after retry_cnt + 1 local
 * ACK timeouts, the rest is flushed, nothing hangs.
 */
XR_TEST_ROOT(rc_peer_killed_mid_transfer)
{
	struct rc_opts o = { .timeout = 12, .retry_cnt = 3 };
	int up[2], down[2], i, status, posted = 0, done = 0, errs = 0, flushed = 0;
	struct xr_qp_init_attr ia = { .qp_type = XR_QPT_RC,
				      .cap = { 64, 16, 1, 1, 0 } };
	struct peer_info me = { 0 }, peer;
	struct xr_context *ctx = NULL;
	struct xr_pd *pd = NULL;
	struct xr_mr *mr = NULL;
	struct xr_qp *qp = NULL;
	struct xr_cq *cq = NULL;
	static uint8_t buf[1 << 20];
	uint64_t t_kill = 0, t_err = 0, t_start = 0;
	struct xr_hosts h;
	char bin[512];
	pid_t pid;

	snprintf(bin, sizeof(bin), "%s/xroce", test__builddir());
	if (xr_ensure_bpffs() || xr_hosts_create(&h, 0) || pipe(up) || pipe(down)) {
		test__fail();
		return;
	}
	for (i = 0; i < 2; i++)
		ASSERT_OK(xr_hosts_sys(&h, i, "%s attach xr0 2>/dev/null", bin), "attach");
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		peer_main(&h, up[1], down[0], &o);
	if (!ASSERT_GE(pid, 1, "fork") ||
	    !ASSERT_EQ(read(up[0], &peer, sizeof(peer)), sizeof(peer), "peer info"))
		goto out;
	if (xr_hosts_enter(&h, 0))
		goto out;
	ctx = xr_open_device("xr0");
	xr_hosts_enter(&h, -1);
	if (!ASSERT_OK_PTR(ctx, "open_device"))
		goto out;
	pd = xr_alloc_pd(ctx);
	mr = xr_reg_mr(pd, buf, sizeof(buf), XR_ACCESS_LOCAL_WRITE);
	ia.send_cq = ia.recv_cq = cq = xr_create_cq(ctx, 256, NULL);
	qp = xr_create_qp(pd, &ia);
	if (!ASSERT_OK_PTR(qp, "create_qp") ||
	    !ASSERT_OK(xr_query_gid(ctx, 1, 1, &me.gid), "gid"))
		goto out;
	me.qpn = qp->qp_num;
	if (!ASSERT_EQ(write(down[1], &me, sizeof(me)), sizeof(me), "send info") ||
	    !ASSERT_OK(rc_connect_qp(qp, peer.qpn, &peer.gid, 1, 100, 200, &o), "connect") ||
	    !ASSERT_EQ(read(up[0], &me, 1), 1, "peer connected"))
		goto out;

	/* Keep up to 32 WRITEs of 64 KiB in flight; kill the peer after 300 ms. */
	for (;;) {
		struct xr_wc wc[16];
		uint64_t now = ms_now();
		int n;

		if (!t_start)
			t_start = now;
		while (!t_err && posted - done < 32) {
			struct xr_sge s = { (uintptr_t)buf, 65536, mr->lkey };
			struct xr_send_wr w = { .wr_id = posted, .sg_list = &s, .num_sge = 1,
						.opcode = XR_WR_RDMA_WRITE,
						.send_flags = XR_SEND_SIGNALED };

			w.rdma.remote_addr = peer.addr + (posted % 16) * 65536;
			w.rdma.rkey = peer.rkey;
			if (xr_post_send(qp, &w, NULL))
				break;
			posted++;
		}
		if (!t_kill && done >= 20) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			pid = 0;
			t_kill = ms_now();
		}
		n = xr_poll_cq(cq, 16, wc);
		for (i = 0; i < n; i++) {
			done++;
			if (wc[i].status == XR_WC_RETRY_EXC_ERR && !errs++)
				t_err = ms_now();
			else if (wc[i].status == XR_WC_WR_FLUSH_ERR)
				flushed++;
			else if (wc[i].status != XR_WC_SUCCESS)
				test__log("unexpected status %d", wc[i].status);
		}
		if (t_err && done == posted)
			break;
		if ((t_kill && ms_now() - t_kill > 5000) || now - t_start > 20000)
			break;
		if (!n)
			usleep(50);
	}
	ASSERT_GE(t_kill, 1, "peer killed mid-transfer");
	ASSERT_EQ(errs, 1, "one RETRY_EXC_ERR");
	ASSERT_EQ(done, posted, "every WR completed");
	ASSERT_GE(flushed, 1, "the rest flushed");
	test__log("%d WRITEs completed before the kill; RETRY_EXC_ERR %llu ms after it "
		  "(bound (3 + 1) x 16.8 ms + 100)", posted - errs - flushed,
		  (unsigned long long)(t_err - t_kill));
	ASSERT_LE(t_err - t_kill, 4 * 17 + 100, "within retry_cnt x timeout");
out:
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	rc_objs_destroy(qp, cq, mr, pd, ctx);
	for (i = 0; i < 2; i++)
		xr_hosts_sys(&h, i, "%s detach xr0 >/dev/null 2>&1", bin);
	xr_hosts_destroy(&h);
}
