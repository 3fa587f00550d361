/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Byte-order helpers usable from both BPF (clang -target bpf) and userspace.
 *
 * Every wire field in include/xroce/ is declared with a __be type; these are
 * the only places that swap bytes, so a field read anywhere else without one
 * of them is a bug that sparse-style review catches.
 */
#ifndef XROCE_ENDIAN_H
#define XROCE_ENDIAN_H

#include <linux/types.h>

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define xr_be16_to_cpu(x) ((__u16)__builtin_bswap16((__u16)(x)))
#define xr_be32_to_cpu(x) ((__u32)__builtin_bswap32((__u32)(x)))
#define xr_be64_to_cpu(x) ((__u64)__builtin_bswap64((__u64)(x)))
#define xr_cpu_to_be16(x) ((__be16)__builtin_bswap16((__u16)(x)))
#define xr_cpu_to_be32(x) ((__be32)__builtin_bswap32((__u32)(x)))
#define xr_cpu_to_be64(x) ((__be64)__builtin_bswap64((__u64)(x)))
#elif __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define xr_be16_to_cpu(x) ((__u16)(x))
#define xr_be32_to_cpu(x) ((__u32)(x))
#define xr_be64_to_cpu(x) ((__u64)(x))
#define xr_cpu_to_be16(x) ((__be16)(x))
#define xr_cpu_to_be32(x) ((__be32)(x))
#define xr_cpu_to_be64(x) ((__be64)(x))
#else
#error "unknown byte order"
#endif

#ifndef __xr_packed
#define __xr_packed __attribute__((packed))
#endif

#ifndef __xr_always_inline
#define __xr_always_inline inline __attribute__((always_inline))
#endif

/*
 * 64-bit wire fields sit at 4-byte (not 8-byte) offsets in RoCE packets, so
 * they are stored as two big-endian halves; a plain __be64 member would make
 * the packed struct's accessors depend on the compiler splitting the load.
 */
struct xr_be64_split {
	__be32 hi;
	__be32 lo;
} __xr_packed;

static __xr_always_inline __u64 xr_split_get(const struct xr_be64_split *v)
{
	return ((__u64)xr_be32_to_cpu(v->hi) << 32) | xr_be32_to_cpu(v->lo);
}

static __xr_always_inline void xr_split_set(struct xr_be64_split *v, __u64 x)
{
	v->hi = xr_cpu_to_be32((__u32)(x >> 32));
	v->lo = xr_cpu_to_be32((__u32)x);
}

#endif /* XROCE_ENDIAN_H */
