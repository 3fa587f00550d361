/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * AF_XDP I/O for the engine: one socket per (interface, RX queue) with its
 * own UMEM. The first half of the UMEM's frames feeds the RX fill ring, the
 * second half is a free list of TX frames that the completion ring refills.
 * Not thread-safe: the device lock serialises every call.
 */
#ifndef XROCE_USER_XSK_H
#define XROCE_USER_XSK_H

#include <stdbool.h>
#include <stdint.h>

#include <xdp/xsk.h>

#define XR_XSK_FRAME_SIZE	4096
#define XR_XSK_NUM_FRAMES	8192
#define XR_XSK_RING_SIZE	4096	/* 2048 dropped frames in scheduling gaps */
#define XR_XSK_RX_BATCH		64

/* Multi-buffer AF_XDP (Linux 6.6); Debian 12's UAPI headers predate it. */
#ifndef XDP_USE_SG
#define XDP_USE_SG (1 << 4)
#endif
#ifndef XDP_PKT_CONTD
#define XDP_PKT_CONTD (1 << 0)
#endif
#define XR_XSK_MAX_FRAME 9216	/* reassembled / split frames, jumbo MTU */

struct xr_xsk {
	struct xsk_umem *umem;
	struct xsk_socket *xsk;
	struct xsk_ring_prod fill;
	struct xsk_ring_cons comp;
	struct xsk_ring_cons rx;
	struct xsk_ring_prod tx;
	void *area;
	uint64_t *tx_free;		/* stack of free TX frame addresses */
	uint32_t tx_nfree;
	uint32_t tx_pending;		/* descriptors produced, not yet kicked */
	uint32_t queue_id;
	int fd;
	bool sg;			/* frames may span several descriptors */
	uint8_t *rx_asm;		/* a multi-descriptor frame being gathered */
	uint32_t rx_asm_len;
	bool rx_asm_bad;		/* it outgrew rx_asm: drop the rest of it */
	uint64_t tx_kicks, tx_ring_full, rx_frames, rx_oversize;
};

/* 0 or -errno; @err explains. */
int xr_xsk_open(struct xr_xsk *x, const char *ifname, uint32_t queue_id,
		char *err, size_t errlen);
void xr_xsk_close(struct xr_xsk *x);

/*
 * TX: xr_xsk_tx_frame() gives a free frame to build into (NULL when none is
 * free), xr_xsk_tx_submit() queues it with its length, xr_xsk_tx_kick()
 * sends everything queued (one syscall in copy mode).
 */
uint8_t *xr_xsk_tx_frame(struct xr_xsk *x, uint64_t *addr);
int xr_xsk_tx_submit(struct xr_xsk *x, uint64_t addr, uint32_t len);
void xr_xsk_tx_kick(struct xr_xsk *x);
/* A frame larger than one UMEM frame, from a flat buffer (needs x->sg). */
int xr_xsk_tx_submit_buf(struct xr_xsk *x, const uint8_t *buf, uint32_t len);
/* Returns completed TX frames to the free list. */
void xr_xsk_tx_reap(struct xr_xsk *x);
uint32_t xr_xsk_tx_room(struct xr_xsk *x);

/* RX: calls fn for up to @max frames, then recycles them; returns how many. */
typedef void (*xr_xsk_rx_fn)(void *ctx, uint8_t *frame, uint32_t len);
int xr_xsk_rx(struct xr_xsk *x, unsigned max, xr_xsk_rx_fn fn, void *ctx);

#endif
