/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Userspace RoCEv2 frame parser: one pass over Ethernet, optional 802.1Q,
 * IPv4 or IPv6, UDP and the IBTA transport headers, classifying the frame the
 * same way the XDP validator does (the randomized agreement test holds the
 * two to that).
 */
#ifndef XROCE_USER_PKT_H
#define XROCE_USER_PKT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xroce/eth.h>
#include <xroce/ipv4.h>
#include <xroce/ipv6.h>
#include <xroce/udp.h>
#include <xroce/opcode.h>
#include <xroce/stats.h>

enum xr_pkt_class {
	XR_PKT_NOT_ROCE,	/* not for UDP port 4791 */
	XR_PKT_ROCE,		/* well-formed RoCEv2 (ICRC checked if asked) */
	XR_PKT_MALFORMED,	/* for RoCE but broken; reason says how */
};

struct xr_pkt_info {
	enum xr_pkt_class cls;
	enum xr_stat reason;	/* PASS_NOT_ROCE, ROCE_VALID or a drop reason */

	const uint8_t *frame;
	uint32_t frame_len;

	bool has_vlan;
	uint16_t vlan_tci;
	uint8_t ip_version;	/* 4 or 6 */
	uint32_t l3_off;	/* IP header */
	uint32_t l4_off;	/* UDP header */
	uint32_t bth_off;	/* BTH: start of the UDP payload */
	uint32_t end_off;	/* end of the UDP datagram (ignores Ethernet padding) */

	/* Valid when cls == XR_PKT_ROCE, or a transport-level malformation. */
	uint8_t opcode;
	uint32_t mask;		/* xr_opcode_table[opcode].mask */
	uint32_t hdr_len;	/* BTH + extension headers */
	uint32_t payload_off;
	uint32_t paylen;	/* payload bytes, pad excluded */
	uint8_t pad;
	uint32_t icrc_off;
	uint32_t icrc_wire;	/* as stored (little-endian on the wire) */
	uint32_t icrc_calc;	/* valid when the parser was asked to check it */
	bool icrc_checked;
};

/* Flags for xr_parse_frame(). */
#define XR_PARSE_ICRC	(1u << 0)	/* verify the ICRC (reason ICRC_BAD) */

extern const struct xr_opcode_info xr_opcode_table[256];

/* Opcode and counter names, "" for an unknown opcode. */
const char *xr_opcode_name(uint8_t opcode);
const char *xr_stat_name(enum xr_stat s);
const char *xr_stat_desc(enum xr_stat s);
enum xr_stat_kind xr_stat_kind_of(enum xr_stat s);

enum xr_pkt_class xr_parse_frame(const void *frame, size_t len, unsigned flags,
				 struct xr_pkt_info *pi);

/* Header pointers of a parsed RoCE frame; NULL if the opcode has none. */
const void *xr_pkt_hdr(const struct xr_pkt_info *pi, uint32_t hdr_mask);
#define xr_pkt_bth(pi)	((const struct xr_bth *)((pi)->frame + (pi)->bth_off))

/*
 * The ICRC of a frame whose IP/UDP/BTH offsets are known (from the parser or
 * from a builder): covers [l3_off, icrc_off) with the variant fields masked.
 * Returns the value to store little-endian at icrc_off.
 */
uint32_t xr_icrc_calc(const uint8_t *frame, uint8_t ip_version,
		      uint32_t l3_off, uint32_t icrc_off);

#endif /* XROCE_USER_PKT_H */
