/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* ACK Extended Transport Header (4 bytes): syndrome (8) | MSN (24). */
#ifndef XROCE_AETH_H
#define XROCE_AETH_H

#include <xroce/endian.h>

#define XR_AETH_LEN		4
#define XR_AETH_MSN_MASK	0x00ffffffu
#define XR_AETH_SYN_SHIFT	24

/* Syndrome bits 6:5 say what the packet is; bits 4:0 its value. */
#define XR_AETH_TYPE_MASK	0x60
#define XR_AETH_TYPE_ACK	0x00	/* value: credit count code */
#define XR_AETH_TYPE_RNR_NAK	0x20	/* value: RNR timer code */
#define XR_AETH_TYPE_RSVD	0x40
#define XR_AETH_TYPE_NAK	0x60	/* value: NAK code below */
#define XR_AETH_VALUE_MASK	0x1f
#define XR_AETH_CREDIT_INVALID	0x1f	/* "unlimited": what rdma_rxe always sends */

enum xr_nak_code {
	XR_NAK_PSN_SEQ_ERR = 0,
	XR_NAK_INVALID_REQ = 1,
	XR_NAK_REM_ACCESS_ERR = 2,
	XR_NAK_REM_OP_ERR = 3,
	XR_NAK_INVALID_RD_REQ = 4,
};

struct xr_aeth {
	__be32 smsn;
} __xr_packed;

static __xr_always_inline __u8 xr_aeth_syndrome(const struct xr_aeth *a)
{
	return xr_be32_to_cpu(a->smsn) >> XR_AETH_SYN_SHIFT;
}

static __xr_always_inline __u32 xr_aeth_msn(const struct xr_aeth *a)
{
	return xr_be32_to_cpu(a->smsn) & XR_AETH_MSN_MASK;
}

static __xr_always_inline void xr_aeth_init(struct xr_aeth *a, __u8 syndrome,
					    __u32 msn)
{
	a->smsn = xr_cpu_to_be32(((__u32)syndrome << XR_AETH_SYN_SHIFT) |
				 (msn & XR_AETH_MSN_MASK));
}

#endif /* XROCE_AETH_H */
