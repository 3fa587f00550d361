/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
#ifndef XROCE_FUZZ_BODY_H
#define XROCE_FUZZ_BODY_H

#include <stddef.h>
#include <stdint.h>

int xr_fuzz_pcap(const uint8_t *data, size_t len);
int xr_fuzz_frame(const uint8_t *data, size_t len);

#endif
