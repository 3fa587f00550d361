// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* libFuzzer entry: one raw Ethernet frame through the RoCEv2 parser. */
#include "fuzz_body.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	return xr_fuzz_frame(data, len);
}
