// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The list of CRC-32 implementations and the one xroce uses. */
#include "crc32.h"

const struct xr_crc32_impl xr_crc32_impls[] = {
	{ "bitwise", xr_crc32_bitwise, NULL },
	{ "slice8", xr_crc32_slice8, NULL },
	{ "slice16", xr_crc32_slice16, NULL },
	{ NULL, NULL, NULL },
};

uint32_t xr_crc32_update(uint32_t reg, const void *buf, size_t len)
{
	return xr_crc32_slice16(reg, buf, len);
}
