// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* libFuzzer entry: pcap reader + packet parser + dump printer. */
#include "fuzz_body.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	return xr_fuzz_pcap(data, len);
}
