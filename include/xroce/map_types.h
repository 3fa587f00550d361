/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Key and value types of the maps the XDP program shares with userspace.
 * Both sides include this header; BTF carries the field names, so
 * `bpftool map dump pinned /sys/fs/bpf/xroce/<ifname>/<map>` prints them.
 * Byte order: host order unless a field's name ends in _be.
 */
#ifndef XROCE_MAP_TYPES_H
#define XROCE_MAP_TYPES_H

#include <linux/types.h>
#include <xroce/stats.h>

/*
 * xr_stats: a per-CPU array with one element whose fields are the counters
 * of XR_STATS(), in enum order, so the program can index it by reason and
 * bpftool still prints a name per counter.
 */
struct xr_stats {
#define XR__STAT_FIELD(sfx, kind, name, desc) struct xr_stat_value sfx;
	XR_STATS(XR__STAT_FIELD)
#undef XR__STAT_FIELD
};

_Static_assert(sizeof(struct xr_stats) ==
	       XR_STAT_MAX * sizeof(struct xr_stat_value),
	       "xr_stats must be an array of xr_stat_value in enum order");

/* Load-time configuration (the program's .rodata, set before load). */
struct xr_xdp_cfg {
	__u8 icrc_check;	/* verify the ICRC of every RoCE packet */
	__u8 pad[7];
};

#endif /* XROCE_MAP_TYPES_H */
