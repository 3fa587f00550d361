/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* AtomicAckETH (8 bytes): the original value at the target address. */
#ifndef XROCE_ATMACK_H
#define XROCE_ATMACK_H

#include <xroce/endian.h>

#define XR_ATMACK_LEN 8

struct xr_atmack {
	struct xr_be64_split orig;
} __xr_packed;

static __xr_always_inline __u64 xr_atmack_orig(const struct xr_atmack *a)
{
	return xr_split_get(&a->orig);
}

static __xr_always_inline void xr_atmack_init(struct xr_atmack *a, __u64 orig)
{
	xr_split_set(&a->orig, orig);
}

#endif /* XROCE_ATMACK_H */
