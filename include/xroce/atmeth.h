/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Atomic Extended Transport Header (28 bytes): COMPARE SWAP and FETCH ADD. */
#ifndef XROCE_ATMETH_H
#define XROCE_ATMETH_H

#include <xroce/endian.h>

#define XR_ATMETH_LEN 28

struct xr_atmeth {
	struct xr_be64_split va;
	__be32 rkey;
	struct xr_be64_split swap_add;	/* swap value, or the addend */
	struct xr_be64_split compare;	/* compare value (ignored by FETCH ADD) */
} __xr_packed;

static __xr_always_inline __u64 xr_atmeth_va(const struct xr_atmeth *a)
{
	return xr_split_get(&a->va);
}

static __xr_always_inline __u32 xr_atmeth_rkey(const struct xr_atmeth *a)
{
	return xr_be32_to_cpu(a->rkey);
}

static __xr_always_inline __u64 xr_atmeth_swap_add(const struct xr_atmeth *a)
{
	return xr_split_get(&a->swap_add);
}

static __xr_always_inline __u64 xr_atmeth_compare(const struct xr_atmeth *a)
{
	return xr_split_get(&a->compare);
}

static __xr_always_inline void xr_atmeth_init(struct xr_atmeth *a, __u64 va,
					      __u32 rkey, __u64 swap_add,
					      __u64 compare)
{
	xr_split_set(&a->va, va);
	a->rkey = xr_cpu_to_be32(rkey);
	xr_split_set(&a->swap_add, swap_add);
	xr_split_set(&a->compare, compare);
}

#endif /* XROCE_ATMETH_H */
