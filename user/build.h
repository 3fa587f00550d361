/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * RoCEv2 frame builder: Ethernet (+802.1Q), IPv4 or IPv6, UDP, BTH and the
 * extension headers the opcode table lists for the opcode, payload, pad and
 * ICRC. The requester, the responder and the tests all build frames here.
 *
 * Two phases so a frame can be laid out over several buffers (an AF_XDP
 * packet larger than one UMEM chunk): xr_frame_hdr() writes the headers and
 * starts the ICRC; the caller copies payload and pad, feeding them to
 * xr_icrc_update(); xr_icrc_final() gives the four ICRC bytes.
 */
#ifndef XROCE_USER_BUILD_H
#define XROCE_USER_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include <xroce/opcode.h>

/* Where a QP's frames go: fixed per connection, computed once. */
struct xr_frame_addr {
	uint8_t src_mac[6];
	uint8_t dst_mac[6];
	uint16_t vlan_tci;	/* 0: untagged */
	uint8_t ip_version;	/* 4 or 6 */
	uint8_t src_ip[16];	/* IPv4 in the first 4 bytes */
	uint8_t dst_ip[16];
	uint16_t sport;		/* UDP source port */
	uint8_t tclass;		/* IPv4 TOS / IPv6 traffic class */
	uint8_t hop_limit;	/* IPv4 TTL / IPv6 hop limit */
	uint32_t flow_label;	/* IPv6 only */
};

/* The transport header fields; only those the opcode carries are used. */
struct xr_frame_hdrs {
	uint8_t opcode;
	uint8_t se;
	uint8_t ackreq;
	uint16_t pkey;
	uint32_t dqpn;
	uint32_t psn;
	uint16_t ip_id;
	struct { uint64_t va; uint32_t rkey, len; } reth;
	struct { uint8_t syndrome; uint32_t msn; } aeth;
	struct { uint64_t va; uint32_t rkey; uint64_t swap_add, compare; } atmeth;
	uint64_t atmack_orig;
	uint32_t imm_be;	/* network order, as verbs carries it */
	uint32_t ieth_rkey;
	struct { uint32_t qkey, sqp; } deth;
};

struct xr_frame_layout {
	uint32_t len;		/* whole frame */
	uint32_t hdr_len;	/* up to the payload */
	uint32_t l3_off;
	uint32_t pad;
	uint32_t icrc_off;
};

/* Frame length for a payload of @paylen bytes under this addressing. */
uint32_t xr_frame_len(const struct xr_frame_addr *a, uint8_t opcode,
		      uint32_t paylen);

/*
 * Writes every header into @buf (at least layout->hdr_len bytes) and
 * returns the ICRC register after them; fills @layout.
 */
uint32_t xr_frame_hdr(uint8_t *buf, const struct xr_frame_addr *a,
		      const struct xr_frame_hdrs *h, uint32_t paylen,
		      struct xr_frame_layout *layout);

uint32_t xr_icrc_update(uint32_t reg, const void *buf, size_t len);
/* The four ICRC bytes, ready to copy to the end of the frame. */
void xr_icrc_final(uint32_t reg, uint8_t out[4]);

/* Whole frame into one buffer; returns its length, 0 if @cap is too small. */
uint32_t xr_frame_build(uint8_t *buf, size_t cap, const struct xr_frame_addr *a,
			const struct xr_frame_hdrs *h, const void *payload,
			uint32_t paylen);

#endif
