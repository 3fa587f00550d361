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

/* X(ENUM_SUFFIX, kind, "name", "what it means") */
#define XR_STATS(X)                                                            \
	X(PASS_NOT_ROCE, XR_KIND_PASS, "pass_not_roce",                        \
	  "not UDP port 4791: passed to the kernel")                           \
	X(ROCE_VALID, XR_KIND_OK, "roce_valid",                                \
	  "valid RoCEv2 packet (validator only, no consumer attached)")       \
	X(ETH_TRUNC, XR_KIND_DROP, "eth_trunc",                                \
	  "frame shorter than its Ethernet/VLAN header")                      \
	X(IP_TRUNC, XR_KIND_DROP, "ip_trunc",                                  \
	  "frame shorter than its IP header")                                  \
	X(IP_BAD_VERSION, XR_KIND_DROP, "ip_bad_version",                      \
	  "IP version does not match the EtherType")                           \
	X(IP_BAD_HLEN, XR_KIND_DROP, "ip_bad_hlen",                            \
	  "IPv4 header length not 20 (options are not RoCEv2)")               \
	X(IP_BAD_LEN, XR_KIND_DROP, "ip_bad_len",                              \
	  "IP length field larger than the frame or too small")                \
	X(IP_BAD_CSUM, XR_KIND_DROP, "ip_bad_csum",                            \
	  "IPv4 header checksum wrong")                                        \
	X(IP_FRAGMENT, XR_KIND_DROP, "ip_fragment",                            \
	  "fragmented RoCEv2 datagram")                                        \
	X(UDP_TRUNC, XR_KIND_DROP, "udp_trunc",                                \
	  "IP payload shorter than a UDP header")                              \
	X(UDP_BAD_LEN, XR_KIND_DROP, "udp_bad_len",                            \
	  "UDP length disagrees with the IP length")                           \
	X(BTH_TRUNC, XR_KIND_DROP, "bth_trunc",                                \
	  "UDP payload shorter than BTH + ICRC")                               \
	X(BAD_TVER, XR_KIND_DROP, "bad_tver",                                  \
	  "BTH transport header version is not 0")                             \
	X(OPCODE_UNKNOWN, XR_KIND_DROP, "opcode_unknown",                      \
	  "opcode not defined for RC, UC, UD or CNP")                          \
	X(HDR_TRUNC, XR_KIND_DROP, "hdr_trunc",                                \
	  "extension headers run past the ICRC")                               \
	X(LEN_PAYLOAD, XR_KIND_DROP, "len_payload",                            \
	  "payload on an opcode that carries none")                            \
	X(LEN_PAD, XR_KIND_DROP, "len_pad",                                    \
	  "pad count invalid for this opcode and length")                      \
	X(LEN_NOT_PMTU, XR_KIND_DROP, "len_not_pmtu",                          \
	  "FIRST/MIDDLE payload is not a whole path MTU")                      \
	X(LEN_TOO_LONG, XR_KIND_DROP, "len_too_long",                          \
	  "payload longer than 4096 bytes")                                    \
	X(LEN_UNALIGNED, XR_KIND_DROP, "len_unaligned",                        \
	  "payload plus pad not a multiple of 4 bytes")                        \
	X(ICRC_BAD, XR_KIND_DROP, "icrc_bad", "invariant CRC mismatch")

enum xr_stat {
#define XR__STAT_ENUM(sfx, kind, name, desc) XR_STAT_##sfx,
	XR_STATS(XR__STAT_ENUM)
#undef XR__STAT_ENUM
	XR_STAT_MAX
};

struct xr_stat_value {
	__u64 packets;
	__u64 bytes;
};

#endif /* XROCE_STATS_H */
