/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Invalidate Extended Transport Header (4 bytes): the rkey to invalidate. */
#ifndef XROCE_IETH_H
#define XROCE_IETH_H

#include <xroce/endian.h>

#define XR_IETH_LEN 4

struct xr_ieth {
	__be32 rkey;
} __xr_packed;

static __xr_always_inline __u32 xr_ieth_rkey(const struct xr_ieth *i)
{
	return xr_be32_to_cpu(i->rkey);
}

#endif /* XROCE_IETH_H */
