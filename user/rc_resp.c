// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * RC responder: checks each request's PSN against the expected one, places
 * SEND payload into receive WQEs and WRITE payload into memory regions the
 * rkey allows, answers READs, and acknowledges. Out-of-order requests get
 * one PSN sequence error NAK, duplicates a fresh ACK (or, for a READ, the
 * responses again), a SEND without a receive WQE an RNR NAK, and a request
 * the QP or its rkey does not allow the NAK IBTA 9.7.5.2 prescribes
 * followed by the error state.
 */
#include <string.h>

#include "engine.h"

#define OP_SEND	1
#define OP_WRITE 2

static void queue_ack(struct xr_qp_impl *qp, uint32_t psn)
{
	struct xr_context *ctx = qp->pub.context;

	qp->ack_pending = true;
	qp->ack_psn = psn;
	if (!qp->on_ack_list) {
		qp->on_ack_list = true;
		qp->next_ack = ctx->ack_list;
		ctx->ack_list = qp;
	}
}

static void send_aeth(struct xr_qp_impl *qp, uint32_t psn, uint8_t syndrome)
{
	struct xr_frame_hdrs h = { 0 };

	h.opcode = XR_OP_RC_ACKNOWLEDGE;
	h.dqpn = qp->attr.dest_qp_num;
	h.psn = psn;
	h.aeth.syndrome = syndrome;
	h.aeth.msn = qp->msn;
	xr_send_frame(qp, &h, NULL, 0, 0, NULL, 0);
}

void xr_resp_send_ack(struct xr_qp_impl *qp)
{
	if (!qp->ack_pending)
		return;
	qp->ack_pending = false;
	/* Credits "invalid" (unlimited), as rdma_rxe always advertises. */
	send_aeth(qp, qp->ack_psn, XR_AETH_TYPE_ACK | XR_AETH_CREDIT_INVALID);
}

/* A NAK of class B/C: the QP goes to the error state after sending it. */
static void nak_fatal(struct xr_qp_impl *qp, uint32_t psn, enum xr_nak_code code)
{
	qp->ctr->naks_tx++;
	send_aeth(qp, psn, XR_AETH_TYPE_NAK | code);
	xr_qp_to_error(qp);
}

static void complete_recv(struct xr_qp_impl *qp, enum xr_wc_status st,
			  enum xr_wc_opcode op, uint32_t len,
			  const struct xr_pkt_info *pi)
{
	struct xr_recv_wqe *r = &qp->rq[qp->rq_head % qp->rq_size];
	struct xr_wc wc = {
		.wr_id = r->wr_id,
		.status = st,
		.opcode = op,
		.byte_len = len,
		.qp_num = qp->pub.qp_num,
		.src_qp = qp->attr.dest_qp_num,
	};

	if (pi && (pi->mask & XR_M_IMMDT)) {
		const struct xr_immdt *imm = xr_pkt_hdr(pi, XR_M_IMMDT);

		wc.imm_data = imm->imm;
		wc.wc_flags |= XR_WC_WITH_IMM;
	}
	qp->rq_head++;
	xr_cq_push(qp->pub.recv_cq, &wc, pi && xr_bth_se(xr_pkt_bth(pi)));
}

static bool rq_empty(const struct xr_qp_impl *qp)
{
	return qp->rq_head == qp->rq_tail;
}

static void rnr_nak(struct xr_qp_impl *qp, uint32_t psn)
{
	qp->ctr->rnr_naks_tx++;
	send_aeth(qp, psn, XR_AETH_TYPE_RNR_NAK | (qp->attr.min_rnr_timer & 0x1f));
}

/* Queues the responses of a READ; false when the rkey does not allow it. */
static bool start_read(struct xr_qp_impl *qp, const struct xr_pkt_info *pi,
		       uint32_t psn, uint32_t msn)
{
	const struct xr_reth *reth = xr_pkt_hdr(pi, XR_M_RETH);
	uint64_t va = xr_reth_va(reth);
	uint32_t len = xr_reth_len(reth);
	struct xr_read_res *e;
	struct xr_mr *mr = NULL;

	if (!(qp->attr.qp_access_flags & XR_ACCESS_REMOTE_READ))
		return false;
	if (len) {
		mr = xr_mr_check(qp->pub.context, qp->pub.pd, xr_reth_rkey(reth), va, len,
				 XR_ACCESS_REMOTE_READ);
		if (!mr)
			return false;
	}
	e = &qp->rd[(qp->rd_head + qp->rd_count) % XR_MAX_RD_ATOMIC];
	e->first_psn = psn;
	e->npkts = len ? (len + qp->pmtu - 1) / qp->pmtu : 1;
	e->sent = 0;
	e->va = va;
	e->len = len;
	e->msn = msn;
	e->mr = mr;
	qp->rd_count++;
	return true;
}

/* A READ asked again: its responses were lost. Answer it once more. */
static void redo_read(struct xr_qp_impl *qp, const struct xr_pkt_info *pi,
		      uint32_t psn)
{
	uint32_t i;

	/* Already answering it (or a later part of it): nothing to add. */
	for (i = 0; i < qp->rd_count; i++) {
		struct xr_read_res *e = &qp->rd[(qp->rd_head + i) % XR_MAX_RD_ATOMIC];

		if (e->first_psn == psn)
			return;
	}
	if (qp->rd_count == XR_MAX_RD_ATOMIC)
		return;		/* the requester asks again after its timeout */
	start_read(qp, pi, psn, qp->msn);
}

static void recv_send(struct xr_qp_impl *qp, const struct xr_pkt_info *pi,
		      uint32_t psn)
{
	struct xr_recv_wqe *r;

	if (pi->mask & XR_M_FIRST) {
		if (rq_empty(qp)) {
			rnr_nak(qp, psn);
			return;
		}
		qp->recv_off = 0;
	}
	r = &qp->rq[qp->rq_head % qp->rq_size];
	if (pi->paylen > r->length - qp->recv_off) {
		/* The message does not fit the receive buffer. */
		complete_recv(qp, XR_WC_LOC_LEN_ERR, XR_WC_RECV, qp->recv_off, NULL);
		nak_fatal(qp, psn, XR_NAK_INVALID_REQ);
		return;
	}
	xr_sge_copy_in(r->sge, r->num_sge, qp->recv_off, pi->frame + pi->payload_off,
		       pi->paylen);
	qp->recv_off += pi->paylen;
	qp->epsn = xr_psn_add(psn, 1);
	if (pi->mask & XR_M_LAST) {
		qp->msn = (qp->msn + 1) & XR_AETH_MSN_MASK;
		qp->cur_op = 0;
		complete_recv(qp, XR_WC_SUCCESS, XR_WC_RECV, qp->recv_off, pi);
	} else {
		qp->cur_op = OP_SEND;
	}
	if (xr_bth_ackreq(xr_pkt_bth(pi)))
		queue_ack(qp, psn);
}

static void recv_write(struct xr_qp_impl *qp, const struct xr_pkt_info *pi,
		       uint32_t psn)
{
	if ((pi->mask & XR_M_COMP) && rq_empty(qp)) {
		/* WRITE with immediate consumes a receive WQE: check before placing. */
		rnr_nak(qp, psn);
		return;
	}
	if (pi->mask & XR_M_FIRST) {
		const struct xr_reth *reth = xr_pkt_hdr(pi, XR_M_RETH);

		qp->wr_va = xr_reth_va(reth);
		qp->wr_len = qp->wr_resid = xr_reth_len(reth);
		if (!(qp->attr.qp_access_flags & XR_ACCESS_REMOTE_WRITE) ||
		    (qp->wr_len &&
		     !xr_mr_check(qp->pub.context, qp->pub.pd, xr_reth_rkey(reth),
				  qp->wr_va, qp->wr_len, XR_ACCESS_REMOTE_WRITE))) {
			nak_fatal(qp, psn, XR_NAK_REM_ACCESS_ERR);
			return;
		}
	}
	if (pi->paylen > qp->wr_resid ||
	    ((pi->mask & XR_M_LAST) && pi->paylen != qp->wr_resid)) {
		nak_fatal(qp, psn, XR_NAK_INVALID_REQ);
		return;
	}
	if (pi->paylen)
		memcpy((void *)(uintptr_t)qp->wr_va, pi->frame + pi->payload_off,
		       pi->paylen);
	qp->wr_va += pi->paylen;
	qp->wr_resid -= pi->paylen;
	qp->epsn = xr_psn_add(psn, 1);
	if (pi->mask & XR_M_LAST) {
		qp->msn = (qp->msn + 1) & XR_AETH_MSN_MASK;
		qp->cur_op = 0;
		if (pi->mask & XR_M_COMP)
			complete_recv(qp, XR_WC_SUCCESS, XR_WC_RECV_RDMA_WITH_IMM,
				      qp->wr_len, pi);
	} else {
		qp->cur_op = OP_WRITE;
	}
	if (xr_bth_ackreq(xr_pkt_bth(pi)))
		queue_ack(qp, psn);
}

void xr_resp_recv(struct xr_qp_impl *qp, const struct xr_pkt_info *pi)
{
	uint32_t psn = xr_bth_psn(xr_pkt_bth(pi));
	int32_t d = xr_psn_diff(psn, qp->epsn);
	bool first = pi->mask & XR_M_FIRST;

	if (d > 0) {
		/* A gap: one NAK until the missing packet arrives. */
		qp->ctr->ooo_rx++;
		if (!qp->nak_seq_sent) {
			qp->nak_seq_sent = true;
			qp->ctr->naks_tx++;
			send_aeth(qp, qp->epsn, XR_AETH_TYPE_NAK | XR_NAK_PSN_SEQ_ERR);
		}
		return;
	}
	if (d < 0) {
		/* Done before: the ACK was lost. Say so again. */
		qp->ctr->dup_rx++;
		if (pi->mask & XR_M_READ)
			redo_read(qp, pi, psn);
		else if (xr_bth_ackreq(xr_pkt_bth(pi)))
			queue_ack(qp, xr_psn_add(qp->epsn, XR_BTH_PSN_MASK));
		return;
	}
	qp->nak_seq_sent = false;

	/* Packets of one message in order: FIRST, MIDDLE..., LAST. */
	if ((qp->cur_op && (first || (qp->cur_op == OP_SEND) != !!(pi->mask & XR_M_SEND))) ||
	    (!qp->cur_op && !first)) {
		nak_fatal(qp, psn, XR_NAK_INVALID_REQ);
		return;
	}
	if (pi->mask & XR_M_SEND) {
		recv_send(qp, pi, psn);
	} else if (pi->mask & XR_M_WRITE) {
		recv_write(qp, pi, psn);
	} else if (pi->mask & XR_M_READ) {
		uint32_t max = qp->attr.max_dest_rd_atomic;
		const struct xr_reth *reth = xr_pkt_hdr(pi, XR_M_RETH);
		uint32_t len = xr_reth_len(reth);
		uint32_t n = len ? (len + qp->pmtu - 1) / qp->pmtu : 1;

		if (qp->rd_count >= max || qp->rd_count >= XR_MAX_RD_ATOMIC) {
			nak_fatal(qp, psn, XR_NAK_INVALID_REQ);
			return;
		}
		qp->msn = (qp->msn + 1) & XR_AETH_MSN_MASK;
		if (!start_read(qp, pi, psn, qp->msn)) {
			nak_fatal(qp, psn, XR_NAK_REM_ACCESS_ERR);
			return;
		}
		qp->epsn = xr_psn_add(psn, n);
	} else {
		/* Atomics are not supported yet. */
		nak_fatal(qp, psn, XR_NAK_INVALID_REQ);
	}
}

void xr_resp_progress(struct xr_qp_impl *qp)
{
	struct xr_context *ctx = qp->pub.context;

	while (qp->rd_count && xr_tx_room(ctx)) {
		struct xr_read_res *e = &qp->rd[qp->rd_head];
		struct xr_frame_hdrs h = { 0 };
		uint64_t off = (uint64_t)e->sent * qp->pmtu;
		uint32_t paylen = e->len - off < qp->pmtu ? e->len - off : qp->pmtu;
		bool first = e->sent == 0, last = e->sent == e->npkts - 1;

		h.opcode = first && last ? XR_OP_RC_RDMA_READ_RESPONSE_ONLY :
			   first ? XR_OP_RC_RDMA_READ_RESPONSE_FIRST :
			   last ? XR_OP_RC_RDMA_READ_RESPONSE_LAST :
				  XR_OP_RC_RDMA_READ_RESPONSE_MIDDLE;
		h.dqpn = qp->attr.dest_qp_num;
		h.psn = xr_psn_add(e->first_psn, e->sent);
		h.aeth.syndrome = XR_AETH_TYPE_ACK | XR_AETH_CREDIT_INVALID;
		h.aeth.msn = e->msn;
		if (xr_send_frame(qp, &h, NULL, 0, 0,
				  paylen ? (const void *)(uintptr_t)(e->va + off) : NULL,
				  paylen))
			break;
		if (++e->sent == e->npkts) {
			qp->rd_head = (qp->rd_head + 1) % XR_MAX_RD_ATOMIC;
			qp->rd_count--;
		}
	}
}

void xr_resp_flush(struct xr_qp_impl *qp)
{
	while (!rq_empty(qp))
		complete_recv(qp, XR_WC_WR_FLUSH_ERR, XR_WC_RECV, 0, NULL);
	qp->rd_count = 0;
	qp->cur_op = 0;
}
