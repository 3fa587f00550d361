// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The engine's loop: receive a batch from the AF_XDP socket, hand each
 * frame to the requester or the responder of its QP, send the ACKs the
 * batch earned (one per QP: coalescing), run the timers, and transmit.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <xroce/map_types.h>

#include "engine.h"

/* Walks the scatter list from byte @off, copying @len bytes to or from @flat. */
static void sge_copy(const struct xr_sge *sge, int nsge, uint64_t off,
		     uint8_t *flat, uint32_t len, bool to_sge)
{
	int i;

	for (i = 0; i < nsge && len; i++) {
		uint8_t *mem = (uint8_t *)(uintptr_t)sge[i].addr;
		uint32_t n;

		if (off >= sge[i].length) {
			off -= sge[i].length;
			continue;
		}
		n = sge[i].length - off < len ? sge[i].length - off : len;
		if (to_sge)
			memcpy(mem + off, flat, n);
		else
			memcpy(flat, mem + off, n);
		flat += n;
		len -= n;
		off = 0;
	}
}

void xr_sge_copy_out(const struct xr_sge *sge, int nsge, uint64_t off, void *dst,
		     uint32_t len)
{
	sge_copy(sge, nsge, off, dst, len, false);
}

void xr_sge_copy_in(const struct xr_sge *sge, int nsge, uint64_t off,
		    const void *src, uint32_t len)
{
	sge_copy(sge, nsge, off, (uint8_t *)src, len, true);
}

uint32_t xr_tx_room(struct xr_context *ctx)
{
	return xr_xsk_tx_room(&ctx->xsk);
}

int xr_send_frame(struct xr_qp_impl *qp, const struct xr_frame_hdrs *hin,
		  const struct xr_sge *sge, int nsge, uint64_t off, const void *pay,
		  uint32_t paylen)
{
	struct xr_context *ctx = qp->pub.context;
	struct xr_frame_hdrs h = *hin;
	struct xr_frame_layout lo;
	uint32_t flen = xr_frame_len(&qp->fa, h.opcode, paylen), reg;
	bool split = flen > XR_XSK_FRAME_SIZE;
	uint64_t addr = 0;
	uint8_t *f;
	int ret;

	if (flen > XR_XSK_MAX_FRAME || (split && !ctx->xsk.sg))
		return -EMSGSIZE;
	/* A jumbo frame is built flat, then spread over several UMEM frames. */
	f = split ? ctx->tx_scratch : xr_xsk_tx_frame(&ctx->xsk, &addr);
	if (!f) {
		ctx->ctr->tx_no_room++;
		return -ENOBUFS;
	}
	/* rdma_rxe habit: a fresh, non-zero IP ID in every packet. */
	if (!++ctx->ip_id)
		ctx->ip_id = 1;
	h.ip_id = ctx->ip_id;
	h.pkey = qp->pkey;
	reg = xr_frame_hdr(f, &qp->fa, &h, paylen, &lo);
	if (paylen) {
		if (pay)
			memcpy(f + lo.hdr_len, pay, paylen);
		else
			xr_sge_copy_out(sge, nsge, off, f + lo.hdr_len, paylen);
	}
	memset(f + lo.hdr_len + paylen, 0, lo.pad);
	reg = xr_icrc_update(reg, f + lo.hdr_len, paylen + lo.pad);
	xr_icrc_final(reg, f + lo.icrc_off);
	if (split) {
		ret = xr_xsk_tx_submit_buf(&ctx->xsk, f, lo.len);
		if (ret == -ENOBUFS) {
			xr_xsk_tx_kick(&ctx->xsk);
			ret = xr_xsk_tx_submit_buf(&ctx->xsk, f, lo.len);
		}
		if (ret) {
			ctx->ctr->tx_no_room++;
			return ret;
		}
	} else if (xr_xsk_tx_submit(&ctx->xsk, addr, lo.len)) {
		xr_xsk_tx_kick(&ctx->xsk);
		if (xr_xsk_tx_submit(&ctx->xsk, addr, lo.len))
			return -ENOBUFS;
	}
	ctx->ctr->tx_frames++;
	qp->ctr->tx_pkts++;
	return 0;
}

static struct xr_qp_impl *qp_by_num(struct xr_context *ctx, uint32_t qpn)
{
	if (qpn < XR_FIRST_QPN || qpn >= XR_FIRST_QPN + XR_MAX_QP)
		return NULL;
	return ctx->qps[qpn - XR_FIRST_QPN];
}

static bool from_peer(const struct xr_qp_impl *qp, const struct xr_pkt_info *pi)
{
	const uint8_t *l3 = pi->frame + pi->l3_off;

	if (pi->ip_version != qp->fa.ip_version)
		return false;
	if (pi->ip_version == 4)
		return !memcmp(l3 + 12, qp->fa.dst_ip, 4);
	return !memcmp(l3 + 8, qp->fa.dst_ip, 16);
}

static void rx_frame(void *vctx, uint8_t *frame, uint32_t len)
{
	struct xr_context *ctx = vctx;
	struct xr_qp_impl *qp;
	struct xr_pkt_info pi;

	ctx->ctr->rx_frames++;
	/* Never trust a payload whose ICRC nobody checked. */
	if (xr_parse_frame(frame, len, ctx->icrc_in_xdp ? 0 : XR_PARSE_ICRC, &pi) !=
	    XR_PKT_ROCE) {
		ctx->ctr->rx_bad++;
		return;
	}
	qp = qp_by_num(ctx, xr_bth_qpn(xr_pkt_bth(&pi)));
	if (!qp || XR_OP_TRANSPORT(pi.opcode) != XR_TRANSPORT_RC) {
		ctx->ctr->rx_no_qp++;
		return;
	}
	if (qp->pub.state < XR_QPS_RTR || qp->pub.state == XR_QPS_ERR) {
		qp->ctr->drop_state++;
		return;
	}
	if (!from_peer(qp, &pi)) {
		qp->ctr->drop_source++;
		return;
	}
	qp->ctr->rx_pkts++;
	if (pi.mask & XR_M_REQ)
		xr_resp_recv(qp, &pi);
	else if (pi.mask & XR_M_RESP)
		xr_req_recv(qp, &pi);
	else
		ctx->ctr->rx_not_req++;
}

void xr_engine_progress(struct xr_context *ctx, bool defer_kick)
{
	uint64_t now;
	int n, budget = 8, i, nq;

	do {
		n = xr_xsk_rx(&ctx->xsk, XR_XSK_RX_BATCH, rx_frame, ctx);
		while (ctx->ack_list) {
			struct xr_qp_impl *qp = ctx->ack_list;

			ctx->ack_list = qp->next_ack;
			qp->next_ack = NULL;
			qp->on_ack_list = false;
			if (qp->ack_pending)
				xr_resp_send_ack(qp);
		}
	} while (n == XR_XSK_RX_BATCH && --budget);

	now = xr_now_us();
	nq = ctx->next_qpn - XR_FIRST_QPN;
	if (nq > XR_MAX_QP)
		nq = XR_MAX_QP;
	for (i = 0; i < nq; i++) {
		struct xr_qp_impl *qp = ctx->qps[i];

		if (!qp || qp->pub.state < XR_QPS_RTR)
			continue;
		if (qp->pub.state != XR_QPS_ERR) {
			xr_req_timers(qp, now);
			xr_resp_progress(qp);
			xr_req_progress(qp);
		}
	}
	if (!defer_kick)
		xr_xsk_tx_kick(&ctx->xsk);
}

uint64_t xr_engine_next_deadline(struct xr_context *ctx)
{
	uint64_t d = 0;
	int i, nq = ctx->next_qpn - XR_FIRST_QPN;

	if (nq > XR_MAX_QP)
		nq = XR_MAX_QP;
	for (i = 0; i < nq; i++) {
		struct xr_qp_impl *qp = ctx->qps[i];

		if (!qp || qp->pub.state == XR_QPS_ERR)
			continue;
		if (qp->rto_deadline && (!d || qp->rto_deadline < d))
			d = qp->rto_deadline;
		if (qp->rnr_deadline && (!d || qp->rnr_deadline < d))
			d = qp->rnr_deadline;
		/* Work waiting for TX room: come back soon. */
		if (qp->rd_count || qp->sq_cur != qp->sq_tail)
			d = xr_now_us() + 50;
	}
	/* Frames the application's thread left queued: send them soon. */
	if (ctx->xsk.tx_pending) {
		uint64_t soon = xr_now_us() + 20;

		if (!d || soon < d)
			d = soon;
	}
	return d;
}

void xr_qp_map_update(struct xr_qp_impl *qp)
{
	struct xr_context *ctx = qp->pub.context;
	struct xr_qp_entry e = {
		.qpn = qp->pub.qp_num,
		.state = qp->pub.state,
		.xsk_slot = ctx->xsk_slot,
		.dest_qpn = qp->attr.dest_qp_num,
		.path_mtu = qp->pmtu,
		.owner_pid = (uint32_t)getpid(),
	};

	bpf_map_update_elem(ctx->qps_map_fd, &e.qpn, &e, BPF_ANY);
}
