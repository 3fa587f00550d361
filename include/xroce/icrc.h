/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The RoCEv2 invariant CRC (IBTA Annex A17.3.3).
 *
 * It is the IEEE 802.3 CRC-32 (reflected, polynomial 0xEDB88320, register
 * preset to ones, result complemented), stored little-endian in the last four
 * bytes of the UDP payload, computed over:
 *
 *   8 bytes of 0xFF  (stand-in for the IB Local Route Header)
 *   IP header        with the variant fields set to ones:
 *                      IPv4: TOS, TTL, header checksum
 *                      IPv6: traffic class, flow label, hop limit
 *   UDP header       with the checksum set to ones
 *   BTH              with the reserved byte after the P_Key (FECN/BECN) set to ones
 *   everything after the BTH up to the ICRC (extension headers, payload, pad)
 *
 * The IPv4 identification and addresses are *not* masked, so a retransmitted
 * packet with a new IP ID has a new ICRC.
 */
#ifndef XROCE_ICRC_H
#define XROCE_ICRC_H

#include <xroce/ipv4.h>
#include <xroce/ipv6.h>
#include <xroce/udp.h>
#include <xroce/bth.h>

/*
 * CRC register after the eight 0xFF bytes, starting from the all-ones
 * preset: the ICRC computation starts here, at the IP header.
 */
#define XR_ICRC_SEED		0xdebb20e3u
#define XR_CRC32_POLY_REFLECTED	0xedb88320u

#define XR_ICRC_PSHDR_V4_LEN	(XR_IPV4_HLEN + XR_UDP_HLEN + XR_BTH_LEN)
#define XR_ICRC_PSHDR_V6_LEN	(XR_IPV6_HLEN + XR_UDP_HLEN + XR_BTH_LEN)
#define XR_ICRC_PSHDR_MAX	XR_ICRC_PSHDR_V6_LEN

/* Offsets of the variant fields inside the pseudo header. */
#define XR__V4_TOS	1
#define XR__V4_TTL	8
#define XR__V4_CHECK	10
#define XR__V6_VTC	0	/* low nibble: traffic class high bits */
#define XR__V6_TCFL	1	/* traffic class low bits | flow label */

/*
 * Set the variant fields of a copied IP + UDP + BTH header block to ones.
 * @ps holds exactly XR_ICRC_PSHDR_V4_LEN or _V6_LEN bytes of wire data.
 */
static __xr_always_inline void xr_icrc_mask_v4(__u8 *ps)
{
	__u8 *udp = ps + XR_IPV4_HLEN;
	__u8 *bth = udp + XR_UDP_HLEN;

	ps[XR__V4_TOS] = 0xff;
	ps[XR__V4_TTL] = 0xff;
	ps[XR__V4_CHECK] = 0xff;
	ps[XR__V4_CHECK + 1] = 0xff;
	udp[6] = 0xff;		/* checksum */
	udp[7] = 0xff;
	bth[4] = 0xff;		/* resv8a: FECN, BECN, reserved */
}

static __xr_always_inline void xr_icrc_mask_v6(__u8 *ps)
{
	__u8 *udp = ps + XR_IPV6_HLEN;
	__u8 *bth = udp + XR_UDP_HLEN;

	ps[XR__V6_VTC] |= 0x0f;
	ps[XR__V6_TCFL] = 0xff;
	ps[XR__V6_TCFL + 1] = 0xff;
	ps[XR__V6_TCFL + 2] = 0xff;
	ps[7] = 0xff;		/* hop limit */
	udp[6] = 0xff;
	udp[7] = 0xff;
	bth[4] = 0xff;
}

#endif /* XROCE_ICRC_H */
