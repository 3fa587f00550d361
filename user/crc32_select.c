// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The list of CRC-32 implementations and the one xroce uses: ISA-L's
 * PCLMULQDQ fold, 16x faster than slicing-by-16 here (docs/perf.md,
 * `build/selftests/bench_crc`). ISA-L picks a table fallback itself on CPUs
 * without carry-less multiply.
 */
#include <isa-l/crc.h>

#include "crc32.h"

uint32_t xr_crc32_isal(uint32_t reg, const void *buf, size_t len)
{
	/* ISA-L, like zlib, takes and returns the inverted register. */
	return ~crc32_gzip_refl(~reg, buf, len);
}

const struct xr_crc32_impl xr_crc32_impls[] = {
	{ "bitwise", xr_crc32_bitwise, NULL },
	{ "slice8", xr_crc32_slice8, NULL },
	{ "slice16", xr_crc32_slice16, NULL },
	{ "isal", xr_crc32_isal, NULL },
	{ NULL, NULL, NULL },
};

uint32_t xr_crc32_update(uint32_t reg, const void *buf, size_t len)
{
	return xr_crc32_isal(reg, buf, len);
}
