/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The RoCEv2 ICRC in XDP. No helper computes CRC-32 over packet data, so
 * this is table-driven slicing-by-8 over per-CPU scratch, with the tables
 * (build/gen/xr_crc32_tables.h, shared with userspace) in .rodata. What the
 * ICRC covers and which fields are masked: include/xroce/icrc.h.
 */
#ifndef XROCE_BPF_ICRC_H
#define XROCE_BPF_ICRC_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include <xroce/icrc.h>
#include "xr_crc32_tables.h"
#include "xroce_parse.h"

#define XR_TBL(k, x) xr_crc32_table[k][(x) & 0xff]

static __always_inline __u32 xr_crc32_word8(__u32 reg, const __u8 *p)
{
	__u32 a = (__u32)p[0] | (__u32)p[1] << 8 | (__u32)p[2] << 16 |
		  (__u32)p[3] << 24;
	__u32 b = (__u32)p[4] | (__u32)p[5] << 8 | (__u32)p[6] << 16 |
		  (__u32)p[7] << 24;

	a ^= reg;
	return XR_TBL(7, a) ^ XR_TBL(6, a >> 8) ^ XR_TBL(5, a >> 16) ^
	       XR_TBL(4, a >> 24) ^ XR_TBL(3, b) ^ XR_TBL(2, b >> 8) ^
	       XR_TBL(1, b >> 16) ^ XR_TBL(0, b >> 24);
}

struct xr_crc_loop {
	const __u8 *buf;
	__u32 reg;
	__u32 base;
};

/* bpf_loop callbacks: the verifier checks them once, not per iteration. */
static long xr_crc_block64(__u32 i, void *data)
{
	struct xr_crc_loop *c = data;
	__u32 off = (i * 64) & (XR_BODY_SCRATCH - 64);
	int k;

#pragma unroll
	for (k = 0; k < 64; k += 8)
		c->reg = xr_crc32_word8(c->reg, c->buf + off + k);
	return 0;
}

static long xr_crc_word8(__u32 i, void *data)
{
	struct xr_crc_loop *c = data;
	__u32 off = (c->base + i * 8) & (XR_BODY_SCRATCH - 8);

	c->reg = xr_crc32_word8(c->reg, c->buf + off);
	return 0;
}

/*
 * CRC register over buf[0, len), len <= XR_BODY_SCRATCH: 64-byte blocks,
 * then 8-byte words, then up to seven single bytes.
 */
static __always_inline __u32 xr_crc32_body(__u32 reg, const __u8 *buf, __u32 len)
{
	struct xr_crc_loop c = { .buf = buf, .reg = reg };
	__u32 tail;
	int k;

	if (len > XR_BODY_SCRATCH)
		return ~reg;	/* cannot match: callers bound len already */
	bpf_loop(len / 64, xr_crc_block64, &c, 0);
	c.base = len & ~63u;
	bpf_loop((len & 63) / 8, xr_crc_word8, &c, 0);
	tail = len & ~7u;
#pragma unroll
	for (k = 0; k < 7; k++) {
		if (tail + k >= len)
			break;
		c.reg = (c.reg >> 8) ^
			XR_TBL(0, c.reg ^ buf[(tail + k) & (XR_BODY_SCRATCH - 1)]);
	}
	return c.reg;
}

/* CRC register over the masked IP + UDP + BTH copy in s->pshdr. */
static __always_inline __u32 xr_icrc_pshdr(struct xr_pkt *p)
{
	struct xr_scratch *s = p->s;
	__u32 reg = XR_ICRC_SEED;
	int i;

	if (p->ip_version == 4) {
		__builtin_memcpy(s->pshdr, s->hdr + XR_HOFF(p->l3_off),
				 XR_ICRC_PSHDR_V4_LEN);
		xr_icrc_mask_v4(s->pshdr);
		/* 40 of the 40 bytes in words of eight. */
#pragma unroll
		for (i = 0; i < XR_ICRC_PSHDR_V4_LEN; i += 8)
			reg = xr_crc32_word8(reg, s->pshdr + i);
	} else {
		__builtin_memcpy(s->pshdr, s->hdr + XR_HOFF(p->l3_off),
				 XR_ICRC_PSHDR_V6_LEN);
		xr_icrc_mask_v6(s->pshdr);
#pragma unroll
		for (i = 0; i < XR_ICRC_PSHDR_V6_LEN - 4; i += 8)
			reg = xr_crc32_word8(reg, s->pshdr + i);
#pragma unroll
		for (i = XR_ICRC_PSHDR_V6_LEN - 4; i < XR_ICRC_PSHDR_V6_LEN; i++)
			reg = (reg >> 8) ^ XR_TBL(0, reg ^ s->pshdr[i]);
	}
	return reg;
}

/*
 * Copies everything after the BTH (extension headers, payload, pad) into
 * s->body and checks the ICRC over it. Returns 1 if the ICRC matches.
 */
static __always_inline int xr_icrc_ok(struct xdp_md *ctx, struct xr_pkt *p)
{
	__u32 start = p->bth_off + XR_BTH_LEN;
	__u32 n = p->icrc_off - start;
	__u32 reg, wire = 0;

	if (n > XR_BODY_SCRATCH - XR_ICRC_LEN)
		return 0;
	/* One copy: the ICRC bytes land right after the covered bytes. */
	if (bpf_xdp_load_bytes(ctx, start, p->s->body, n + XR_ICRC_LEN))
		return 0;
	reg = xr_icrc_pshdr(p);
	reg = xr_crc32_body(reg, p->s->body, n);
	wire = (__u32)p->s->body[n & (XR_BODY_SCRATCH - 1)] |
	       (__u32)p->s->body[(n + 1) & (XR_BODY_SCRATCH - 1)] << 8 |
	       (__u32)p->s->body[(n + 2) & (XR_BODY_SCRATCH - 1)] << 16 |
	       (__u32)p->s->body[(n + 3) & (XR_BODY_SCRATCH - 1)] << 24;
	return ~reg == wire;
}

#endif
