// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * xroce's XDP program: validate every RoCEv2 frame (UDP port 4791), hand
 * those addressed to a live QP to the AF_XDP socket of the engine serving
 * it, and count each frame under exactly one reason in xr_stats; everything
 * else goes on to the kernel (or to the next program in a libxdp chain)
 * untouched.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <xdp/xdp_helpers.h>

#include "xroce_consts.h"
#include "xroce_maps.h"
#include "xroce_parse.h"
#include "xroce_icrc.h"
#include "xroce_stats.h"

/* Set by the loader before the program is loaded. */
const volatile struct xr_xdp_cfg xr_cfg = {
	.icrc_check = 1,
};

/*
 * Run early in a libxdp chain: frames for UDP port 4791 are ours; everything
 * else is passed on to the next program (chain-call on XDP_PASS).
 */
struct {
	__uint(priority, 10);
	__uint(XDP_PASS, 1);
} XDP_RUN_CONFIG(xroce_xdp);

/*
 * The QP the frame is addressed to decides where it goes. RESET and INIT
 * QPs silently discard what arrives (IBTA 10.3.1), like a QPN nobody owns.
 */
static __always_inline enum xr_stat xr_steer(struct xdp_md *ctx, struct xr_pkt *p,
					      __u32 *slot)
{
	struct xr_qp_entry *qp;
	__u32 qpn;

	qpn = xr_rd32(p->s->hdr, p->bth_off + 4) & XR_BTH_QPN_MASK;
	qp = bpf_map_lookup_elem(&xr_qps, &qpn);
	if (!qp)
		return XR_STAT_QP_UNKNOWN;
	if (qp->state < XR_QPS_RTR_VAL)
		return XR_STAT_QP_NOT_READY;
	/*
	 * A socket receives only from the queue it is bound to; redirecting
	 * a frame from another queue would be dropped where no counter sees it.
	 */
	if (ctx->rx_queue_index != qp->xsk_slot)
		return XR_STAT_XSK_WRONG_QUEUE;
	*slot = qp->xsk_slot;
	return XR_STAT_ROCE_VALID;
}

SEC("xdp.frags")
int xroce_xdp(struct xdp_md *ctx)
{
	struct xr_pkt p = {};
	enum xr_stat r;
	__u32 slot = 0;
	long act;

	r = xr_parse(ctx, &p);
	if (r == XR_STAT_ROCE_VALID && xr_cfg.icrc_check && !xr_icrc_ok(ctx, &p))
		r = XR_STAT_ICRC_BAD;
	if (r == XR_STAT_ROCE_VALID)
		r = xr_steer(ctx, &p, &slot);
	if (r == XR_STAT_ROCE_VALID) {
		act = bpf_redirect_map(&xr_xsks, slot, XDP_DROP);
		if (act != XDP_REDIRECT)
			r = XR_STAT_XSK_MISSING;
		xr_count(r, p.len);
		return act;
	}
	xr_count(r, p.len);
	if (r == XR_STAT_PASS_NOT_ROCE)
		return XDP_PASS;
	/*
	 * Dropping what no QP takes is what a RoCE NIC does; passing it would
	 * only make the kernel answer ICMP port unreachable.
	 */
	return XDP_DROP;
}

char _license[] SEC("license") = "Dual BSD/GPL";
