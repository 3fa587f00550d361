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
#define XR__STAT_FIELD(sfx, name, kind, desc) struct xr_stat_value name;
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

/*
 * xr_info: what `xroce attach` did, written once after attaching so that
 * `xroce status`, libxroce and bpftool can tell which attachment a pin
 * directory belongs to.
 */
enum xr_attach_mode {
	XR_ATTACH_NATIVE = 1,
	XR_ATTACH_SKB = 2,
};

struct xr_attach_info {
	__u32 ifindex;
	__u32 prog_id;
	__u64 netns_ino;	/* inode of the network namespace */
	__u64 attach_time;	/* CLOCK_REALTIME seconds */
	__u32 mode;		/* enum xr_attach_mode */
	__u8 icrc_check;
	__u8 pad[3];
};

/*
 * xr_qps: every QP of this interface, keyed by QPN (host order). libxroce
 * writes an entry when the QP is created and on every state change, so the
 * XDP program steers the QP's frames to the AF_XDP socket in xsk_slot of
 * xr_xsks, and `bpftool map dump` shows live QPs by name. The fast path of
 * a later version reads the same entry.
 */
struct xr_qp_entry {
	__u32 qpn;
	__u32 state;		/* enum xr_qp_state (IBV_QPS_* values) */
	__u32 xsk_slot;		/* index into xr_xsks */
	__u32 dest_qpn;
	__u32 path_mtu;		/* bytes */
	__u32 owner_pid;	/* process that created the QP */
};

/* xr_xsks slots: one AF_XDP socket per (interface, RX queue). */
#define XR_MAX_XSKS 64

#endif /* XROCE_MAP_TYPES_H */
