// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * RC requester: segments send-queue WQEs into packets at the path MTU,
 * assigns PSNs, completes WQEs in order as ACKs and READ responses arrive,
 * and recovers with go-back-N on a timeout, a PSN sequence error NAK or a
 * gap in READ responses, and after the RNR timer on an RNR NAK.
 */
#include <string.h>

#include "engine.h"

/* IBTA 9.7.5.2.8: RNR timer field to microseconds (0 means 655.36 ms). */
static const uint32_t rnr_us[32] = {
	655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280,
	1920, 2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720, 40960, 61440,
	81920, 122880, 163840, 245760, 327680, 491520,
};

/* Local ACK timeout: 4.096 us * 2^timeout; 0 means wait forever (IBTA). */
static uint64_t rto_us(const struct xr_qp_impl *qp)
{
	if (!qp->attr.timeout)
		return 0;
	return (4096ull << qp->attr.timeout) / 1000;
}

static void arm_rto(struct xr_qp_impl *qp, bool restart)
{
	uint64_t rto = rto_us(qp);

	if (!rto || qp->una_psn == qp->req_psn) {
		qp->rto_deadline = 0;
		return;
	}
	if (restart || !qp->rto_deadline)
		qp->rto_deadline = xr_now_us() + rto;
}

static struct xr_send_wqe *wqe_at(struct xr_qp_impl *qp, uint32_t i)
{
	return &qp->sq[i % qp->sq_size];
}

enum xr_wc_opcode xr_wc_opcode_of(enum xr_wr_opcode op)
{
	switch (op) {
	case XR_WR_RDMA_WRITE:
	case XR_WR_RDMA_WRITE_WITH_IMM:
		return XR_WC_RDMA_WRITE;
	case XR_WR_RDMA_READ:
		return XR_WC_RDMA_READ;
	default:
		return XR_WC_SEND;
	}
}

static void complete(struct xr_qp_impl *qp, struct xr_send_wqe *w,
		     enum xr_wc_status st)
{
	struct xr_wc wc = {
		.wr_id = w->wr.wr_id,
		.status = st,
		.opcode = xr_wc_opcode_of(w->wr.opcode),
		.qp_num = qp->pub.qp_num,
		.byte_len = w->wr.opcode == XR_WR_RDMA_READ ? w->length : 0,
	};

	if (w->wr.opcode == XR_WR_RDMA_READ && w->started && !w->done && qp->reads_out)
		qp->reads_out--;
	/* Errors complete even unsignaled WRs (IBTA 10.8.3.1). */
	if (st != XR_WC_SUCCESS || (w->wr.send_flags & XR_SEND_SIGNALED))
		xr_cq_push(qp->pub.send_cq, &wc, false);
}

/* Retires, in order, every WQE that is fully acknowledged. */
static void complete_acked(struct xr_qp_impl *qp)
{
	while (qp->sq_head != qp->sq_tail) {
		struct xr_send_wqe *w = wqe_at(qp, qp->sq_head);

		if (!w->started)
			break;
		if (w->wr.opcode == XR_WR_RDMA_READ) {
			if (!w->done)
				break;
		} else if (xr_psn_diff(xr_psn_add(w->first_psn, w->npkts - 1),
				       qp->una_psn) >= 0) {
			break;
		}
		complete(qp, w, XR_WC_SUCCESS);
		qp->sq_head++;
	}
	if ((int32_t)(qp->sq_cur - qp->sq_head) < 0) {
		qp->sq_cur = qp->sq_head;
		qp->cur_pkt = 0;
	}
}

/*
 * The started WQE whose PSN range holds @psn (its SQ index in *@idx), or
 * NULL when none does.
 */
static struct xr_send_wqe *wqe_of_psn(struct xr_qp_impl *qp, uint32_t psn,
				      uint32_t *idx)
{
	uint32_t i;

	for (i = qp->sq_head; i != qp->sq_tail; i++) {
		struct xr_send_wqe *w = wqe_at(qp, i);
		int32_t d;

		if (!w->started)
			break;
		d = xr_psn_diff(psn, w->first_psn);
		if (d >= 0 && (uint32_t)d < w->npkts) {
			*idx = i;
			return w;
		}
	}
	return NULL;
}

/* Resends everything from @psn on (go-back-N). */
static void go_back(struct xr_qp_impl *qp, uint32_t psn)
{
	uint32_t i;
	struct xr_send_wqe *w = wqe_of_psn(qp, psn, &i);

	if (!w)
		return;
	qp->sq_cur = i;
	qp->cur_pkt = w->wr.opcode == XR_WR_RDMA_READ ? w->rd_pkts :
						       (uint32_t)xr_psn_diff(psn, w->first_psn);
	qp->ctr->retransmits++;
}

/*
 * Everything up to and including @psn is acknowledged. An ACK cannot carry
 * READ data: one that covers a READ still missing responses means those
 * were lost, so the READ is asked again from the first missing one.
 */
static void ack_through(struct xr_qp_impl *qp, uint32_t psn)
{
	uint32_t i;

	if (xr_psn_diff(psn, qp->una_psn) < 0 || xr_psn_diff(psn, qp->req_psn) >= 0)
		return;
	for (i = qp->sq_head; i != qp->sq_tail; i++) {
		struct xr_send_wqe *w = wqe_at(qp, i);

		if (!w->started || xr_psn_diff(psn, w->first_psn) < 0)
			break;
		if (w->wr.opcode == XR_WR_RDMA_READ && !w->done) {
			uint32_t exp = xr_psn_add(w->first_psn, w->rd_pkts);

			if (xr_psn_diff(psn, exp) >= 0) {
				if (xr_psn_diff(exp, qp->una_psn) > 0)
					qp->una_psn = exp;
				complete_acked(qp);
				go_back(qp, exp);
				return;
			}
		}
	}
	qp->una_psn = xr_psn_add(psn, 1);
	complete_acked(qp);
}

static void fail_head(struct xr_qp_impl *qp, enum xr_wc_status st)
{
	if (qp->sq_head != qp->sq_tail) {
		complete(qp, wqe_at(qp, qp->sq_head), st);
		qp->sq_head++;
	}
	xr_qp_to_error(qp);
}

static uint8_t send_opcode(const struct xr_send_wqe *w, uint32_t idx)
{
	bool first = idx == 0, last = idx == w->npkts - 1;
	bool imm = w->wr.opcode == XR_WR_SEND_WITH_IMM ||
		   w->wr.opcode == XR_WR_RDMA_WRITE_WITH_IMM;

	if (w->wr.opcode == XR_WR_SEND || w->wr.opcode == XR_WR_SEND_WITH_IMM) {
		if (first && last)
			return imm ? XR_OP_RC_SEND_ONLY_WITH_IMMEDIATE : XR_OP_RC_SEND_ONLY;
		if (first)
			return XR_OP_RC_SEND_FIRST;
		if (last)
			return imm ? XR_OP_RC_SEND_LAST_WITH_IMMEDIATE : XR_OP_RC_SEND_LAST;
		return XR_OP_RC_SEND_MIDDLE;
	}
	if (first && last)
		return imm ? XR_OP_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE :
			     XR_OP_RC_RDMA_WRITE_ONLY;
	if (first)
		return XR_OP_RC_RDMA_WRITE_FIRST;
	if (last)
		return imm ? XR_OP_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE :
			     XR_OP_RC_RDMA_WRITE_LAST;
	return XR_OP_RC_RDMA_WRITE_MIDDLE;
}

static int send_packet(struct xr_qp_impl *qp, struct xr_send_wqe *w, uint32_t idx)
{
	struct xr_frame_hdrs h = { 0 };
	uint64_t off = (uint64_t)idx * qp->pmtu;
	uint32_t paylen = w->length - off < qp->pmtu ? w->length - off : qp->pmtu;
	bool last = idx == w->npkts - 1;

	h.opcode = send_opcode(w, idx);
	h.dqpn = qp->attr.dest_qp_num;
	h.psn = xr_psn_add(w->first_psn, idx);
	/*
	 * AckReq on the last packet of a message (as rdma_rxe), and inside
	 * long messages so the window keeps moving before the end.
	 */
	h.ackreq = last || (idx % XR_ACKREQ_EVERY) == XR_ACKREQ_EVERY - 1;
	h.se = last && (w->wr.send_flags & XR_SEND_SOLICITED);
	if (xr_opcode_table[h.opcode].mask & XR_M_RETH) {
		h.reth.va = w->wr.rdma.remote_addr;
		h.reth.rkey = w->wr.rdma.rkey;
		h.reth.len = w->length;
	}
	h.imm_be = w->wr.imm_data;
	return xr_send_frame(qp, &h, w->sge, w->wr.num_sge, off, NULL, paylen);
}

/* A READ request for what is still missing of @w. */
static int send_read(struct xr_qp_impl *qp, struct xr_send_wqe *w)
{
	struct xr_frame_hdrs h = { 0 };
	uint64_t off = (uint64_t)w->rd_pkts * qp->pmtu;

	h.opcode = XR_OP_RC_RDMA_READ_REQUEST;
	h.dqpn = qp->attr.dest_qp_num;
	h.psn = xr_psn_add(w->first_psn, w->rd_pkts);
	h.ackreq = 1;
	h.reth.va = w->wr.rdma.remote_addr + off;
	h.reth.rkey = w->wr.rdma.rkey;
	h.reth.len = w->length - off;
	return xr_send_frame(qp, &h, NULL, 0, 0, NULL, 0);
}

void xr_req_progress(struct xr_qp_impl *qp)
{
	struct xr_context *ctx = qp->pub.context;
	uint32_t max_rd = qp->attr.max_rd_atomic ? qp->attr.max_rd_atomic : 1;

	if (qp->pub.state != XR_QPS_RTS || qp->rnr_deadline)
		return;
	while (qp->sq_cur != qp->sq_tail) {
		struct xr_send_wqe *w = wqe_at(qp, qp->sq_cur);

		if (!w->started) {
			if (xr_psn_diff(qp->req_psn, qp->una_psn) >= XR_WINDOW)
				break;
			if (w->wr.opcode == XR_WR_RDMA_READ && qp->reads_out >= max_rd)
				break;
			/* A READ occupies one PSN per response packet. */
			w->first_psn = qp->req_psn;
			qp->req_psn = xr_psn_add(qp->req_psn, w->npkts);
			w->started = true;
			if (w->wr.opcode == XR_WR_RDMA_READ)
				qp->reads_out++;
			qp->cur_pkt = 0;
		}
		if (!xr_tx_room(ctx))
			break;
		if (w->wr.opcode == XR_WR_RDMA_READ) {
			if (!w->done && send_read(qp, w))
				break;
			qp->sq_cur++;
			qp->cur_pkt = 0;
			arm_rto(qp, false);
			continue;
		}
		if (xr_psn_diff(xr_psn_add(w->first_psn, qp->cur_pkt), qp->una_psn) >=
		    XR_WINDOW)
			break;
		if (send_packet(qp, w, qp->cur_pkt))
			break;
		arm_rto(qp, false);
		if (++qp->cur_pkt == w->npkts) {
			qp->sq_cur++;
			qp->cur_pkt = 0;
		}
	}
}

static void progress_made(struct xr_qp_impl *qp)
{
	qp->retry_left = qp->attr.retry_cnt;
	qp->gbn_armed = false;
	arm_rto(qp, true);
}

static void recv_ack(struct xr_qp_impl *qp, const struct xr_pkt_info *pi, uint32_t psn)
{
	const struct xr_aeth *aeth = xr_pkt_hdr(pi, XR_M_AETH);
	uint8_t syn = xr_aeth_syndrome(aeth);
	uint32_t before = qp->una_psn;

	switch (syn & XR_AETH_TYPE_MASK) {
	case XR_AETH_TYPE_ACK:
		ack_through(qp, psn);
		if (qp->una_psn != before)
			progress_made(qp);
		return;
	case XR_AETH_TYPE_RNR_NAK:
		qp->ctr->rnr_naks_rx++;
		ack_through(qp, xr_psn_add(psn, XR_BTH_PSN_MASK));
		if (xr_psn_diff(psn, qp->una_psn) != 0)
			return;		/* stale */
		if (!qp->rnr_left) {
			fail_head(qp, XR_WC_RNR_RETRY_EXC_ERR);
			return;
		}
		if (qp->attr.rnr_retry != 7)	/* 7: retry forever */
			qp->rnr_left--;
		qp->rnr_psn = psn;
		qp->rnr_deadline = xr_now_us() + rnr_us[syn & XR_AETH_VALUE_MASK];
		qp->rto_deadline = 0;
		return;
	case XR_AETH_TYPE_NAK:
		qp->ctr->naks_rx++;
		ack_through(qp, xr_psn_add(psn, XR_BTH_PSN_MASK));
		if (xr_psn_diff(psn, qp->una_psn) != 0)
			return;		/* stale */
		switch (syn & XR_AETH_VALUE_MASK) {
		case XR_NAK_PSN_SEQ_ERR:
			if (qp->gbn_armed)
				return;
			qp->gbn_armed = true;
			go_back(qp, psn);
			arm_rto(qp, true);
			return;
		case XR_NAK_REM_ACCESS_ERR:
			fail_head(qp, XR_WC_REM_ACCESS_ERR);
			return;
		case XR_NAK_REM_OP_ERR:
			fail_head(qp, XR_WC_REM_OP_ERR);
			return;
		default:
			fail_head(qp, XR_WC_REM_INV_REQ_ERR);
			return;
		}
	default:
		return;		/* reserved syndrome: ignore */
	}
}

static void recv_read_resp(struct xr_qp_impl *qp, const struct xr_pkt_info *pi,
			   uint32_t psn)
{
	uint32_t i, idx, exp, want;
	struct xr_send_wqe *w = wqe_of_psn(qp, psn, &i);
	bool last;

	if (!w || w->wr.opcode != XR_WR_RDMA_READ || w->done) {
		qp->ctr->dup_rx++;
		return;
	}
	exp = xr_psn_add(w->first_psn, w->rd_pkts);
	if (psn != exp) {
		if (xr_psn_diff(psn, exp) > 0) {
			/* A response was lost: ask again from it, once per gap. */
			qp->ctr->ooo_rx++;
			if (!qp->gbn_armed) {
				qp->gbn_armed = true;
				ack_through(qp, xr_psn_add(w->first_psn, XR_BTH_PSN_MASK));
				go_back(qp, exp);
			}
		} else {
			qp->ctr->dup_rx++;
		}
		return;
	}
	idx = w->rd_pkts;
	last = idx == w->npkts - 1;
	want = last ? w->length - idx * qp->pmtu : qp->pmtu;
	/*
	 * FIRST versus MIDDLE is not checked: responses to a re-requested READ
	 * start again at FIRST, and a delayed response to the earlier request
	 * carries the same bytes at the same PSN as MIDDLE.
	 */
	if (!!(pi->mask & XR_M_LAST) != last || pi->paylen != want) {
		fail_head(qp, XR_WC_BAD_RESP_ERR);
		return;
	}
	/* The first response acknowledges every request before the READ. */
	if (idx == 0)
		ack_through(qp, xr_psn_add(psn, XR_BTH_PSN_MASK));
	if (pi->paylen)
		xr_sge_copy_in(w->sge, w->wr.num_sge, (uint64_t)idx * qp->pmtu,
			       pi->frame + pi->payload_off, pi->paylen);
	w->rd_pkts++;
	if (xr_psn_diff(xr_psn_add(psn, 1), qp->una_psn) > 0)
		qp->una_psn = xr_psn_add(psn, 1);
	if (last) {
		w->done = true;
		if (qp->reads_out)
			qp->reads_out--;
	}
	complete_acked(qp);
	progress_made(qp);
}

void xr_req_recv(struct xr_qp_impl *qp, const struct xr_pkt_info *pi)
{
	uint32_t psn = xr_bth_psn(xr_pkt_bth(pi));

	if (qp->pub.state != XR_QPS_RTS)
		return;
	if (pi->mask & XR_M_READ)
		recv_read_resp(qp, pi, psn);
	else if (pi->mask & XR_M_ACK)
		recv_ack(qp, pi, psn);
	/* Atomic ACKs: no atomics are sent yet. */
}

void xr_req_timers(struct xr_qp_impl *qp, uint64_t now)
{
	if (qp->pub.state != XR_QPS_RTS)
		return;
	if (qp->rnr_deadline && now >= qp->rnr_deadline) {
		qp->rnr_deadline = 0;
		go_back(qp, qp->rnr_psn);
		arm_rto(qp, true);
	}
	if (qp->rto_deadline && now >= qp->rto_deadline) {
		if (qp->una_psn == qp->req_psn) {
			qp->rto_deadline = 0;
			return;
		}
		qp->ctr->timeouts++;
		if (!qp->retry_left) {
			fail_head(qp, XR_WC_RETRY_EXC_ERR);
			return;
		}
		qp->retry_left--;
		qp->gbn_armed = false;
		go_back(qp, qp->una_psn);
		qp->rto_deadline = now + rto_us(qp);
	}
}

void xr_req_flush(struct xr_qp_impl *qp)
{
	while (qp->sq_head != qp->sq_tail) {
		complete(qp, wqe_at(qp, qp->sq_head), XR_WC_WR_FLUSH_ERR);
		qp->sq_head++;
	}
	qp->sq_cur = qp->sq_tail;
	qp->cur_pkt = 0;
	qp->reads_out = 0;
}
