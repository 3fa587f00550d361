// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * RC bandwidth between two network namespaces (both ends in this process):
 * a stream of RDMA WRITEs (or SENDs) of SIZE bytes, DEPTH in flight, for
 * about SECS seconds; prints Gbit/s. `make bench` runs it next to iperf3
 * (kernel TCP) on the same kind of veth pair.
 *   rc_bw NS_A NS_B IFNAME PEER_IP_A PEER_IP_B [write|send] [SIZE] [MTU]
 * xroce must be attached to IFNAME in both namespaces.
 */
#include <arpa/inet.h>
#include <stdbool.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <xroce/xroce.h>

struct end {
	struct xr_context *ctx;
	struct xr_pd *pd;
	struct xr_cq *cq;
	struct xr_qp *qp;
	struct xr_mr *mr;
	uint8_t *buf;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int enter(const char *ns)
{
	char p[128];
	int fd, ret;

	snprintf(p, sizeof(p), "/run/netns/%s", ns);
	fd = open(p, O_RDONLY);
	if (fd < 0)
		return -1;
	ret = setns(fd, CLONE_NEWNET);
	close(fd);
	return ret;
}

static int open_end(struct end *e, const char *ns, const char *ifname, size_t len)
{
	struct xr_qp_init_attr ia = { .qp_type = XR_QPT_RC,
				      .cap = { 256, 256, 1, 1, 0 } };

	if (enter(ns) || !(e->ctx = xr_open_device(ifname))) {
		fprintf(stderr, "rc_bw: %s: %s\n", ns, xr_last_error());
		return -1;
	}
	e->buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	e->pd = xr_alloc_pd(e->ctx);
	e->mr = xr_reg_mr(e->pd, e->buf, len, XR_ACCESS_LOCAL_WRITE |
			  XR_ACCESS_REMOTE_WRITE);
	e->cq = xr_create_cq(e->ctx, 1024, NULL);
	ia.send_cq = ia.recv_cq = e->cq;
	e->qp = xr_create_qp(e->pd, &ia);
	return e->qp ? 0 : -1;
}

static int connect_end(struct end *e, const struct end *peer, const char *peer_ip,
		       enum xr_mtu mtu)
{
	struct xr_qp_attr a = { .qp_state = XR_QPS_INIT, .port_num = 1,
				.qp_access_flags = XR_ACCESS_REMOTE_WRITE };

	if (xr_modify_qp(e->qp, &a, XR_QP_STATE | XR_QP_PKEY_INDEX | XR_QP_PORT |
			 XR_QP_ACCESS_FLAGS))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = XR_QPS_RTR;
	a.path_mtu = mtu;
	a.dest_qp_num = peer->qp->qp_num;
	a.rq_psn = 1000;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.sgid_index = 1;
	a.ah_attr.grh.dgid.raw[10] = a.ah_attr.grh.dgid.raw[11] = 0xff;
	inet_pton(AF_INET, peer_ip, &a.ah_attr.grh.dgid.raw[12]);
	if (xr_modify_qp(e->qp, &a, XR_QP_STATE | XR_QP_AV | XR_QP_PATH_MTU |
			 XR_QP_DEST_QPN | XR_QP_RQ_PSN | XR_QP_MAX_DEST_RD_ATOMIC |
			 XR_QP_MIN_RNR_TIMER))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = XR_QPS_RTS;
	a.sq_psn = 1000;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return xr_modify_qp(e->qp, &a, XR_QP_STATE | XR_QP_TIMEOUT | XR_QP_RETRY_CNT |
			    XR_QP_RNR_RETRY | XR_QP_SQ_PSN | XR_QP_MAX_QP_RD_ATOMIC);
}

int main(int argc, char **argv)
{
	const char *op = argc > 6 ? argv[6] : "write";
	uint32_t size = argc > 7 ? strtoul(argv[7], NULL, 0) : 65536;
	enum xr_mtu mtu = argc > 8 && atoi(argv[8]) == 4096 ? XR_MTU_4096 :
			  argc > 8 && atoi(argv[8]) == 2048 ? XR_MTU_2048 : XR_MTU_1024;
	bool send = !strcmp(op, "send");
	size_t len = 64u << 20;
	struct end a = { 0 }, b = { 0 };
	int depth = 64, posted = 0, done = 0, recvs = 0, i;
	double t0, t;

	if (argc < 6) {
		fprintf(stderr, "usage: rc_bw NS_A NS_B IFNAME IP_A IP_B [write|send] [SIZE] [MTU]\n");
		return 2;
	}
	if (open_end(&a, argv[1], argv[3], len) || open_end(&b, argv[2], argv[3], len) ||
	    enter(argv[1]) || connect_end(&a, &b, argv[5], mtu) ||
	    enter(argv[2]) || connect_end(&b, &a, argv[4], mtu)) {
		fprintf(stderr, "rc_bw: setup: %s\n", xr_last_error());
		return 1;
	}
	memset(a.buf, 0x5a, len);
	t0 = now_s();
	for (;;) {
		struct xr_wc wc[64];
		int n;

		while (posted - done < depth) {
			struct xr_sge s = { (uintptr_t)a.buf + (posted % 64) * (uint64_t)size %
					    len, size, a.mr->lkey };
			struct xr_send_wr w = { .wr_id = posted, .sg_list = &s, .num_sge = 1,
						.opcode = send ? XR_WR_SEND : XR_WR_RDMA_WRITE,
						.send_flags = XR_SEND_SIGNALED };

			if (send && recvs - posted < depth) {
				struct xr_sge r = { (uintptr_t)b.buf, size, b.mr->lkey };
				struct xr_recv_wr rw = { .sg_list = &r, .num_sge = 1 };

				for (i = 0; i < depth; i++, recvs++)
					if (xr_post_recv(b.qp, &rw, NULL))
						break;
			}
			w.rdma.remote_addr = (uintptr_t)b.buf + (posted % 64) * (uint64_t)size % len;
			w.rdma.rkey = b.mr->rkey;
			if (xr_post_send(a.qp, &w, NULL))
				break;
			posted++;
		}
		n = xr_poll_cq(a.cq, 64, wc);
		for (i = 0; i < n; i++) {
			if (wc[i].status != XR_WC_SUCCESS) {
				fprintf(stderr, "rc_bw: completion status %d\n", wc[i].status);
				return 1;
			}
			done++;
		}
		if (send)
			while (xr_poll_cq(b.cq, 64, wc) > 0)
				;
		t = now_s() - t0;
		if (t > 3.0)
			break;
	}
	printf("%s %u B x %d in %.2f s = %.2f Gbit/s\n", op, size, done, t,
	       (double)done * size * 8 / t / 1e9);
	xr_close_device(a.ctx);
	xr_close_device(b.ctx);
	return 0;
}
