/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* IBTA Base Transport Header (12 bytes), first header inside the UDP payload. */
#ifndef XROCE_BTH_H
#define XROCE_BTH_H

#include <xroce/endian.h>

#define XR_BTH_LEN		12
#define XR_BTH_SE		0x80
#define XR_BTH_MIG		0x40
#define XR_BTH_PAD_MASK		0x30
#define XR_BTH_PAD_SHIFT	4
#define XR_BTH_TVER_MASK	0x0f
#define XR_BTH_TVER		0	/* the only transport header version */
#define XR_BTH_FECN		0x80000000u	/* in the resv8a byte of qpn */
#define XR_BTH_BECN		0x40000000u
#define XR_BTH_QPN_MASK		0x00ffffffu
#define XR_BTH_ACK		0x80000000u
#define XR_BTH_PSN_MASK		0x00ffffffu
#define XR_DEFAULT_PKEY		0xffff
#define XR_QPN_MAX		XR_BTH_QPN_MASK

struct xr_bth {
	__u8 opcode;
	__u8 flags;		/* SE | MigReq | PadCnt (2) | TVer (4) */
	__be16 pkey;
	__be32 qpn;		/* resv8a (FECN, BECN, resv6) | DestQP (24) */
	__be32 apsn;		/* AckReq | resv7 | PSN (24) */
} __xr_packed;

static __xr_always_inline __u8 xr_bth_opcode(const struct xr_bth *b)
{
	return b->opcode;
}

static __xr_always_inline int xr_bth_se(const struct xr_bth *b)
{
	return !!(b->flags & XR_BTH_SE);
}

static __xr_always_inline int xr_bth_mig(const struct xr_bth *b)
{
	return !!(b->flags & XR_BTH_MIG);
}

static __xr_always_inline __u8 xr_bth_pad(const struct xr_bth *b)
{
	return (b->flags & XR_BTH_PAD_MASK) >> XR_BTH_PAD_SHIFT;
}

static __xr_always_inline __u8 xr_bth_tver(const struct xr_bth *b)
{
	return b->flags & XR_BTH_TVER_MASK;
}

static __xr_always_inline __u16 xr_bth_pkey(const struct xr_bth *b)
{
	return xr_be16_to_cpu(b->pkey);
}

static __xr_always_inline __u32 xr_bth_qpn(const struct xr_bth *b)
{
	return xr_be32_to_cpu(b->qpn) & XR_BTH_QPN_MASK;
}

static __xr_always_inline int xr_bth_fecn(const struct xr_bth *b)
{
	return !!(xr_be32_to_cpu(b->qpn) & XR_BTH_FECN);
}

static __xr_always_inline int xr_bth_becn(const struct xr_bth *b)
{
	return !!(xr_be32_to_cpu(b->qpn) & XR_BTH_BECN);
}

static __xr_always_inline int xr_bth_ackreq(const struct xr_bth *b)
{
	return !!(xr_be32_to_cpu(b->apsn) & XR_BTH_ACK);
}

static __xr_always_inline __u32 xr_bth_psn(const struct xr_bth *b)
{
	return xr_be32_to_cpu(b->apsn) & XR_BTH_PSN_MASK;
}

/*
 * Builds a whole BTH. MigReq stays 0 and TVer 0, as rdma_rxe and RoCE NICs
 * send them; the reserved byte is zero (its FECN/BECN bits are for switches).
 */
static __xr_always_inline void xr_bth_init(struct xr_bth *b, __u8 opcode,
					   int se, __u8 pad, __u16 pkey,
					   __u32 qpn, int ackreq, __u32 psn)
{
	b->opcode = opcode;
	b->flags = (se ? XR_BTH_SE : 0) |
		   ((pad << XR_BTH_PAD_SHIFT) & XR_BTH_PAD_MASK) | XR_BTH_TVER;
	b->pkey = xr_cpu_to_be16(pkey);
	b->qpn = xr_cpu_to_be32(qpn & XR_BTH_QPN_MASK);
	b->apsn = xr_cpu_to_be32((ackreq ? XR_BTH_ACK : 0) |
				 (psn & XR_BTH_PSN_MASK));
}

static __xr_always_inline void xr_bth_set_psn(struct xr_bth *b, __u32 psn)
{
	__u32 v = xr_be32_to_cpu(b->apsn);

	b->apsn = xr_cpu_to_be32((v & ~XR_BTH_PSN_MASK) | (psn & XR_BTH_PSN_MASK));
}

static __xr_always_inline void xr_bth_set_ackreq(struct xr_bth *b, int ackreq)
{
	__u32 v = xr_be32_to_cpu(b->apsn);

	b->apsn = xr_cpu_to_be32(ackreq ? (v | XR_BTH_ACK) : (v & ~XR_BTH_ACK));
}

#endif /* XROCE_BTH_H */
