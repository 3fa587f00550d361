/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Datagram Extended Transport Header (8 bytes): UD Q_Key and source QP. */
#ifndef XROCE_DETH_H
#define XROCE_DETH_H

#include <xroce/endian.h>

#define XR_DETH_LEN		8
#define XR_DETH_SQP_MASK	0x00ffffffu
#define XR_GSI_QKEY		0x80010000u	/* QP1 (CM MADs) */

struct xr_deth {
	__be32 qkey;
	__be32 sqp;		/* resv8 | source QP (24) */
} __xr_packed;

static __xr_always_inline __u32 xr_deth_qkey(const struct xr_deth *d)
{
	return xr_be32_to_cpu(d->qkey);
}

static __xr_always_inline __u32 xr_deth_sqp(const struct xr_deth *d)
{
	return xr_be32_to_cpu(d->sqp) & XR_DETH_SQP_MASK;
}

#endif /* XROCE_DETH_H */
