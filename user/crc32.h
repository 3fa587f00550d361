/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * CRC-32 (IEEE 802.3, reflected) register updates. These take and return the
 * raw register: no pre- or post-inversion, so a computation can start from
 * any state (the ICRC starts from XR_ICRC_SEED) and be continued piecewise.
 * zlib's crc32(c, ...) equals ~xr_crc32_update(~c, ...).
 */
#ifndef XROCE_USER_CRC32_H
#define XROCE_USER_CRC32_H

#include <stddef.h>
#include <stdint.h>

typedef uint32_t (*xr_crc32_fn)(uint32_t reg, const void *buf, size_t len);

struct xr_crc32_impl {
	const char *name;
	xr_crc32_fn update;
	int (*available)(void);	/* NULL: always available */
};

/* The implementation chosen by measurement (see docs/icrc.md). */
uint32_t xr_crc32_update(uint32_t reg, const void *buf, size_t len);

/* Every implementation, for tests and the benchmark; NULL-terminated. */
extern const struct xr_crc32_impl xr_crc32_impls[];

uint32_t xr_crc32_bitwise(uint32_t reg, const void *buf, size_t len);
uint32_t xr_crc32_slice8(uint32_t reg, const void *buf, size_t len);
uint32_t xr_crc32_slice16(uint32_t reg, const void *buf, size_t len);
uint32_t xr_crc32_isal(uint32_t reg, const void *buf, size_t len);

#endif
