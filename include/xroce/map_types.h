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
	__u32 xsk_slot;		/* index into xr_xsks = the RX queue it serves */
	__u32 dest_qpn;
	__u32 path_mtu;		/* bytes */
	__u32 owner_pid;	/* process that created the QP */
};

/*
 * Counters of the userspace engine, in two BPF_F_MMAPABLE arrays that
 * libxroce maps and increments in place (no syscall per count) and that
 * bpftool and `xroce status` read: xr_dev_stats (one element) and
 * xr_qp_stats (one element per QP slot, QPN - 0x11; qpn 0 = unused).
 * X(field, "what it counts")
 */
#define XR_DEV_COUNTERS(X)                                                     \
	X(rx_frames, "frames the engine received from its AF_XDP socket")      \
	X(rx_bad, "frames the engine's parser refused (ICRC included when "   \
		  "XDP does not check it)")                                    \
	X(rx_no_qp, "frames for a QPN the engine does not have")               \
	X(rx_not_req, "frames neither request nor response")                  \
	X(tx_frames, "frames sent")                                            \
	X(tx_no_room, "frames delayed: no free TX frame")

#define XR_QP_COUNTERS(X)                                                      \
	X(tx_pkts, "frames this QP sent")                                      \
	X(rx_pkts, "frames this QP handled")                                   \
	X(retransmits, "go-back-N restarts (timeout, NAK, READ gap, RNR)")     \
	X(timeouts, "local ACK timeouts")                                      \
	X(naks_rx, "NAKs received")                                            \
	X(rnr_naks_rx, "RNR NAKs received")                                    \
	X(naks_tx, "NAKs sent")                                                \
	X(rnr_naks_tx, "RNR NAKs sent (no receive WQE)")                       \
	X(dup_rx, "duplicate requests or responses")                           \
	X(ooo_rx, "out-of-order packets (PSN ahead of the expected one)")      \
	X(drop_state, "frames dropped: QP not ready or in error")              \
	X(drop_source, "frames dropped: not from the QP's peer")

#define XR__COUNTER_FIELD(name, desc) __u64 name;

struct xr_dev_counters {
	__u32 owner_pid;	/* process using the interface, 0: none yet */
	__u32 pad;
	XR_DEV_COUNTERS(XR__COUNTER_FIELD)
};

struct xr_qp_counters {
	__u32 qpn;		/* 0: the slot is unused */
	__u32 owner_pid;
	XR_QP_COUNTERS(XR__COUNTER_FIELD)
};

#define XR_MAX_QP_STATS 1024	/* QP slots per interface */

/* xr_xsks slots: one AF_XDP socket per (interface, RX queue). */
#define XR_MAX_XSKS 64

#endif /* XROCE_MAP_TYPES_H */
