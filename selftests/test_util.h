/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Helpers shared by the C tests: fixtures, commands, network namespaces. */
#ifndef XROCE_TEST_UTIL_H
#define XROCE_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#define XR_MAX_FIXTURES 128

struct xr_fixture {
	char path[512];
	char name[128];
	int manifest_roce;	/* RoCEv2 frames according to MANIFEST.md, -1 unknown */
};

/* Every pcap of the in-tree fixture folders; returns how many. */
int xr_fixtures(struct xr_fixture *out, int max);

/* Calls fn for every frame of a pcap; returns frames seen or -1. */
int xr_fixture_frames(const char *path,
		      int (*fn)(const uint8_t *frame, uint32_t len, void *ctx),
		      void *ctx);

/* system() with printf formatting; returns the exit status (or -1). */
int xr_sys(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
