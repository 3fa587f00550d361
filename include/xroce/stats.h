/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Every packet the XDP program sees is counted under exactly one of these
 * reasons, in the per-CPU array map xr_stats (key: enum xr_stat, value:
 * struct xr_stat_value), so `bpftool map dump pinned .../xr_stats` and
 * `xroce status` print the same names.
 *
 * Add a reason only here: the enum, the name table and the kind all come
 * from this one list.
 */
#ifndef XROCE_STATS_H
#define XROCE_STATS_H

#include <linux/types.h>

enum xr_stat_kind {
	XR_KIND_PASS,		/* not RoCE: handed to the kernel untouched */
	XR_KIND_OK,		/* valid RoCE packet, handled */
	XR_KIND_DROP,		/* RoCE packet dropped: malformed or not allowed */
};

/* X(ENUM_SUFFIX, field_name, kind, "what it means") */
#define XR_STATS(X)                                                            \
	X(PASS_NOT_ROCE, pass_not_roce, XR_KIND_PASS,                        \
	  "not UDP port 4791: passed to the kernel")                           \
	X(ROCE_VALID, roce_valid, XR_KIND_OK,                                \
	  "valid RoCEv2 packet for a live QP: to its AF_XDP socket")           \
	X(ETH_TRUNC, eth_trunc, XR_KIND_DROP,                                \
	  "frame shorter than its Ethernet/VLAN header")                      \
	X(IP_TRUNC, ip_trunc, XR_KIND_DROP,                                  \
	  "frame shorter than its IP header")                                  \
	X(IP_BAD_VERSION, ip_bad_version, XR_KIND_DROP,                      \
	  "IP version does not match the EtherType")                           \
	X(IP_BAD_HLEN, ip_bad_hlen, XR_KIND_DROP,                            \
	  "IPv4 header length not 20 (options are not RoCEv2)")               \
	X(IP_BAD_LEN, ip_bad_len, XR_KIND_DROP,                              \
	  "IP length field larger than the frame or too small")                \
	X(IP_BAD_CSUM, ip_bad_csum, XR_KIND_DROP,                            \
	  "IPv4 header checksum wrong")                                        \
	X(IP_FRAGMENT, ip_fragment, XR_KIND_DROP,                            \
	  "fragmented RoCEv2 datagram")                                        \
	X(UDP_TRUNC, udp_trunc, XR_KIND_DROP,                                \
	  "IP payload shorter than a UDP header")                              \
	X(UDP_BAD_LEN, udp_bad_len, XR_KIND_DROP,                            \
	  "UDP length disagrees with the IP length")                           \
	X(BTH_TRUNC, bth_trunc, XR_KIND_DROP,                                \
	  "UDP payload shorter than BTH + ICRC")                               \
	X(BAD_TVER, bad_tver, XR_KIND_DROP,                                  \
	  "BTH transport header version is not 0")                             \
	X(OPCODE_UNKNOWN, opcode_unknown, XR_KIND_DROP,                      \
	  "opcode not defined for RC, UC, UD or CNP")                          \
	X(HDR_TRUNC, hdr_trunc, XR_KIND_DROP,                                \
	  "extension headers run past the ICRC")                               \
	X(LEN_PAYLOAD, len_payload, XR_KIND_DROP,                            \
	  "payload on an opcode that carries none")                            \
	X(LEN_PAD, len_pad, XR_KIND_DROP,                                    \
	  "pad count invalid for this opcode and length")                      \
	X(LEN_NOT_PMTU, len_not_pmtu, XR_KIND_DROP,                          \
	  "FIRST/MIDDLE payload is not a whole path MTU")                      \
	X(LEN_TOO_LONG, len_too_long, XR_KIND_DROP,                          \
	  "payload longer than 4096 bytes")                                    \
	X(LEN_UNALIGNED, len_unaligned, XR_KIND_DROP,                        \
	  "payload plus pad not a multiple of 4 bytes")                        \
	X(ICRC_BAD, icrc_bad, XR_KIND_DROP, "invariant CRC mismatch")         \
	X(QP_UNKNOWN, qp_unknown, XR_KIND_DROP,                              \
	  "valid RoCEv2 packet for a QPN no QP of this interface has")        \
	X(QP_NOT_READY, qp_not_ready, XR_KIND_DROP,                          \
	  "packet for a QP in RESET or INIT (not yet receiving)")             \
	X(XSK_MISSING, xsk_missing, XR_KIND_DROP,                            \
	  "the QP's AF_XDP socket is gone (application exited)")              \
	X(XSK_WRONG_QUEUE, xsk_wrong_queue, XR_KIND_DROP,                    \
	  "arrived on an RX queue the QP's engine does not serve (steer UDP "  \
	  "4791 to that queue)")

enum xr_stat {
#define XR__STAT_ENUM(sfx, name, kind, desc) XR_STAT_##sfx,
	XR_STATS(XR__STAT_ENUM)
#undef XR__STAT_ENUM
	XR_STAT_MAX
};

struct xr_stat_value {
	__u64 packets;
	__u64 bytes;
};

#endif /* XROCE_STATS_H */
