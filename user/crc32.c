// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Portable CRC-32 implementations; the choice among them is in crc32_select.c. */
#include <linux/types.h>
#include <string.h>

#include "crc32.h"
#include "xr_crc32_tables.h"

/* The reference: one bit at a time, straight from the polynomial. */
uint32_t xr_crc32_bitwise(uint32_t reg, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	int k;

	while (len--) {
		reg ^= *p++;
		for (k = 0; k < 8; k++)
			reg = (reg & 1) ? (reg >> 1) ^ 0xedb88320u : reg >> 1;
	}
	return reg;
}

static inline uint32_t crc32_bytes(uint32_t reg, const uint8_t *p, size_t len)
{
	while (len--)
		reg = (reg >> 8) ^ xr_crc32_table[0][(reg ^ *p++) & 0xff];
	return reg;
}

static inline uint32_t load_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	return v;
}

uint32_t xr_crc32_slice8(uint32_t reg, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len >= 8) {
		uint32_t a = load_le32(p) ^ reg;
		uint32_t b = load_le32(p + 4);

		reg = xr_crc32_table[7][a & 0xff] ^
		      xr_crc32_table[6][(a >> 8) & 0xff] ^
		      xr_crc32_table[5][(a >> 16) & 0xff] ^
		      xr_crc32_table[4][a >> 24] ^
		      xr_crc32_table[3][b & 0xff] ^
		      xr_crc32_table[2][(b >> 8) & 0xff] ^
		      xr_crc32_table[1][(b >> 16) & 0xff] ^
		      xr_crc32_table[0][b >> 24];
		p += 8;
		len -= 8;
	}
	return crc32_bytes(reg, p, len);
}

uint32_t xr_crc32_slice16(uint32_t reg, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len >= 16) {
		uint32_t a = load_le32(p) ^ reg;
		uint32_t b = load_le32(p + 4);
		uint32_t c = load_le32(p + 8);
		uint32_t d = load_le32(p + 12);

		reg = xr_crc32_table[15][a & 0xff] ^
		      xr_crc32_table[14][(a >> 8) & 0xff] ^
		      xr_crc32_table[13][(a >> 16) & 0xff] ^
		      xr_crc32_table[12][a >> 24] ^
		      xr_crc32_table[11][b & 0xff] ^
		      xr_crc32_table[10][(b >> 8) & 0xff] ^
		      xr_crc32_table[9][(b >> 16) & 0xff] ^
		      xr_crc32_table[8][b >> 24] ^
		      xr_crc32_table[7][c & 0xff] ^
		      xr_crc32_table[6][(c >> 8) & 0xff] ^
		      xr_crc32_table[5][(c >> 16) & 0xff] ^
		      xr_crc32_table[4][c >> 24] ^
		      xr_crc32_table[3][d & 0xff] ^
		      xr_crc32_table[2][(d >> 8) & 0xff] ^
		      xr_crc32_table[1][(d >> 16) & 0xff] ^
		      xr_crc32_table[0][d >> 24];
		p += 16;
		len -= 16;
	}
	return xr_crc32_slice8(reg, p, len);
}
