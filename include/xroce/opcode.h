/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The IBTA opcode table: every RC, UC and UD opcode (plus the RoCEv2 CNP),
 * with the extension headers it carries, its role and its position in a
 * message. Parsing, building and validation, in BPF and in userspace, all
 * read this one list (XR_OPCODES below) instead of switching on opcodes.
 *
 * Extension headers follow the BTH in the order the spec fixes:
 *   DETH, RETH, AtomicETH, AETH, AtomicAckETH, ImmDt, IETH
 * so an opcode's mask alone determines every header offset and the total
 * header length; the table stores them precomputed.
 */
#ifndef XROCE_OPCODE_H
#define XROCE_OPCODE_H

#include <xroce/bth.h>
#include <xroce/reth.h>
#include <xroce/aeth.h>
#include <xroce/atmeth.h>
#include <xroce/atmack.h>
#include <xroce/immdt.h>
#include <xroce/ieth.h>
#include <xroce/deth.h>

/* Headers present after the BTH. */
#define XR_M_DETH	(1u << 0)
#define XR_M_RETH	(1u << 1)
#define XR_M_ATMETH	(1u << 2)
#define XR_M_AETH	(1u << 3)
#define XR_M_ATMACK	(1u << 4)
#define XR_M_IMMDT	(1u << 5)
#define XR_M_IETH	(1u << 6)
#define XR_M_CNPRSV	(1u << 7)	/* the CNP's 16 reserved bytes */
/* What the packet does. */
#define XR_M_PAYLOAD	(1u << 8)	/* may carry a payload */
#define XR_M_REQ	(1u << 9)	/* requester -> responder */
#define XR_M_RESP	(1u << 10)	/* responder -> requester */
#define XR_M_SEND	(1u << 11)
#define XR_M_WRITE	(1u << 12)
#define XR_M_READ	(1u << 13)
#define XR_M_ATOMIC	(1u << 14)
#define XR_M_ACK	(1u << 15)	/* ACKNOWLEDGE (ACK, NAK, RNR NAK) */
#define XR_M_CNP	(1u << 16)
/* Where it sits in a message. ONLY = FIRST | LAST. */
#define XR_M_FIRST	(1u << 17)
#define XR_M_MIDDLE	(1u << 18)
#define XR_M_LAST	(1u << 19)
/* What it costs the responder. */
#define XR_M_RWR	(1u << 20)	/* consumes a receive WQE (first packet) */
#define XR_M_COMP	(1u << 21)	/* completes a receive WQE (last packet) */
#define XR_M_VALID	(1u << 31)	/* a known opcode */

#define XR_M_ONLY	(XR_M_FIRST | XR_M_LAST)

/* Transport service: the opcode's top three bits. */
#define XR_OP_TRANSPORT(op)	((op) & 0xe0)
#define XR_TRANSPORT_RC		0x00
#define XR_TRANSPORT_UC		0x20
#define XR_TRANSPORT_RD		0x40
#define XR_TRANSPORT_UD		0x60
#define XR_TRANSPORT_CNP	0x80

#define XR_CNP_RSV_LEN	16
#define XR_ICRC_LEN	4
#define XR_MIN_PMTU	256
#define XR_MAX_PMTU	4096

#define _XR_SEND_F	(XR_M_PAYLOAD | XR_M_REQ | XR_M_SEND)
#define _XR_WRITE_F	(XR_M_PAYLOAD | XR_M_REQ | XR_M_WRITE)
#define _XR_RRESP_F	(XR_M_PAYLOAD | XR_M_RESP | XR_M_READ)

/* The send/write opcodes that RC and UC share, offset by transport. */
#define XR_OPCODES_SEND_WRITE(X, T, base)                                      \
	X(T##_SEND_FIRST, base + 0x00, _XR_SEND_F | XR_M_RWR | XR_M_FIRST)     \
	X(T##_SEND_MIDDLE, base + 0x01, _XR_SEND_F | XR_M_MIDDLE)              \
	X(T##_SEND_LAST, base + 0x02, _XR_SEND_F | XR_M_COMP | XR_M_LAST)      \
	X(T##_SEND_LAST_WITH_IMMEDIATE, base + 0x03,                           \
	  _XR_SEND_F | XR_M_IMMDT | XR_M_COMP | XR_M_LAST)                     \
	X(T##_SEND_ONLY, base + 0x04,                                          \
	  _XR_SEND_F | XR_M_RWR | XR_M_COMP | XR_M_ONLY)                       \
	X(T##_SEND_ONLY_WITH_IMMEDIATE, base + 0x05,                           \
	  _XR_SEND_F | XR_M_IMMDT | XR_M_RWR | XR_M_COMP | XR_M_ONLY)          \
	X(T##_RDMA_WRITE_FIRST, base + 0x06,                                   \
	  _XR_WRITE_F | XR_M_RETH | XR_M_FIRST)                                \
	X(T##_RDMA_WRITE_MIDDLE, base + 0x07, _XR_WRITE_F | XR_M_MIDDLE)       \
	X(T##_RDMA_WRITE_LAST, base + 0x08, _XR_WRITE_F | XR_M_LAST)           \
	X(T##_RDMA_WRITE_LAST_WITH_IMMEDIATE, base + 0x09,                     \
	  _XR_WRITE_F | XR_M_IMMDT | XR_M_RWR | XR_M_COMP | XR_M_LAST)         \
	X(T##_RDMA_WRITE_ONLY, base + 0x0a,                                    \
	  _XR_WRITE_F | XR_M_RETH | XR_M_ONLY)                                 \
	X(T##_RDMA_WRITE_ONLY_WITH_IMMEDIATE, base + 0x0b,                     \
	  _XR_WRITE_F | XR_M_RETH | XR_M_IMMDT | XR_M_RWR | XR_M_COMP |        \
		  XR_M_ONLY)

/* X(name, opcode value, mask) for every opcode xroce knows. */
#define XR_OPCODES(X)                                                          \
	XR_OPCODES_SEND_WRITE(X, RC, 0x00)                                     \
	X(RC_RDMA_READ_REQUEST, 0x0c,                                          \
	  XR_M_RETH | XR_M_REQ | XR_M_READ | XR_M_ONLY)                        \
	X(RC_RDMA_READ_RESPONSE_FIRST, 0x0d,                                   \
	  _XR_RRESP_F | XR_M_AETH | XR_M_FIRST)                                \
	X(RC_RDMA_READ_RESPONSE_MIDDLE, 0x0e, _XR_RRESP_F | XR_M_MIDDLE)       \
	X(RC_RDMA_READ_RESPONSE_LAST, 0x0f,                                    \
	  _XR_RRESP_F | XR_M_AETH | XR_M_LAST)                                 \
	X(RC_RDMA_READ_RESPONSE_ONLY, 0x10,                                    \
	  _XR_RRESP_F | XR_M_AETH | XR_M_ONLY)                                 \
	X(RC_ACKNOWLEDGE, 0x11, XR_M_AETH | XR_M_RESP | XR_M_ACK | XR_M_ONLY)  \
	X(RC_ATOMIC_ACKNOWLEDGE, 0x12,                                         \
	  XR_M_AETH | XR_M_ATMACK | XR_M_RESP | XR_M_ATOMIC | XR_M_ONLY)       \
	X(RC_COMPARE_SWAP, 0x13,                                               \
	  XR_M_ATMETH | XR_M_REQ | XR_M_ATOMIC | XR_M_ONLY)                    \
	X(RC_FETCH_ADD, 0x14, XR_M_ATMETH | XR_M_REQ | XR_M_ATOMIC | XR_M_ONLY) \
	X(RC_SEND_LAST_WITH_INVALIDATE, 0x16,                                  \
	  _XR_SEND_F | XR_M_IETH | XR_M_COMP | XR_M_LAST)                      \
	X(RC_SEND_ONLY_WITH_INVALIDATE, 0x17,                                  \
	  _XR_SEND_F | XR_M_IETH | XR_M_RWR | XR_M_COMP | XR_M_ONLY)           \
	XR_OPCODES_SEND_WRITE(X, UC, 0x20)                                     \
	X(UD_SEND_ONLY, 0x64,                                                  \
	  _XR_SEND_F | XR_M_DETH | XR_M_RWR | XR_M_COMP | XR_M_ONLY)           \
	X(UD_SEND_ONLY_WITH_IMMEDIATE, 0x65,                                   \
	  _XR_SEND_F | XR_M_DETH | XR_M_IMMDT | XR_M_RWR | XR_M_COMP |         \
		  XR_M_ONLY)                                                   \
	X(CNP, 0x81, XR_M_CNPRSV | XR_M_CNP | XR_M_ONLY)

enum xr_opcode {
#define XR__OPCODE_ENUM(name, val, mask) XR_OP_##name = (val),
	XR_OPCODES(XR__OPCODE_ENUM)
#undef XR__OPCODE_ENUM
};

/* Header offsets (from the start of the BTH) implied by a mask. */
#define XR__LEN_IF(m, bit, len)	(((m) & (bit)) ? (len) : 0)
#define XR_OFF_DETH(m)		XR_BTH_LEN
#define XR_OFF_RETH(m)		(XR_OFF_DETH(m) + XR__LEN_IF(m, XR_M_DETH, XR_DETH_LEN))
#define XR_OFF_ATMETH(m)	(XR_OFF_RETH(m) + XR__LEN_IF(m, XR_M_RETH, XR_RETH_LEN))
#define XR_OFF_AETH(m)		(XR_OFF_ATMETH(m) + XR__LEN_IF(m, XR_M_ATMETH, XR_ATMETH_LEN))
#define XR_OFF_ATMACK(m)	(XR_OFF_AETH(m) + XR__LEN_IF(m, XR_M_AETH, XR_AETH_LEN))
#define XR_OFF_IMMDT(m)		(XR_OFF_ATMACK(m) + XR__LEN_IF(m, XR_M_ATMACK, XR_ATMACK_LEN))
#define XR_OFF_IETH(m)		(XR_OFF_IMMDT(m) + XR__LEN_IF(m, XR_M_IMMDT, XR_IMMDT_LEN))
#define XR_OFF_CNPRSV(m)	(XR_OFF_IETH(m) + XR__LEN_IF(m, XR_M_IETH, XR_IETH_LEN))
#define XR_HDR_LEN(m)		(XR_OFF_CNPRSV(m) + XR__LEN_IF(m, XR_M_CNPRSV, XR_CNP_RSV_LEN))

/* Longest transport header: BTH + RETH + ImmDt (or BTH + AtomicETH). */
#define XR_MAX_HDR_LEN		(XR_BTH_LEN + XR_ATMETH_LEN)

struct xr_opcode_info {
	__u32 mask;
	__u8 length;		/* BTH + extension headers, in bytes */
	__u8 off_deth;
	__u8 off_reth;
	__u8 off_atmeth;
	__u8 off_aeth;
	__u8 off_atmack;
	__u8 off_immdt;
	__u8 off_ieth;
};

#define XR__OPCODE_INFO(name, val, m)                                          \
	[val] = {                                                              \
		.mask = (m) | XR_M_VALID,                                      \
		.length = XR_HDR_LEN(m),                                       \
		.off_deth = XR_OFF_DETH(m),                                    \
		.off_reth = XR_OFF_RETH(m),                                    \
		.off_atmeth = XR_OFF_ATMETH(m),                                \
		.off_aeth = XR_OFF_AETH(m),                                    \
		.off_atmack = XR_OFF_ATMACK(m),                                \
		.off_immdt = XR_OFF_IMMDT(m),                                  \
		.off_ieth = XR_OFF_IETH(m),                                    \
	},

/*
 * Defines the 256-entry table under the given name. Userspace defines it
 * once in user/opcode.c; the BPF program defines its own copy in .rodata
 * (a table lookup there is one bounded map-value load).
 */
#define XR_DEFINE_OPCODE_TABLE(name)                                           \
	const struct xr_opcode_info name[256] = { XR_OPCODES(XR__OPCODE_INFO) }

/* A path MTU as the spec allows it: 256, 512, 1024, 2048 or 4096 bytes. */
static __xr_always_inline int xr_is_pmtu(__u32 len)
{
	return len >= XR_MIN_PMTU && len <= XR_MAX_PMTU && !(len & (len - 1));
}

enum xr_len_verdict {
	XR_LEN_OK = 0,
	XR_LEN_NO_PAYLOAD_ALLOWED,	/* the opcode carries none, but has bytes */
	XR_LEN_PAD,			/* pad count invalid for the opcode/length */
	XR_LEN_NOT_PMTU,		/* FIRST/MIDDLE payload is not a whole path MTU */
	XR_LEN_TOO_LONG,		/* more than the largest path MTU */
	XR_LEN_UNALIGNED,		/* payload + pad not a multiple of 4 */
};

/*
 * Length rules of one packet, given the opcode's mask, the pad count from the
 * BTH and the bytes between the end of the headers and the ICRC (payload and
 * pad together). The one place both parsers check lengths.
 */
static __xr_always_inline enum xr_len_verdict
xr_opcode_check_len(__u32 mask, __u32 pad, __u32 body)
{
	if (!(mask & XR_M_PAYLOAD))
		return body || pad ? XR_LEN_NO_PAYLOAD_ALLOWED : XR_LEN_OK;
	if (body & 3)
		return XR_LEN_UNALIGNED;
	if (pad > body)
		return XR_LEN_PAD;
	if (!(mask & XR_M_LAST)) {
		/* FIRST and MIDDLE packets carry exactly one path MTU. */
		if (pad)
			return XR_LEN_PAD;
		if (!xr_is_pmtu(body))
			return XR_LEN_NOT_PMTU;
		return XR_LEN_OK;
	}
	if (body - pad > XR_MAX_PMTU)
		return XR_LEN_TOO_LONG;
	return XR_LEN_OK;
}

#endif /* XROCE_OPCODE_H */
