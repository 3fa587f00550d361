/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Every map of the XDP program. Names stay within 15 characters. */
#ifndef XROCE_BPF_MAPS_H
#define XROCE_BPF_MAPS_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include <xroce/map_types.h>
#include "xroce_consts.h"

/* Per-reason packet and byte counters (see include/xroce/stats.h). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xr_stats);
} xr_stats SEC(".maps");

/* Written by the loader: which attachment this is (see map_types.h). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xr_attach_info);
} xr_info SEC(".maps");

/* Live QPs of this interface by QPN (see map_types.h). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, XR_MAX_QPS);
	__type(key, __u32);
	__type(value, struct xr_qp_entry);
} xr_qps SEC(".maps");

/* The AF_XDP sockets of the engines serving this interface. */
struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, XR_MAX_XSKS);
	__type(key, __u32);
	__type(value, __u32);
} xr_xsks SEC(".maps");

/* The userspace engine's counters, mapped and written by libxroce. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xr_dev_counters);
} xr_dev_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, XR_MAX_QP_STATS);
	__type(key, __u32);
	__type(value, struct xr_qp_counters);
} xr_qp_stats SEC(".maps");

/* Per-CPU working memory: the verifier-visible copy of the packet. */
struct xr_scratch {
	__u8 hdr[XR_HDR_SCRATCH];
	__u8 pshdr[64];			/* ICRC pseudo header (IPv6: 60) */
	__u8 body[XR_BODY_SCRATCH];	/* after the BTH: ext headers, payload */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xr_scratch);
} xr_scratch SEC(".maps");

#endif
