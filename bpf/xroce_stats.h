/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Counting a packet under its reason in xr_stats. */
#ifndef XROCE_BPF_STATS_H
#define XROCE_BPF_STATS_H

#include "xroce_maps.h"

static __always_inline void xr_count(enum xr_stat reason, __u32 bytes)
{
	struct xr_stat_value *v;
	__u32 zero = 0;
	void *s;

	s = bpf_map_lookup_elem(&xr_stats, &zero);
	if (!s || reason >= XR_STAT_MAX)
		return;
	/* Per-CPU: no atomics needed. */
	v = (struct xr_stat_value *)s + reason;
	v->packets++;
	v->bytes += bytes;
}

#endif
