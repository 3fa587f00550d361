// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * CRC-32 throughput of every implementation xroce could use for the ICRC:
 * its own (bitwise, slicing-by-8, slicing-by-16, ISA-L's crc32_gzip_refl()
 * with PCLMULQDQ, the one xroce uses), zlib's crc32(), and the XDP validator under
 * BPF_PROG_TEST_RUN with the ICRC check on and off. Every result is checked
 * against zlib before it is timed.
 *   bench_crc [--json]      prints GB/s and ns/byte per implementation
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <xroce/map_types.h>

#include "build.h"
#include "crc32.h"
#include "xroce_xdp.skel.h"

#define BUF_LEN 4096

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static uint32_t zlib_update(uint32_t reg, const void *buf, size_t len)
{
	return ~crc32(~reg, buf, len);
}

static void report(bool json, bool *first, const char *name, double ns_per_byte)
{
	if (json)
		printf("%s\"%s\":{\"ns_per_byte\":%.4f,\"gbytes_per_s\":%.3f}",
		       *first ? "" : ",", name, ns_per_byte, 1.0 / ns_per_byte);
	else
		printf("  %-22s %7.3f ns/B  %7.2f GB/s\n", name, ns_per_byte,
		       1.0 / ns_per_byte);
	*first = false;
}

static double time_fn(xr_crc32_fn fn, const uint8_t *buf)
{
	volatile uint32_t sink = 0;
	double t0, t;
	long iters = 1000, i;

	for (;;) {
		t0 = now_ns();
		for (i = 0; i < iters; i++)
			sink += fn(i, buf, BUF_LEN);
		t = now_ns() - t0;
		if (t > 2e8)
			break;
		iters *= 4;
	}
	return t / ((double)iters * BUF_LEN);
}

/* ns per frame of the XDP program on a @paylen-byte SEND_ONLY frame. */
static double time_xdp(bool icrc, uint32_t paylen, uint8_t *frame)
{
	struct xr_frame_addr a = { .src_mac = { 2, 0, 0, 0, 0, 1 },
				   .dst_mac = { 2, 0, 0, 0, 0, 2 },
				   .ip_version = 4, .sport = 0xc001 };
	struct xr_frame_hdrs h = { .opcode = XR_OP_RC_SEND_ONLY, .pkey = 0xffff,
				   .dqpn = 17, .psn = 1 };
	struct xroce_xdp *skel;
	uint32_t len;
	double ns = -1;

	memcpy(a.src_ip, "\x0a\x4d\x00\x01", 4);
	memcpy(a.dst_ip, "\x0a\x4d\x00\x02", 4);
	len = xr_frame_build(frame, 8192, &a, &h, frame + 8192, paylen);
	skel = xroce_xdp__open();
	if (!skel)
		return -1;
	skel->rodata->xr_cfg.icrc_check = icrc;
	if (!xroce_xdp__load(skel)) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame,
			    .data_size_in = len, .repeat = 100000);

		if (!bpf_prog_test_run_opts(bpf_program__fd(skel->progs.xroce_xdp), &o))
			ns = o.duration;
	}
	xroce_xdp__destroy(skel);
	return ns;
}

int main(int argc, char **argv)
{
	static uint8_t buf[BUF_LEN], frame[16384];
	bool json = argc > 1 && !strcmp(argv[1], "--json"), first = true;
	uint32_t want;
	const struct xr_crc32_impl *im;
	double off, on;
	size_t i;

	libbpf_set_print(NULL);
	srand(1);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = rand();
	want = zlib_update(0x12345678, buf, BUF_LEN);
	if (json)
		printf("{\"buffer_bytes\":%d,\"crc32\":{", BUF_LEN);
	else
		printf("CRC-32 over %d-byte buffers (one core):\n", BUF_LEN);
	for (im = xr_crc32_impls; im->name; im++) {
		if (im->update(0x12345678, buf, BUF_LEN) != want) {
			fprintf(stderr, "bench_crc: %s disagrees with zlib\n", im->name);
			return 1;
		}
		report(json, &first, im->name, time_fn(im->update, buf));
	}
	report(json, &first, "zlib", time_fn(zlib_update, buf));

	for (i = 0; i < 4096; i++)
		frame[8192 + i] = rand();
	off = time_xdp(false, 4096, frame);
	on = time_xdp(true, 4096, frame);
	if (off > 0 && on > 0) {
		report(json, &first, "bpf_xdp_icrc", (on - off) / 4096);
		if (json)
			printf("},\"xdp_4k_frame_ns\":{\"icrc_off\":%.0f,\"icrc_on\":%.0f}}\n",
			       off, on);
		else
			printf("XDP validator, 4096-byte SEND_ONLY frame (test_run): "
			       "%.0f ns ICRC off, %.0f ns ICRC on\n", off, on);
	} else {
		if (json)
			printf("}}\n");
		else
			printf("XDP validator: not measured (needs root: BPF_PROG_TEST_RUN)\n");
	}
	return 0;
}
