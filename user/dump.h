/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* `xroce dump`: decode a capture one line (or one JSON object) per packet. */
#ifndef XROCE_USER_DUMP_H
#define XROCE_USER_DUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pcap.h"

struct xr_dump_summary {
	uint64_t packets;
	uint64_t roce;		/* well-formed RoCEv2 packets (icrc_ok + icrc_bad) */
	uint64_t icrc_ok;
	uint64_t icrc_bad;
	uint64_t malformed;
};

struct xr_dump_opts {
	bool json;
	bool pretty;
};

/* 0 when the whole file was read, -1 when it is corrupt (message on out). */
int xr_dump(struct xr_pcap *pc, FILE *out, const struct xr_dump_opts *opts,
	    struct xr_dump_summary *sum);

#endif
