// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * What the fuzzers exercise, shared with the regression test so that every
 * input a fuzzer once crashed on runs again in `make check`.
 */
#include <stdio.h>

#include "dump.h"
#include "fuzz_body.h"
#include "pcap.h"
#include "pkt.h"

static FILE *devnull(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

/* The pcap reader, then the parser and the dump printer on every record. */
int xr_fuzz_pcap(const uint8_t *data, size_t len)
{
	static struct xr_pcap pc;
	struct xr_dump_opts text = { 0 }, json = { .json = true };
	struct xr_dump_summary sum;
	struct xr_pcap_rec rec;
	struct xr_pkt_info pi;
	FILE *out = devnull();

	if (!out)
		return 0;
	if (xr_pcap_open_mem(&pc, data, len) == 0) {
		while (xr_pcap_next(&pc, &rec) == 1)
			xr_parse_frame(rec.data, rec.caplen, XR_PARSE_ICRC, &pi);
		xr_pcap_close(&pc);
	}
	if (xr_pcap_open_mem(&pc, data, len) == 0) {
		xr_dump(&pc, out, &text, &sum);
		xr_pcap_close(&pc);
	}
	if (xr_pcap_open_mem(&pc, data, len) == 0) {
		xr_dump(&pc, out, &json, &sum);
		xr_pcap_close(&pc);
	}
	return 0;
}

/* One raw Ethernet frame through the parser, with and without the ICRC. */
int xr_fuzz_frame(const uint8_t *data, size_t len)
{
	struct xr_pkt_info pi;

	xr_parse_frame(data, len, 0, &pi);
	if (xr_parse_frame(data, len, XR_PARSE_ICRC, &pi) == XR_PKT_ROCE) {
		/* Every header the opcode claims must lie inside the frame. */
		if (pi.icrc_off + 4 > len || pi.payload_off + pi.paylen > pi.icrc_off)
			__builtin_trap();
	}
	return 0;
}
