/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Classic pcap (not pcapng) reader and writer, memory based so the same code
 * serves files (mmap) and the fuzzer (a buffer). Records of other link types
 * (Linux cooked v1/v2, raw IP) are handed out behind a synthesized Ethernet
 * header so the frame parser sees one format.
 */
#ifndef XROCE_USER_PCAP_H
#define XROCE_USER_PCAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define XR_PCAP_MAX_FRAME 65535

enum xr_pcap_linktype {
	XR_LINKTYPE_ETHERNET = 1,
	XR_LINKTYPE_RAW = 101,
	XR_LINKTYPE_LINUX_SLL = 113,
	XR_LINKTYPE_LINUX_SLL2 = 276,
};

struct xr_pcap {
	const uint8_t *buf;
	size_t len;
	size_t pos;
	int swapped;		/* file written on the other endianness */
	int nsec;		/* nanosecond timestamps */
	uint32_t linktype;
	uint32_t snaplen;
	void *map;		/* set when the buffer is an mmap of a file */
	size_t map_len;
	uint8_t frame[XR_PCAP_MAX_FRAME + 14];
	char err[128];
};

struct xr_pcap_rec {
	uint64_t ts_ns;
	const uint8_t *data;	/* Ethernet frame */
	uint32_t caplen;
	uint32_t origlen;	/* on the wire; > caplen if the capture cut it */
};

/* 0 on success, -1 with pc->err set. */
int xr_pcap_open_mem(struct xr_pcap *pc, const void *buf, size_t len);
int xr_pcap_open_file(struct xr_pcap *pc, const char *path);
/* 1: a record; 0: end of file; -1: corrupt file (pc->err says where). */
int xr_pcap_next(struct xr_pcap *pc, struct xr_pcap_rec *rec);
void xr_pcap_close(struct xr_pcap *pc);

/* Writer: Ethernet link type, microsecond timestamps. */
int xr_pcap_write_header(FILE *f);
int xr_pcap_write_frame(FILE *f, uint64_t ts_ns, const void *frame, uint32_t len);

#endif
