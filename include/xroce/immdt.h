/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Immediate Data Extended Transport Header (4 bytes). */
#ifndef XROCE_IMMDT_H
#define XROCE_IMMDT_H

#include <xroce/endian.h>

#define XR_IMMDT_LEN 4

/*
 * Immediate data is opaque: verbs hand it to the application in network
 * byte order (ibv_wc.imm_data is __be32), so no accessor swaps it.
 */
struct xr_immdt {
	__be32 imm;
} __xr_packed;

#endif /* XROCE_IMMDT_H */
