// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Verbs objects: protection domains, memory regions, completion queues and
 * RC queue pairs with the IBTA state machine; posting work requests.
 * Misuse is refused here with an errno and a message (xr_last_error()),
 * before anything reaches the wire.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "engine.h"
#include "neigh.h"

/* --- protection domains ------------------------------------------------- */

struct xr_pd *xr_alloc_pd(struct xr_context *ctx)
{
	struct xr_pd *pd = calloc(1, sizeof(*pd));

	if (!pd) {
		xr_set_err(ENOMEM, "out of memory");
		return NULL;
	}
	pd->ctx = ctx;
	return pd;
}

int xr_dealloc_pd(struct xr_pd *pd)
{
	struct xr_context *ctx;

	if (!pd)
		return xr_set_err(EINVAL, "no PD");
	ctx = pd->ctx;
	pthread_mutex_lock(&ctx->lock);
	if (pd->nmr || pd->nqp) {
		pthread_mutex_unlock(&ctx->lock);
		return xr_set_err(EBUSY, "PD still has %d MRs and %d QPs", pd->nmr,
				  pd->nqp);
	}
	pthread_mutex_unlock(&ctx->lock);
	free(pd);
	return 0;
}

/* --- memory regions ------------------------------------------------------ */

struct xr_mr *xr_reg_mr(struct xr_pd *pd, void *addr, size_t length, int access)
{
	struct xr_context *ctx;
	struct xr_mr *mr;
	int i;

	if (!pd) {
		xr_set_err(EINVAL, "no PD");
		return NULL;
	}
	ctx = pd->ctx;
	if (access & ~(XR_ACCESS_LOCAL_WRITE | XR_ACCESS_REMOTE_WRITE |
		       XR_ACCESS_REMOTE_READ | XR_ACCESS_REMOTE_ATOMIC)) {
		xr_set_err(EINVAL, "unknown access flags 0x%x", access);
		return NULL;
	}
	/* IBTA 10.6.3.1: remote write needs local write. */
	if ((access & (XR_ACCESS_REMOTE_WRITE | XR_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & XR_ACCESS_LOCAL_WRITE)) {
		xr_set_err(EINVAL, "REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE");
		return NULL;
	}
	if (!addr && length) {
		xr_set_err(EINVAL, "NULL address");
		return NULL;
	}
	mr = calloc(1, sizeof(*mr));
	if (!mr) {
		xr_set_err(ENOMEM, "out of memory");
		return NULL;
	}
	pthread_mutex_lock(&ctx->lock);
	for (i = 0; i < XR_MAX_MR && ctx->mrs[i]; i++)
		;
	if (i == XR_MAX_MR) {
		pthread_mutex_unlock(&ctx->lock);
		free(mr);
		xr_set_err(ENOMEM, "too many MRs (%d)", XR_MAX_MR);
		return NULL;
	}
	/* Key: slot in the upper 24 bits, a changing tag in the low 8. */
	ctx->mr_gen = ctx->mr_gen * 1103515245 + 12345;
	mr->lkey = mr->rkey = (uint32_t)i << 8 | ((ctx->mr_gen >> 16) & 0xff);
	mr->context = ctx;
	mr->pd = pd;
	mr->addr = addr;
	mr->length = length;
	mr->access = access;
	ctx->mrs[i] = mr;
	pd->nmr++;
	pthread_mutex_unlock(&ctx->lock);
	return mr;
}

int xr_dereg_mr(struct xr_mr *mr)
{
	struct xr_context *ctx;

	if (!mr)
		return xr_set_err(EINVAL, "no MR");
	ctx = mr->context;
	pthread_mutex_lock(&ctx->lock);
	ctx->mrs[mr->lkey >> 8] = NULL;
	mr->pd->nmr--;
	pthread_mutex_unlock(&ctx->lock);
	free(mr);
	return 0;
}

struct xr_mr *xr_mr_check(struct xr_context *ctx, struct xr_pd *pd, uint32_t key,
			  uint64_t va, uint64_t len, int access)
{
	struct xr_mr *mr = (key >> 8) < XR_MAX_MR ? ctx->mrs[key >> 8] : NULL;
	uint64_t start;

	if (!mr || mr->lkey != key || mr->pd != pd)
		return NULL;
	if ((mr->access & access) != access)
		return NULL;
	start = (uint64_t)(uintptr_t)mr->addr;
	if (va < start || len > mr->length || va - start > mr->length - len)
		return NULL;
	return mr;
}

/* --- completion queues ---------------------------------------------------- */

struct xr_cq *xr_create_cq(struct xr_context *ctx, int cqe, void *cq_context)
{
	struct xr_cq *cq;

	if (cqe < 1 || cqe > XR_MAX_CQE) {
		xr_set_err(EINVAL, "CQ size %d out of range 1..%d", cqe, XR_MAX_CQE);
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	if (cq)
		cq->ring = calloc(cqe, sizeof(*cq->ring));
	if (!cq || !cq->ring) {
		free(cq);
		xr_set_err(ENOMEM, "out of memory");
		return NULL;
	}
	cq->efd = eventfd(0, EFD_CLOEXEC);
	if (cq->efd < 0) {
		free(cq->ring);
		free(cq);
		xr_set_err(errno, "eventfd: %s", strerror(errno));
		return NULL;
	}
	cq->ctx = ctx;
	cq->size = cqe;
	cq->cq_context = cq_context;
	return cq;
}

int xr_destroy_cq(struct xr_cq *cq)
{
	struct xr_context *ctx;

	if (!cq)
		return xr_set_err(EINVAL, "no CQ");
	ctx = cq->ctx;
	pthread_mutex_lock(&ctx->lock);
	if (cq->nqp) {
		pthread_mutex_unlock(&ctx->lock);
		return xr_set_err(EBUSY, "CQ still used by %d QPs", cq->nqp);
	}
	pthread_mutex_unlock(&ctx->lock);
	close(cq->efd);
	free(cq->ring);
	free(cq);
	return 0;
}

bool xr_cq_push(struct xr_cq *cq, const struct xr_wc *wc, bool solicited)
{
	if (cq->count == cq->size) {
		/* Reported by the next xr_poll_cq: a CQ overrun is fatal in verbs. */
		cq->overflow = true;
		return false;
	}
	cq->ring[(cq->head + cq->count) % cq->size] = *wc;
	cq->count++;
	if (cq->armed && (!cq->solicited_only || solicited ||
			  wc->status != XR_WC_SUCCESS)) {
		uint64_t one = 1;

		cq->armed = false;
		if (write(cq->efd, &one, sizeof(one)) < 0)
			cq->armed = true;
	}
	return true;
}

int xr_poll_cq(struct xr_cq *cq, int n, struct xr_wc *wc)
{
	struct xr_context *ctx = cq->ctx;
	int got = 0;

	if (n < 0)
		return -xr_set_err(EINVAL, "negative count");
	/* An armed CQ means the application is about to sleep on its event. */
	if (!cq->armed)
		ctx->app_poll_us = xr_now_us();
	pthread_mutex_lock(&ctx->lock);
	if (!cq->count) {
		xr_engine_progress(ctx, true);
		/*
		 * ACKs built here leave with the application's next post or
		 * poll: one sendto() for both (pingpong: half the syscalls).
		 */
		if (!cq->count)
			xr_xsk_tx_kick(&ctx->xsk);
	}
	if (cq->overflow) {
		pthread_mutex_unlock(&ctx->lock);
		return -xr_set_err(EOVERFLOW, "CQ overrun: completions were lost "
				   "(create a larger CQ)");
	}
	while (got < n && cq->count) {
		wc[got++] = cq->ring[cq->head];
		cq->head = (cq->head + 1) % cq->size;
		cq->count--;
	}
	pthread_mutex_unlock(&ctx->lock);
	return got;
}

int xr_cq_fd(const struct xr_cq *cq)
{
	return cq->efd;
}

void *xr_cq_context(const struct xr_cq *cq)
{
	return cq->cq_context;
}

int xr_req_notify_cq(struct xr_cq *cq, int solicited_only)
{
	struct xr_context *ctx = cq->ctx;
	uint64_t one = 1;

	pthread_mutex_lock(&ctx->lock);
	cq->armed = true;
	cq->solicited_only = solicited_only;
	pthread_mutex_unlock(&ctx->lock);
	/* The progress thread receives for the application from now on. */
	if (ctx->app_poll_us) {
		ctx->app_poll_us = 0;
		(void)!write(ctx->wake_fd, &one, sizeof(one));
	}
	return 0;
}

int xr_get_cq_event(struct xr_cq *cq)
{
	uint64_t v;

	for (;;) {
		if (read(cq->efd, &v, sizeof(v)) == sizeof(v))
			return 0;
		if (errno != EINTR)
			return xr_set_err(errno, "reading the CQ event: %s", strerror(errno));
	}
}

/* --- queue pairs ------------------------------------------------------------ */

static int check_cap(const struct xr_qp_cap *c)
{
	if (!c->max_send_wr || c->max_send_wr > XR_MAX_WR || !c->max_recv_wr ||
	    c->max_recv_wr > XR_MAX_WR)
		return xr_set_err(EINVAL, "max_send_wr and max_recv_wr must be 1..%d",
				  XR_MAX_WR);
	if (c->max_send_sge > XR_MAX_SGE || c->max_recv_sge > XR_MAX_SGE)
		return xr_set_err(EINVAL, "at most %d SGEs per WR", XR_MAX_SGE);
	if (c->max_inline_data > XR_MAX_INLINE)
		return xr_set_err(EINVAL, "inline data is not supported");
	return 0;
}

struct xr_qp *xr_create_qp(struct xr_pd *pd, struct xr_qp_init_attr *ia)
{
	struct xr_context *ctx;
	struct xr_qp_impl *qp;
	uint32_t i;

	if (!pd || !ia || !ia->send_cq || !ia->recv_cq) {
		xr_set_err(EINVAL, "a QP needs a PD, a send CQ and a receive CQ");
		return NULL;
	}
	if (ia->qp_type != XR_QPT_RC) {
		xr_set_err(EOPNOTSUPP, "only RC QPs are supported (qp_type %d)",
			   ia->qp_type);
		return NULL;
	}
	if (check_cap(&ia->cap))
		return NULL;
	ctx = pd->ctx;
	qp = calloc(1, sizeof(*qp));
	if (!qp) {
		xr_set_err(ENOMEM, "out of memory");
		return NULL;
	}
	qp->cap = ia->cap;
	if (!qp->cap.max_send_sge)
		qp->cap.max_send_sge = 1;
	if (!qp->cap.max_recv_sge)
		qp->cap.max_recv_sge = 1;
	qp->sq_size = ia->cap.max_send_wr;
	qp->rq_size = ia->cap.max_recv_wr;
	qp->sq = calloc(qp->sq_size, sizeof(*qp->sq));
	qp->rq = calloc(qp->rq_size, sizeof(*qp->rq));
	if (!qp->sq || !qp->rq) {
		free(qp->sq);
		free(qp->rq);
		free(qp);
		xr_set_err(ENOMEM, "out of memory");
		return NULL;
	}
	qp->sq_sig_all = ia->sq_sig_all;
	qp->pkey = XR_DEFAULT_PKEY;
	qp->pub.context = ctx;
	qp->pub.qp_context = ia->qp_context;
	qp->pub.pd = pd;
	qp->pub.send_cq = ia->send_cq;
	qp->pub.recv_cq = ia->recv_cq;
	qp->pub.qp_type = XR_QPT_RC;
	qp->pub.state = XR_QPS_RESET;

	pthread_mutex_lock(&ctx->lock);
	for (i = 0; i < XR_MAX_QP; i++) {
		uint32_t slot = (ctx->next_qpn - XR_FIRST_QPN + i) % XR_MAX_QP;

		if (!ctx->qps[slot]) {
			qp->pub.qp_num = XR_FIRST_QPN + slot;
			ctx->qps[slot] = qp;
			break;
		}
	}
	if (i == XR_MAX_QP) {
		pthread_mutex_unlock(&ctx->lock);
		free(qp->sq);
		free(qp->rq);
		free(qp);
		xr_set_err(ENOMEM, "too many QPs (%d)", XR_MAX_QP);
		return NULL;
	}
	if (qp->pub.qp_num + 1 > ctx->next_qpn)
		ctx->next_qpn = qp->pub.qp_num + 1;
	qp->ctr = ctx->qp_stats ? &ctx->qp_stats[qp->pub.qp_num - XR_FIRST_QPN] :
				  &qp->ctr_local;
	memset(qp->ctr, 0, sizeof(*qp->ctr));
	qp->ctr->qpn = qp->pub.qp_num;
	qp->ctr->owner_pid = getpid();
	pd->nqp++;
	ia->send_cq->nqp++;
	ia->recv_cq->nqp++;
	xr_qp_map_update(qp);
	pthread_mutex_unlock(&ctx->lock);
	return &qp->pub;
}

int xr_destroy_qp(struct xr_qp *pub)
{
	struct xr_qp_impl *qp = qpi(pub);
	struct xr_context *ctx;
	struct xr_qp_impl **pp;

	if (!pub)
		return xr_set_err(EINVAL, "no QP");
	ctx = pub->context;
	pthread_mutex_lock(&ctx->lock);
	/* ACKs still queued are the peer's last word from us: send them. */
	xr_xsk_tx_kick(&ctx->xsk);
	bpf_map_delete_elem(ctx->qps_map_fd, &pub->qp_num);
	ctx->qps[pub->qp_num - XR_FIRST_QPN] = NULL;
	qp->ctr->qpn = 0;
	for (pp = &ctx->ack_list; *pp; pp = &(*pp)->next_ack)
		if (*pp == qp) {
			*pp = qp->next_ack;
			break;
		}
	pub->pd->nqp--;
	pub->send_cq->nqp--;
	pub->recv_cq->nqp--;
	pthread_mutex_unlock(&ctx->lock);
	free(qp->sq);
	free(qp->rq);
	free(qp);
	return 0;
}

const char *xr_qp_state_str(enum xr_qp_state s)
{
	static const char *const n[] = { "RESET", "INIT", "RTR", "RTS", "SQD",
					 "SQE", "ERR" };

	return (unsigned)s < 7 ? n[s] : "?";
}

/* Attributes each RC transition needs (as the kernel's ib_modify_qp_is_ok). */
static int required_mask(enum xr_qp_state cur, enum xr_qp_state next)
{
	if (cur == XR_QPS_RESET && next == XR_QPS_INIT)
		return XR_QP_PKEY_INDEX | XR_QP_PORT | XR_QP_ACCESS_FLAGS;
	if (cur == XR_QPS_INIT && next == XR_QPS_RTR)
		return XR_QP_AV | XR_QP_PATH_MTU | XR_QP_DEST_QPN | XR_QP_RQ_PSN |
		       XR_QP_MAX_DEST_RD_ATOMIC | XR_QP_MIN_RNR_TIMER;
	if (cur == XR_QPS_RTR && next == XR_QPS_RTS)
		return XR_QP_SQ_PSN | XR_QP_TIMEOUT | XR_QP_RETRY_CNT |
		       XR_QP_RNR_RETRY | XR_QP_MAX_QP_RD_ATOMIC;
	return 0;
}

static bool transition_ok(enum xr_qp_state cur, enum xr_qp_state next)
{
	if (next == XR_QPS_RESET || next == XR_QPS_ERR)
		return true;
	switch (cur) {
	case XR_QPS_RESET:
		return next == XR_QPS_INIT;
	case XR_QPS_INIT:
		return next == XR_QPS_INIT || next == XR_QPS_RTR;
	case XR_QPS_RTR:
		return next == XR_QPS_RTS;
	case XR_QPS_RTS:
	case XR_QPS_SQE:
		return next == XR_QPS_RTS;
	default:
		return false;
	}
}

/* Source and destination of the QP's frames: GIDs, MACs, UDP port. */
static int resolve_path(struct xr_qp_impl *qp, const struct xr_qp_attr *a,
			struct xr_frame_addr *fa)
{
	struct xr_context *ctx = qp->pub.context;
	const struct xr_global_route *g = &a->ah_attr.grh;
	const struct xr_gid_entry *s;
	static const uint8_t v4mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	bool dst_v4 = !memcmp(g->dgid.raw, v4mapped, 12);
	char buf[INET6_ADDRSTRLEN];
	uint8_t nexthop[16];
	int ret, oif = 0;

	if (!a->ah_attr.is_global)
		return xr_set_err(EINVAL, "RoCE needs a global route: set ah_attr.is_global "
				  "and ah_attr.grh.dgid (a GID of the peer)");
	if (g->sgid_index >= ctx->ngid)
		return xr_set_err(EINVAL, "sgid_index %u is empty (%s has %d GIDs)",
				  g->sgid_index, ctx->ifname, ctx->ngid);
	s = &ctx->gids[g->sgid_index];
	if ((s->family == AF_INET) != dst_v4)
		return xr_set_err(EINVAL, "sgid_index %u is %s but the destination GID "
				  "is %s", g->sgid_index,
				  s->family == AF_INET ? "IPv4" : "IPv6",
				  dst_v4 ? "IPv4" : "IPv6");
	memset(fa, 0, sizeof(*fa));
	memcpy(fa->src_mac, ctx->mac, 6);
	fa->ip_version = dst_v4 ? 4 : 6;
	if (dst_v4) {
		memcpy(fa->src_ip, &s->gid.raw[12], 4);
		memcpy(fa->dst_ip, &g->dgid.raw[12], 4);
	} else {
		memcpy(fa->src_ip, s->gid.raw, 16);
		memcpy(fa->dst_ip, g->dgid.raw, 16);
	}
	fa->tclass = g->traffic_class;
	fa->hop_limit = 64;	/* rdma_rxe sends 64 whatever the AH says */
	fa->flow_label = g->flow_label;
	fa->sport = xr_roce_sport(qp->pub.qp_num, a->dest_qp_num, g->flow_label);
	/* Routed RoCEv2: frames go to the next hop's MAC, the gateway if any. */
	pthread_mutex_lock(&ctx->neigh_lock);
	ret = xr_route_nexthop(&ctx->neigh, dst_v4 ? AF_INET : AF_INET6, fa->dst_ip,
			       &oif, nexthop);
	if (!ret && oif && oif != ctx->ifindex)
		ret = -EXDEV;
	if (!ret)
		ret = xr_neigh_resolve(&ctx->neigh, ctx->ifindex,
				       dst_v4 ? AF_INET : AF_INET6, nexthop, fa->dst_ip,
				       fa->dst_mac, 1000);
	pthread_mutex_unlock(&ctx->neigh_lock);
	if (ret) {
		char ifn[IF_NAMESIZE] = "?";

		inet_ntop(dst_v4 ? AF_INET : AF_INET6, fa->dst_ip, buf, sizeof(buf));
		if (ret == -EXDEV)
			return xr_set_err(EHOSTUNREACH, "the route to %s leaves through %s, "
					  "not %s: the peer must be reachable through "
					  "the device's interface", buf,
					  if_indextoname(oif, ifn) ? ifn : "?",
					  ctx->ifname);
		if (ret == -ENETUNREACH)
			return xr_set_err(ENETUNREACH, "no route to %s in %s's network "
					  "namespace", buf, ctx->ifname);
		return xr_set_err(-ret, "cannot resolve the MAC address of %s on %s: %s",
				  buf, ctx->ifname, strerror(-ret));
	}
	return 0;
}

static void qp_reset(struct xr_qp_impl *qp)
{
	struct xr_context *ctx = qp->pub.context;
	struct xr_qp_impl **pp;

	for (pp = &ctx->ack_list; *pp; pp = &(*pp)->next_ack)
		if (*pp == qp) {
			*pp = qp->next_ack;
			break;
		}
	qp->next_ack = NULL;
	qp->on_ack_list = false;
	qp->sq_head = qp->sq_cur = qp->sq_tail = qp->cur_pkt = 0;
	qp->rq_head = qp->rq_tail = 0;
	qp->rto_deadline = qp->rnr_deadline = 0;
	qp->ack_pending = qp->nak_seq_sent = qp->gbn_armed = false;
	qp->cur_op = 0;
	qp->rd_head = qp->rd_count = 0;
	qp->msn = 0;
	memset(&qp->attr, 0, sizeof(qp->attr));
}

int xr_modify_qp(struct xr_qp *pub, struct xr_qp_attr *a, int mask)
{
	struct xr_qp_impl *qp = qpi(pub);
	struct xr_context *ctx;
	struct xr_frame_addr fa;
	enum xr_qp_state cur, next;
	int need, ret = 0;

	if (!pub || !a)
		return xr_set_err(EINVAL, "no QP or attributes");
	ctx = pub->context;
	pthread_mutex_lock(&ctx->lock);
	cur = pub->state;
	next = mask & XR_QP_STATE ? a->qp_state : cur;
	pthread_mutex_unlock(&ctx->lock);

	if ((mask & XR_QP_CUR_STATE) && a->cur_qp_state != cur)
		return xr_set_err(EINVAL, "QP %#x is in %s, not %s", pub->qp_num,
				  xr_qp_state_str(cur), xr_qp_state_str(a->cur_qp_state));
	if ((unsigned)next > XR_QPS_ERR || next == XR_QPS_SQD || next == XR_QPS_SQE)
		return xr_set_err(EINVAL, "QP state %d is not supported", next);
	if (!transition_ok(cur, next))
		return xr_set_err(EINVAL, "QP %#x cannot go from %s to %s", pub->qp_num,
				  xr_qp_state_str(cur), xr_qp_state_str(next));
	need = required_mask(cur, next);
	if ((mask & need) != need)
		return xr_set_err(EINVAL, "%s -> %s needs attribute mask 0x%x (got 0x%x)",
				  xr_qp_state_str(cur), xr_qp_state_str(next), need, mask);
	if ((mask & XR_QP_PORT) && a->port_num != 1)
		return xr_set_err(EINVAL, "port %u does not exist", a->port_num);
	if ((mask & XR_QP_PKEY_INDEX) && a->pkey_index != 0)
		return xr_set_err(EINVAL, "P_Key index %u is empty", a->pkey_index);
	if ((mask & XR_QP_PATH_MTU) &&
	    (a->path_mtu < XR_MTU_256 || a->path_mtu > XR_MTU_4096))
		return xr_set_err(EINVAL, "path MTU enum %d is not 1 (256) .. 5 (4096)",
				  a->path_mtu);
	if ((mask & XR_QP_PATH_MTU) && a->path_mtu == XR_MTU_4096 && !ctx->xsk.sg)
		return xr_set_err(EINVAL, "path MTU 4096 needs multi-buffer AF_XDP "
				  "(XDP_USE_SG, Linux 6.6 or later), which this "
				  "kernel refused");
	if ((mask & XR_QP_PATH_MTU) &&
	    (uint32_t)xr_mtu_to_bytes(a->path_mtu) + 80 > ctx->ifmtu)
		return xr_set_err(EINVAL, "path MTU %d does not fit %s's MTU %u",
				  xr_mtu_to_bytes(a->path_mtu), ctx->ifname, ctx->ifmtu);
	if ((mask & XR_QP_MAX_QP_RD_ATOMIC) && a->max_rd_atomic > XR_MAX_RD_ATOMIC)
		return xr_set_err(EINVAL, "max_rd_atomic %u > %d", a->max_rd_atomic,
				  XR_MAX_RD_ATOMIC);
	if ((mask & XR_QP_MAX_DEST_RD_ATOMIC) && a->max_dest_rd_atomic > XR_MAX_RD_ATOMIC)
		return xr_set_err(EINVAL, "max_dest_rd_atomic %u > %d",
				  a->max_dest_rd_atomic, XR_MAX_RD_ATOMIC);
	if ((mask & XR_QP_DEST_QPN) && a->dest_qp_num > XR_QPN_MAX)
		return xr_set_err(EINVAL, "dest_qp_num %#x is not a 24-bit QPN",
				  a->dest_qp_num);
	if ((mask & (XR_QP_TIMEOUT)) && a->timeout > 31)
		return xr_set_err(EINVAL, "timeout %u > 31", a->timeout);
	if ((mask & XR_QP_RETRY_CNT) && a->retry_cnt > 7)
		return xr_set_err(EINVAL, "retry_cnt %u > 7", a->retry_cnt);
	if ((mask & XR_QP_RNR_RETRY) && a->rnr_retry > 7)
		return xr_set_err(EINVAL, "rnr_retry %u > 7", a->rnr_retry);
	if ((mask & XR_QP_MIN_RNR_TIMER) && a->min_rnr_timer > 31)
		return xr_set_err(EINVAL, "min_rnr_timer %u > 31", a->min_rnr_timer);
	if ((mask & XR_QP_CAP) && cur != XR_QPS_RESET)
		return xr_set_err(EINVAL, "QP capabilities cannot be changed");

	/* Netlink and ARP may take a while: not under the device lock. */
	if (mask & XR_QP_AV) {
		struct xr_qp_attr tmp = *a;

		if (!(mask & XR_QP_DEST_QPN))
			tmp.dest_qp_num = qp->attr.dest_qp_num;
		ret = resolve_path(qp, &tmp, &fa);
		if (ret)
			return ret;
	}

	pthread_mutex_lock(&ctx->lock);
	if (pub->state != cur) {
		pthread_mutex_unlock(&ctx->lock);
		return xr_set_err(EAGAIN, "QP %#x changed state meanwhile", pub->qp_num);
	}
	if (next == XR_QPS_RESET) {
		qp_reset(qp);
		pub->state = XR_QPS_RESET;
		xr_qp_map_update(qp);
		pthread_mutex_unlock(&ctx->lock);
		return 0;
	}
	if (mask & XR_QP_ACCESS_FLAGS)
		qp->attr.qp_access_flags = a->qp_access_flags;
	if (mask & XR_QP_PKEY_INDEX)
		qp->attr.pkey_index = a->pkey_index;
	if (mask & XR_QP_PORT)
		qp->attr.port_num = a->port_num;
	if (mask & XR_QP_PATH_MTU) {
		qp->attr.path_mtu = a->path_mtu;
		qp->pmtu = xr_mtu_to_bytes(a->path_mtu);
	}
	if (mask & XR_QP_DEST_QPN)
		qp->attr.dest_qp_num = a->dest_qp_num;
	if (mask & XR_QP_AV) {
		qp->attr.ah_attr = a->ah_attr;
		qp->fa = fa;
	}
	if (mask & XR_QP_RQ_PSN) {
		qp->attr.rq_psn = a->rq_psn & XR_BTH_PSN_MASK;
		qp->epsn = qp->attr.rq_psn;
	}
	if (mask & XR_QP_MAX_DEST_RD_ATOMIC)
		qp->attr.max_dest_rd_atomic = a->max_dest_rd_atomic;
	if (mask & XR_QP_MIN_RNR_TIMER)
		qp->attr.min_rnr_timer = a->min_rnr_timer;
	if (mask & XR_QP_SQ_PSN) {
		qp->attr.sq_psn = a->sq_psn & XR_BTH_PSN_MASK;
		qp->req_psn = qp->una_psn = qp->attr.sq_psn;
	}
	if (mask & XR_QP_TIMEOUT)
		qp->attr.timeout = a->timeout;
	if (mask & XR_QP_RETRY_CNT) {
		qp->attr.retry_cnt = a->retry_cnt;
		qp->retry_left = a->retry_cnt;
	}
	if (mask & XR_QP_RNR_RETRY) {
		qp->attr.rnr_retry = a->rnr_retry;
		qp->rnr_left = a->rnr_retry;
	}
	if (mask & XR_QP_MAX_QP_RD_ATOMIC)
		qp->attr.max_rd_atomic = a->max_rd_atomic;
	if (next == XR_QPS_ERR && cur != XR_QPS_ERR) {
		xr_qp_to_error(qp);
	} else {
		pub->state = next;
		xr_qp_map_update(qp);
	}
	pthread_mutex_unlock(&ctx->lock);
	return 0;
}

int xr_query_qp(struct xr_qp *pub, struct xr_qp_attr *a, int mask,
		struct xr_qp_init_attr *ia)
{
	struct xr_qp_impl *qp = qpi(pub);

	(void)mask;
	pthread_mutex_lock(&pub->context->lock);
	*a = qp->attr;
	a->qp_state = a->cur_qp_state = pub->state;
	a->cap = qp->cap;
	a->sq_psn = qp->req_psn;
	a->rq_psn = qp->epsn;
	if (ia) {
		memset(ia, 0, sizeof(*ia));
		ia->qp_context = pub->qp_context;
		ia->send_cq = pub->send_cq;
		ia->recv_cq = pub->recv_cq;
		ia->cap = qp->cap;
		ia->qp_type = pub->qp_type;
		ia->sq_sig_all = qp->sq_sig_all;
	}
	pthread_mutex_unlock(&pub->context->lock);
	return 0;
}

/* --- posting ----------------------------------------------------------------- */

static int check_sges(struct xr_qp_impl *qp, const struct xr_sge *sg, int n,
		      int access, uint32_t *total)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (!sg[i].length)
			continue;
		if (!xr_mr_check(qp->pub.context, qp->pub.pd, sg[i].lkey, sg[i].addr,
				 sg[i].length, access))
			return xr_set_err(EINVAL, "SGE %d (lkey %#x, addr %#llx, length %u) "
					  "is not inside a memory region of this PD%s",
					  i, sg[i].lkey, (unsigned long long)sg[i].addr,
					  sg[i].length,
					  access ? " registered with LOCAL_WRITE" : "");
		sum += sg[i].length;
	}
	if (sum > 0x80000000ull)
		return xr_set_err(EINVAL, "message of %llu bytes exceeds 2 GiB",
				  (unsigned long long)sum);
	*total = sum;
	return 0;
}

static void flush_send(struct xr_qp_impl *qp, const struct xr_send_wr *wr)
{
	struct xr_wc wc = { .wr_id = wr->wr_id, .status = XR_WC_WR_FLUSH_ERR,
			    .opcode = xr_wc_opcode_of(wr->opcode),
			    .qp_num = qp->pub.qp_num };

	xr_cq_push(qp->pub.send_cq, &wc, false);
}

int xr_post_send(struct xr_qp *pub, struct xr_send_wr *wr, struct xr_send_wr **bad)
{
	struct xr_qp_impl *qp = qpi(pub);
	struct xr_context *ctx = pub->context;
	int ret = 0;

	pthread_mutex_lock(&ctx->lock);
	for (; wr; wr = wr->next) {
		struct xr_send_wqe *w;
		uint32_t total;

		if (pub->state != XR_QPS_RTS && pub->state != XR_QPS_ERR) {
			ret = xr_set_err(EINVAL, "QP %#x is in %s: sends need RTS",
					 pub->qp_num, xr_qp_state_str(pub->state));
			break;
		}
		if ((unsigned)wr->opcode > XR_WR_RDMA_READ) {
			ret = xr_set_err(EINVAL, "opcode %d not supported", wr->opcode);
			break;
		}
		if (wr->num_sge < 0 || (uint32_t)wr->num_sge > qp->cap.max_send_sge) {
			ret = xr_set_err(EINVAL, "num_sge %d > max_send_sge %u", wr->num_sge,
					 qp->cap.max_send_sge);
			break;
		}
		if (wr->send_flags & XR_SEND_INLINE) {
			ret = xr_set_err(EINVAL, "inline sends are not supported");
			break;
		}
		if (qp->sq_tail - qp->sq_head >= qp->sq_size) {
			ret = xr_set_err(ENOMEM, "send queue full (%u WRs)", qp->sq_size);
			break;
		}
		ret = check_sges(qp, wr->sg_list, wr->num_sge,
				 wr->opcode == XR_WR_RDMA_READ ? XR_ACCESS_LOCAL_WRITE : 0,
				 &total);
		if (ret)
			break;
		if (pub->state == XR_QPS_ERR) {
			flush_send(qp, wr);
			continue;
		}
		w = &qp->sq[qp->sq_tail % qp->sq_size];
		memset(w, 0, sizeof(*w));
		w->wr = *wr;
		w->wr.next = NULL;
		memcpy(w->sge, wr->sg_list, wr->num_sge * sizeof(*w->sge));
		w->wr.sg_list = w->sge;
		if (qp->sq_sig_all)
			w->wr.send_flags |= XR_SEND_SIGNALED;
		w->length = total;
		w->npkts = total ? (total + qp->pmtu - 1) / qp->pmtu : 1;
		qp->sq_tail++;
	}
	if (ret && bad)
		*bad = wr;
	if (pub->state == XR_QPS_RTS) {
		xr_req_progress(qp);
		xr_xsk_tx_kick(&ctx->xsk);
	}
	pthread_mutex_unlock(&ctx->lock);
	return ret;
}

int xr_post_recv(struct xr_qp *pub, struct xr_recv_wr *wr, struct xr_recv_wr **bad)
{
	struct xr_qp_impl *qp = qpi(pub);
	struct xr_context *ctx = pub->context;
	int ret = 0;

	pthread_mutex_lock(&ctx->lock);
	for (; wr; wr = wr->next) {
		struct xr_recv_wqe *r;
		uint32_t total;

		if (pub->state == XR_QPS_RESET) {
			ret = xr_set_err(EINVAL, "QP %#x is in RESET: receives need INIT or "
					 "later", pub->qp_num);
			break;
		}
		if (wr->num_sge < 0 || (uint32_t)wr->num_sge > qp->cap.max_recv_sge) {
			ret = xr_set_err(EINVAL, "num_sge %d > max_recv_sge %u", wr->num_sge,
					 qp->cap.max_recv_sge);
			break;
		}
		if (qp->rq_tail - qp->rq_head >= qp->rq_size) {
			ret = xr_set_err(ENOMEM, "receive queue full (%u WRs)", qp->rq_size);
			break;
		}
		ret = check_sges(qp, wr->sg_list, wr->num_sge, XR_ACCESS_LOCAL_WRITE,
				 &total);
		if (ret)
			break;
		if (pub->state == XR_QPS_ERR) {
			struct xr_wc wc = { .wr_id = wr->wr_id, .status = XR_WC_WR_FLUSH_ERR,
					    .opcode = XR_WC_RECV, .qp_num = pub->qp_num };

			xr_cq_push(pub->recv_cq, &wc, false);
			continue;
		}
		r = &qp->rq[qp->rq_tail % qp->rq_size];
		r->wr_id = wr->wr_id;
		r->num_sge = wr->num_sge;
		memcpy(r->sge, wr->sg_list, wr->num_sge * sizeof(*r->sge));
		r->length = total;
		qp->rq_tail++;
	}
	if (ret && bad)
		*bad = wr;
	pthread_mutex_unlock(&ctx->lock);
	return ret;
}

void xr_qp_to_error(struct xr_qp_impl *qp)
{
	qp->pub.state = XR_QPS_ERR;
	qp->rto_deadline = qp->rnr_deadline = 0;
	xr_req_flush(qp);
	xr_resp_flush(qp);
	xr_qp_map_update(qp);
}
