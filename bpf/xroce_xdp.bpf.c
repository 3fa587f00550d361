// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * xroce's XDP program: validate every RoCEv2 frame (UDP port 4791) and count
 * it under exactly one reason in xr_stats; everything else goes on to the
 * kernel (or to the next program in a libxdp chain) untouched.
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

SEC("xdp.frags")
int xroce_xdp(struct xdp_md *ctx)
{
	struct xr_pkt p = {};
	enum xr_stat r;

	r = xr_parse(ctx, &p);
	if (r == XR_STAT_ROCE_VALID && xr_cfg.icrc_check && !xr_icrc_ok(ctx, &p))
		r = XR_STAT_ICRC_BAD;
	xr_count(r, p.len);
	if (r == XR_STAT_PASS_NOT_ROCE)
		return XDP_PASS;
	/*
	 * Nothing consumes RoCE yet: dropping it here is what a RoCE NIC
	 * without a matching QP does, where passing it would only make the
	 * kernel answer ICMP port unreachable.
	 */
	return XDP_DROP;
}

char _license[] SEC("license") = "Dual BSD/GPL";
