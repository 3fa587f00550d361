/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* RDMA Extended Transport Header (16 bytes): RDMA WRITE FIRST/ONLY, READ REQUEST. */
#ifndef XROCE_RETH_H
#define XROCE_RETH_H

#include <xroce/endian.h>

#define XR_RETH_LEN 16

struct xr_reth {
	struct xr_be64_split va;
	__be32 rkey;
	__be32 dma_len;
} __xr_packed;

static __xr_always_inline __u64 xr_reth_va(const struct xr_reth *r)
{
	return xr_split_get(&r->va);
}

static __xr_always_inline __u32 xr_reth_rkey(const struct xr_reth *r)
{
	return xr_be32_to_cpu(r->rkey);
}

static __xr_always_inline __u32 xr_reth_len(const struct xr_reth *r)
{
	return xr_be32_to_cpu(r->dma_len);
}

static __xr_always_inline void xr_reth_init(struct xr_reth *r, __u64 va,
					    __u32 rkey, __u32 len)
{
	xr_split_set(&r->va, va);
	r->rkey = xr_cpu_to_be32(rkey);
	r->dma_len = xr_cpu_to_be32(len);
}

#endif /* XROCE_RETH_H */
