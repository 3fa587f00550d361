// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Tier 3: every RC operation at every size that matters for segmentation
 * (0, 1, MTU-1, MTU, MTU+1, 1 MiB) at path MTU 1024 and 256, with and
 * without scatter-gather, signaled and not, two QPs in both directions at
 * once, and a PSN wrap across 2^24. Every byte is compared.
 */
#include <stdlib.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "rc_util.h"
#include "test_progs.h"

#define SRC_OFF 0
#define DST_OFF (2u << 20)
#define GAP 40		/* bytes between scatter-gather pieces */

/* Splits [base, base+len) into @n pieces separated by GAP bytes. */
static int make_sges(struct xr_sge *sg, int n, uint8_t *base, uint32_t len,
		     uint32_t lkey)
{
	uint32_t off = 0, i, piece = n > 1 ? len / n : len;

	for (i = 0; i < (uint32_t)n; i++) {
		uint32_t l = i == (uint32_t)n - 1 ? len - piece * i : piece;

		sg[i].addr = (uintptr_t)base + off;
		sg[i].length = l;
		sg[i].lkey = lkey;
		off += l + GAP;
	}
	return n;
}

/* Gathers the pieces back into one buffer for comparison. */
static void gather(uint8_t *out, const struct xr_sge *sg, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		memcpy(out, (void *)(uintptr_t)sg[i].addr, sg[i].length);
		out += sg[i].length;
	}
}

struct op_case {
	enum xr_wr_opcode op;
	uint32_t len;
	int nsge;		/* on both sides */
	bool unsignaled;	/* post an unsignaled WR before the signaled one */
};

/* One operation from host @a to host @b on QP @qi; true when verified. */
static bool run_op(struct rc_pair *p, int a, int qi, const struct op_case *c,
		   unsigned seed)
{
	static uint8_t want[(1u << 20) + 64], got[(1u << 20) + 64];
	struct rc_end *ea = &p->e[a], *eb = &p->e[!a];
	struct xr_sge ssg[4], rsg[4];
	struct xr_send_wr swr = { 0 }, pre = { 0 };
	struct xr_recv_wr rwr = { 0 };
	bool imm = c->op == XR_WR_SEND_WITH_IMM || c->op == XR_WR_RDMA_WRITE_WITH_IMM;
	bool recv = c->op == XR_WR_SEND || imm;
	bool read = c->op == XR_WR_RDMA_READ;
	/* Data flows from src (on the side that owns it) to dst. */
	struct rc_end *src = read ? eb : ea, *dst = read ? ea : eb;
	struct xr_wc wc[4];
	int n, nl, nr = 0;
	uint32_t span = c->len + GAP * 4;

	rc_fill(src->buf + SRC_OFF, span, seed);
	memset(dst->buf + DST_OFF, 0xee, span);
	nl = make_sges(ssg, c->nsge, (read ? dst : src)->buf + (read ? DST_OFF : SRC_OFF),
		       c->len, ea->mr->lkey);
	if (recv) {
		nr = make_sges(rsg, c->op == XR_WR_SEND || c->op == XR_WR_SEND_WITH_IMM ?
			       c->nsge : 1, eb->buf + DST_OFF,
			       c->op == XR_WR_RDMA_WRITE_WITH_IMM ? 0 : c->len,
			       eb->mr->lkey);
		rwr.wr_id = 0x5000 + seed;
		rwr.sg_list = rsg;
		rwr.num_sge = nr;
		if (!ASSERT_OK(xr_post_recv(eb->qp[qi], &rwr, NULL), "post_recv"))
			return false;
	}
	swr.wr_id = 0x7000 + seed;
	swr.sg_list = ssg;
	swr.num_sge = nl;
	swr.opcode = c->op;
	swr.send_flags = XR_SEND_SIGNALED;
	swr.imm_data = htonl(0xabc00000 | seed);
	/* The remote side of WRITE (destination) and READ (source) is flat. */
	swr.rdma.remote_addr = (uintptr_t)(read ? src->buf + SRC_OFF : dst->buf + DST_OFF);
	swr.rdma.rkey = eb->mr->rkey;
	if (c->unsignaled) {
		/* An unsignaled zero-length WRITE first: retired silently. */
		pre.wr_id = 0xdead;
		pre.opcode = XR_WR_RDMA_WRITE;
		pre.rdma.remote_addr = (uintptr_t)eb->buf;
		pre.rdma.rkey = eb->mr->rkey;
		pre.next = &swr;
		if (!ASSERT_OK(xr_post_send(ea->qp[qi], &pre, NULL), "post_send pair"))
			return false;
	} else if (!ASSERT_OK(xr_post_send(ea->qp[qi], &swr, NULL), "post_send")) {
		return false;
	}
	n = rc_wait(ea->cq, wc, 1, 5000);
	if (!ASSERT_EQ(n, 1, "requester completion") ||
	    !ASSERT_EQ(wc[0].status, XR_WC_SUCCESS, "requester status") ||
	    !ASSERT_EQ(wc[0].wr_id, 0x7000 + seed, "requester wr_id (unsignaled WR silent)") ||
	    !ASSERT_EQ(wc[0].opcode, read ? XR_WC_RDMA_READ :
		       c->op <= XR_WR_RDMA_WRITE_WITH_IMM ? XR_WC_RDMA_WRITE : XR_WC_SEND,
		       "requester opcode"))
		return false;
	if (recv) {
		n = rc_wait(eb->cq, wc, 1, 5000);
		if (!ASSERT_EQ(n, 1, "responder completion") ||
		    !ASSERT_EQ(wc[0].status, XR_WC_SUCCESS, "responder status") ||
		    !ASSERT_EQ(wc[0].wr_id, 0x5000 + seed, "responder wr_id") ||
		    !ASSERT_EQ(wc[0].byte_len, c->len, "responder byte_len") ||
		    !ASSERT_EQ(wc[0].opcode, c->op == XR_WR_RDMA_WRITE_WITH_IMM ?
			       XR_WC_RECV_RDMA_WITH_IMM : XR_WC_RECV, "responder opcode") ||
		    !ASSERT_EQ(!!(wc[0].wc_flags & XR_WC_WITH_IMM), imm, "with imm") ||
		    (imm && !ASSERT_EQ(ntohl(wc[0].imm_data), 0xabc00000 | seed, "imm")))
			return false;
	}
	/* Bytes: the destination, gathered the way it was scattered. */
	/* What was sent: the gathered source pieces (READ: the flat source). */
	if (read)
		memcpy(want, src->buf + SRC_OFF, c->len);
	else
		gather(want, ssg, nl);
	if (read) {
		gather(got, ssg, nl);
	} else if (c->op == XR_WR_SEND || c->op == XR_WR_SEND_WITH_IMM) {
		gather(got, rsg, nr);
	} else {
		memcpy(got, dst->buf + DST_OFF, c->len);
	}
	if (read || c->op == XR_WR_RDMA_WRITE || c->op == XR_WR_RDMA_WRITE_WITH_IMM) {
		/* Flat destinations: nothing written past the end. */
		const uint8_t *end = read ? (uint8_t *)(uintptr_t)ssg[nl - 1].addr +
					    ssg[nl - 1].length : dst->buf + DST_OFF + c->len;

		if (!ASSERT_EQ(end[0], 0xee, "no write past the end"))
			return false;
	}
	return ASSERT_MEMEQ(got, want, c->len, "payload");
}

static void sizes_at(enum xr_mtu mtu)
{
	static const enum xr_wr_opcode ops[] = {
		XR_WR_SEND, XR_WR_SEND_WITH_IMM, XR_WR_RDMA_WRITE,
		XR_WR_RDMA_WRITE_WITH_IMM, XR_WR_RDMA_READ,
	};
	struct rc_opts o = { .path_mtu = mtu, .psn = { 0x000100, 0xabcdef },
			     .ifmtu = mtu == XR_MTU_4096 ? 9000 : 0 };
	uint32_t m = xr_mtu_to_bytes(mtu);
	uint32_t sizes[] = { 0, 1, m - 1, m, m + 1, 3 * m + 5, 1u << 20 };
	struct rc_pair p;
	unsigned seed = 1, i, j, ok = 0, total = 0;

	if (rc_pair_create(&p, &o)) {
		test__fail();
		goto out;
	}
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		for (j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++) {
			struct op_case c = { .op = ops[i], .len = sizes[j], .nsge = 1 };

			total++;
			if (run_op(&p, seed & 1, 0, &c, seed))
				ok++;
			else
				test__log("op %d len %u failed", ops[i], sizes[j]);
			seed++;
		}
	ASSERT_EQ(ok, total, "operations verified");
out:
	rc_pair_destroy(&p);
}

XR_TEST_ROOT(rc_ops_sizes_mtu1024)
{
	sizes_at(XR_MTU_1024);
}

XR_TEST_ROOT(rc_ops_sizes_mtu256)
{
	sizes_at(XR_MTU_256);
}

/* Jumbo frames: each spans two UMEM frames (multi-buffer AF_XDP). */
XR_TEST_ROOT(rc_ops_sizes_mtu4096)
{
	sizes_at(XR_MTU_4096);
}

XR_TEST_ROOT(rc_ops_sgl_unsignaled)
{
	static const enum xr_wr_opcode ops[] = {
		XR_WR_SEND, XR_WR_RDMA_WRITE_WITH_IMM, XR_WR_RDMA_READ,
	};
	struct rc_opts o = { .psn = { 5, 6 } };
	struct rc_pair p;
	unsigned i, seed = 100;

	if (rc_pair_create(&p, &o)) {
		test__fail();
		goto out;
	}
	for (i = 0; i < 3; i++) {
		struct op_case c = { .op = ops[i], .len = 5000, .nsge = 4,
				     .unsignaled = true };
		struct op_case d = { .op = ops[i], .len = 3, .nsge = 3 };

		ASSERT_TRUE(run_op(&p, 0, 0, &c, seed++), "4 SGEs, after an unsignaled WR");
		ASSERT_TRUE(run_op(&p, 1, 0, &d, seed++), "3 SGEs, 3 bytes");
	}
out:
	rc_pair_destroy(&p);
}

/* Both directions on two QPs at once, each stream verified. */
XR_TEST_ROOT(rc_two_qps_both_directions)
{
	struct rc_opts o = { .nqp = 2, .psn = { 77, 0x800000 } };
	struct rc_pair p;
	int round, a, q, ok = 0;

	if (rc_pair_create(&p, &o)) {
		test__fail();
		goto out;
	}
	for (round = 0; round < 6; round++) {
		struct xr_sge ss[2][2], rs[2][2];
		struct xr_send_wr sw[2][2];
		struct xr_recv_wr rw[2][2];
		struct xr_wc wc[8];
		int n[2] = { 0, 0 };
		uint32_t len = 3000 + round * 1111;

		for (a = 0; a < 2; a++)
			for (q = 0; q < 2; q++) {
				uint32_t so = (a * 2 + q) * 65536, ro = 1048576 + (a * 2 + q) * 65536;

				rc_fill(p.e[a].buf + so, len, round * 4 + a * 2 + q);
				memset(p.e[!a].buf + ro, 0, len);
				ss[a][q] = (struct xr_sge){ (uintptr_t)p.e[a].buf + so, len,
							   p.e[a].mr->lkey };
				rs[a][q] = (struct xr_sge){ (uintptr_t)p.e[!a].buf + ro, len,
							   p.e[!a].mr->lkey };
				rw[a][q] = (struct xr_recv_wr){ .wr_id = q, .sg_list = &rs[a][q],
								.num_sge = 1 };
				sw[a][q] = (struct xr_send_wr){ .wr_id = q, .sg_list = &ss[a][q],
								.num_sge = 1, .opcode = XR_WR_SEND,
								.send_flags = XR_SEND_SIGNALED };
				ASSERT_OK(xr_post_recv(p.e[!a].qp[q], &rw[a][q], NULL), "recv");
			}
		for (a = 0; a < 2; a++)
			for (q = 0; q < 2; q++)
				ASSERT_OK(xr_post_send(p.e[a].qp[q], &sw[a][q], NULL), "send");
		for (a = 0; a < 2; a++) {
			/* Each host: 2 send and 2 receive completions. */
			n[a] = rc_wait(p.e[a].cq, wc, 4, 5000);
			ASSERT_EQ(n[a], 4, "completions");
			for (q = 0; q < n[a]; q++)
				ASSERT_EQ(wc[q].status, XR_WC_SUCCESS, "status");
		}
		for (a = 0; a < 2; a++)
			for (q = 0; q < 2; q++)
				if (ASSERT_MEMEQ((void *)(uintptr_t)rs[a][q].addr,
						 (void *)(uintptr_t)ss[a][q].addr, len, "stream"))
					ok++;
	}
	ASSERT_EQ(ok, 24, "streams verified");
out:
	rc_pair_destroy(&p);
}

/* Start just below 2^24 so PSNs wrap in the middle of multi-packet messages. */
XR_TEST_ROOT(rc_psn_wrap)
{
	struct rc_opts o = { .path_mtu = XR_MTU_256,
			     .psn = { 0xfffff0, 0xfffffa } };
	struct rc_pair p;
	unsigned i, ok = 0;

	if (rc_pair_create(&p, &o)) {
		test__fail();
		goto out;
	}
	for (i = 0; i < 12; i++) {
		static const enum xr_wr_opcode ops[] = { XR_WR_SEND, XR_WR_RDMA_WRITE,
							 XR_WR_RDMA_READ };
		struct op_case c = { .op = ops[i % 3], .len = 256 * 7 + 13, .nsge = 1 };

		ok += run_op(&p, i & 1, 0, &c, 500 + i);
	}
	ASSERT_EQ(ok, 12, "operations across the wrap verified");
out:
	rc_pair_destroy(&p);
}

/* The same operations between IPv6 GIDs (index 2: fd77::1 and fd77::2). */
XR_TEST_ROOT(rc_ops_ipv6)
{
	static const enum xr_wr_opcode ops[] = { XR_WR_SEND_WITH_IMM, XR_WR_RDMA_WRITE,
						 XR_WR_RDMA_READ };
	struct rc_opts o = { .ipv6 = 1, .psn = { 1, 2 } };
	struct rc_pair p;
	union xr_gid g;
	unsigned i, ok = 0;

	if (rc_pair_create(&p, &o)) {
		test__fail();
		goto out;
	}
	ASSERT_OK(xr_query_gid(p.e[0].ctx, 1, 2, &g), "gid 2");
	ASSERT_TRUE(g.raw[0] == 0xfd && g.raw[1] == 0x77 && g.raw[15] == 1, "gid 2 is fd77::1");
	ASSERT_OK(xr_query_gid(p.e[0].ctx, 1, 1, &g), "gid 1");
	ASSERT_TRUE(g.raw[10] == 0xff && g.raw[11] == 0xff && g.raw[12] == 10 &&
		    g.raw[15] == 1, "gid 1 is ::ffff:10.77.0.1");
	for (i = 0; i < 6; i++) {
		struct op_case c = { .op = ops[i % 3], .len = 1000 + 2000 * i, .nsge = 2 };

		ok += run_op(&p, i & 1, 0, &c, 900 + i);
	}
	ASSERT_EQ(ok, 6, "IPv6 operations verified");
out:
	rc_pair_destroy(&p);
}

/*
 * Routed RoCEv2: the peer is in another subnet, frames go to the router's
 * MAC (next hop from the kernel's route), and the router decrements TTL /
 * hop limit on the way, which the ICRC must not cover. IPv4 and IPv6.
 */
XR_TEST_ROOT(rc_ops_routed)
{
	static const enum xr_wr_opcode ops[] = { XR_WR_SEND, XR_WR_RDMA_WRITE_WITH_IMM,
						 XR_WR_RDMA_READ };
	unsigned v, i, ok = 0;

	for (v = 0; v < 2; v++) {
		struct rc_opts o = { .routed = 1, .ipv6 = v, .psn = { 10, 20 } };
		struct rc_pair p;

		if (rc_pair_create(&p, &o)) {
			test__fail();
			rc_pair_destroy(&p);
			return;
		}
		for (i = 0; i < 6; i++) {
			struct op_case c = { .op = ops[i % 3], .len = 3000 + 7000 * i,
					     .nsge = 1 };

			ok += run_op(&p, i & 1, 0, &c, 1300 + i);
		}
		rc_pair_destroy(&p);
	}
	ASSERT_EQ(ok, 12, "operations across a router verified (IPv4, IPv6)");
}
