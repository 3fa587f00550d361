// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "rc_util.h"
#include "test_progs.h"
#include "test_util.h"

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

void rc_fill(uint8_t *b, size_t n, unsigned seed)
{
	uint32_t x = seed * 2654435761u + 1;
	size_t i;

	for (i = 0; i < n; i++) {
		x = x * 1103515245 + 12345;
		b[i] = x >> 16;
	}
}

int rc_wait(struct xr_cq *cq, struct xr_wc *wc, int n, int ms)
{
	uint64_t end = now_ms() + ms;
	int got = 0;

	while (got < n && now_ms() < end) {
		int r = xr_poll_cq(cq, n - got, wc + got);

		if (r < 0) {
			test__log("poll_cq: %s", xr_last_error());
			break;
		}
		got += r;
		if (!r)
			usleep(20);
	}
	return got;
}

int rc_connect_qp(struct xr_qp *qp, uint32_t dest_qpn, const union xr_gid *dgid,
		  int gidx, uint32_t sq_psn, uint32_t rq_psn, const struct rc_opts *o)
{
	struct xr_qp_attr attr = { 0 };

	attr.qp_state = XR_QPS_INIT;
	attr.port_num = 1;
	attr.qp_access_flags = XR_ACCESS_LOCAL_WRITE | XR_ACCESS_REMOTE_WRITE |
			       XR_ACCESS_REMOTE_READ;
	if (xr_modify_qp(qp, &attr, XR_QP_STATE | XR_QP_PKEY_INDEX | XR_QP_PORT |
			 XR_QP_ACCESS_FLAGS)) {
		test__log("INIT: %s", xr_last_error());
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = XR_QPS_RTR;
	attr.path_mtu = o->path_mtu ? o->path_mtu : XR_MTU_1024;
	attr.dest_qp_num = dest_qpn;
	attr.rq_psn = rq_psn;
	attr.max_dest_rd_atomic = 16;
	attr.min_rnr_timer = o->min_rnr_timer ? o->min_rnr_timer : 1;
	attr.ah_attr.is_global = 1;
	attr.ah_attr.port_num = 1;
	attr.ah_attr.grh.dgid = *dgid;
	attr.ah_attr.grh.sgid_index = gidx;
	attr.ah_attr.grh.hop_limit = 64;
	attr.ah_attr.grh.traffic_class = o->tclass;
	if (xr_modify_qp(qp, &attr, XR_QP_STATE | XR_QP_AV | XR_QP_PATH_MTU |
			 XR_QP_DEST_QPN | XR_QP_RQ_PSN | XR_QP_MAX_DEST_RD_ATOMIC |
			 XR_QP_MIN_RNR_TIMER)) {
		test__log("RTR: %s", xr_last_error());
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = XR_QPS_RTS;
	attr.sq_psn = sq_psn;
	attr.timeout = o->timeout ? o->timeout : 12;
	attr.retry_cnt = o->retry_cnt ? o->retry_cnt : 7;
	attr.rnr_retry = o->rnr_retry ? o->rnr_retry : 7;
	attr.max_rd_atomic = 16;
	if (xr_modify_qp(qp, &attr, XR_QP_STATE | XR_QP_TIMEOUT | XR_QP_RETRY_CNT |
			 XR_QP_RNR_RETRY | XR_QP_SQ_PSN | XR_QP_MAX_QP_RD_ATOMIC)) {
		test__log("RTS: %s", xr_last_error());
		return -1;
	}
	return 0;
}

int rc_connect(struct rc_pair *p, int a, int qi, const struct rc_opts *o)
{
	int b = !a, gidx = o->ipv6 ? 2 : 1;
	union xr_gid dgid;

	if (xr_query_gid(p->e[b].ctx, 1, gidx, &dgid)) {
		test__log("query_gid: %s", xr_last_error());
		return -1;
	}
	return rc_connect_qp(p->e[a].qp[qi], p->e[b].qp[qi]->qp_num, &dgid, gidx,
			     o->psn[a], o->psn[b], o);
}

int rc_pair_create(struct rc_pair *p, const struct rc_opts *o)
{
	char bin[512];
	int i, q;

	memset(p, 0, sizeof(*p));
	p->nqp = o->nqp ? o->nqp : 1;
	if (xr_ensure_bpffs() ||
	    (o->relay ? xr_hosts_create_relay(&p->h, o->ifmtu) :
	     o->routed ? xr_hosts_create_routed(&p->h, o->ifmtu) :
			 xr_hosts_create(&p->h, o->ifmtu)))
		return -1;
	snprintf(bin, sizeof(bin), "%s/xroce", test__builddir());
	for (i = 0; i < 2; i++) {
		struct rc_end *e = &p->e[i];
		struct xr_qp_init_attr ia = { 0 };

		if (xr_hosts_sys(&p->h, i, "%s attach xr0 2>/dev/null", bin)) {
			test__log("xroce attach on host %d failed", i);
			return -1;
		}
		if (xr_hosts_enter(&p->h, i))
			return -1;
		e->ctx = xr_open_device("xr0");
		xr_hosts_enter(&p->h, -1);
		if (!e->ctx) {
			test__log("open_device: %s", xr_last_error());
			return -1;
		}
		e->pd = xr_alloc_pd(e->ctx);
		e->cq = xr_create_cq(e->ctx, 4096, NULL);
		e->buf_len = o->buf_len ? o->buf_len : 4 << 20;
		e->buf = mmap(NULL, e->buf_len, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (!e->pd || !e->cq || e->buf == MAP_FAILED) {
			test__log("pd/cq/buffer: %s", xr_last_error());
			e->buf = NULL;
			return -1;
		}
		e->mr = xr_reg_mr(e->pd, e->buf, e->buf_len, XR_ACCESS_LOCAL_WRITE |
				  XR_ACCESS_REMOTE_WRITE | XR_ACCESS_REMOTE_READ);
		ia.send_cq = ia.recv_cq = e->cq;
		ia.qp_type = XR_QPT_RC;
		ia.cap.max_send_wr = 1024;
		ia.cap.max_recv_wr = 1024;
		ia.cap.max_send_sge = 4;
		ia.cap.max_recv_sge = 4;
		for (q = 0; q < p->nqp; q++) {
			e->qp[q] = xr_create_qp(e->pd, &ia);
			if (!e->qp[q]) {
				test__log("create_qp: %s", xr_last_error());
				return -1;
			}
		}
		if (!e->mr) {
			test__log("reg_mr: %s", xr_last_error());
			return -1;
		}
	}
	for (q = 0; q < p->nqp; q++)
		for (i = 0; i < 2; i++)
			if (rc_connect(p, i, q, o))
				return -1;
	return 0;
}

void rc_objs_destroy(struct xr_qp *qp, struct xr_cq *cq, struct xr_mr *mr,
		     struct xr_pd *pd, struct xr_context *ctx)
{
	if (qp)
		xr_destroy_qp(qp);
	if (cq)
		xr_destroy_cq(cq);
	if (mr)
		xr_dereg_mr(mr);
	if (pd)
		xr_dealloc_pd(pd);
	if (ctx)
		xr_close_device(ctx);
}

void rc_pair_destroy(struct rc_pair *p)
{
	char bin[512];
	int i, q;

	snprintf(bin, sizeof(bin), "%s/xroce", test__builddir());
	for (i = 0; i < 2; i++) {
		struct rc_end *e = &p->e[i];

		for (q = 0; q < 4; q++)
			if (e->qp[q])
				xr_destroy_qp(e->qp[q]);
		if (e->mr)
			xr_dereg_mr(e->mr);
		if (e->cq)
			xr_destroy_cq(e->cq);
		if (e->pd)
			xr_dealloc_pd(e->pd);
		if (e->ctx)
			xr_close_device(e->ctx);
		if (e->buf)
			munmap(e->buf, e->buf_len);
		if (p->h.ns[i][0])
			xr_hosts_sys(&p->h, i, "%s detach xr0 >/dev/null 2>&1", bin);
	}
	xr_hosts_destroy(&p->h);
}
