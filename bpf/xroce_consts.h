/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Limits of the XDP program; each can be overridden with -D at build time. */
#ifndef XROCE_BPF_CONSTS_H
#define XROCE_BPF_CONSTS_H

/*
 * Bytes of the frame copied for header parsing: Ethernet + 802.1Q + IPv6 +
 * UDP + the longest transport header (BTH + AtomicETH) is 106 bytes.
 */
#ifndef XR_HDR_SCRATCH
#define XR_HDR_SCRATCH 128
#endif

/*
 * Payload scratch: the ICRC runs over at most 40 bytes of extension headers
 * plus 4096 + 3 bytes of payload and pad. Twice that keeps every copy out of
 * it verifiable by its maximum offset plus maximum length.
 */
#ifndef XR_BODY_SCRATCH
#define XR_BODY_SCRATCH 8192
#endif

/* QPs per interface. */
#ifndef XR_MAX_QPS
#define XR_MAX_QPS 16384
#endif

/* IBV_QPS_RTR: a QP receives from this state on. */
#define XR_QPS_RTR_VAL 2

/* Verdict placeholder: not decided yet, keep processing. */
#define XR_CONTINUE (-1)

#endif
