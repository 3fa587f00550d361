// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "xsk.h"

#define RX_FRAMES (XR_XSK_NUM_FRAMES / 2)

int xr_xsk_open(struct xr_xsk *x, const char *ifname, uint32_t queue_id,
		char *err, size_t errlen)
{
	struct xsk_umem_config ucfg = {
		.fill_size = XR_XSK_RING_SIZE,
		.comp_size = XR_XSK_RING_SIZE,
		.frame_size = XR_XSK_FRAME_SIZE,
		.frame_headroom = 0,
	};
	struct xsk_socket_config scfg = {
		.rx_size = XR_XSK_RING_SIZE,
		.tx_size = XR_XSK_RING_SIZE,
		/* xroce's own XDP program steers frames: libxdp must not load its. */
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		/* Zero-copy where the driver has it, copy mode otherwise (veth). */
		.bind_flags = XDP_USE_NEED_WAKEUP,
	};
	size_t size = (size_t)XR_XSK_NUM_FRAMES * XR_XSK_FRAME_SIZE;
	uint32_t idx, i;
	int ret;

	memset(x, 0, sizeof(*x));
	x->fd = -1;
	x->queue_id = queue_id;
	x->area = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (x->area == MAP_FAILED) {
		x->area = NULL;
		snprintf(err, errlen, "cannot allocate %zu bytes of UMEM: %s", size,
			 strerror(errno));
		return -ENOMEM;
	}
	ret = xsk_umem__create(&x->umem, x->area, size, &x->fill, &x->comp, &ucfg);
	if (ret) {
		snprintf(err, errlen, "cannot register the AF_XDP UMEM: %s%s",
			 strerror(-ret), ret == -EPERM ? " (run as root)" : "");
		goto fail;
	}
	/* Jumbo frames span several UMEM frames: ask for multi-buffer first. */
	scfg.bind_flags |= XDP_USE_SG;
	ret = xsk_socket__create(&x->xsk, ifname, queue_id, x->umem, &x->rx, &x->tx,
				 &scfg);
	x->sg = !ret;
	if (ret == -EINVAL || ret == -EOPNOTSUPP) {
		scfg.bind_flags &= ~XDP_USE_SG;
		ret = xsk_socket__create(&x->xsk, ifname, queue_id, x->umem, &x->rx,
					 &x->tx, &scfg);
	}
	if (ret == -EBUSY) {
		snprintf(err, errlen, "%s is in use by another xroce application or "
			 "AF_XDP program (queue %u is taken; this version serves one "
			 "application per interface)", ifname, queue_id);
		goto fail;
	}
	if (ret) {
		snprintf(err, errlen, "cannot bind an AF_XDP socket to %s queue %u: %s",
			 ifname, queue_id, strerror(-ret));
		goto fail;
	}
	x->fd = xsk_socket__fd(x->xsk);

	if (xsk_ring_prod__reserve(&x->fill, RX_FRAMES, &idx) != RX_FRAMES) {
		ret = -ENOSPC;
		snprintf(err, errlen, "cannot fill the AF_XDP fill ring");
		goto fail;
	}
	for (i = 0; i < RX_FRAMES; i++)
		*xsk_ring_prod__fill_addr(&x->fill, idx + i) =
			(uint64_t)i * XR_XSK_FRAME_SIZE;
	xsk_ring_prod__submit(&x->fill, RX_FRAMES);

	x->tx_free = calloc(XR_XSK_NUM_FRAMES - RX_FRAMES, sizeof(uint64_t));
	x->rx_asm = malloc(XR_XSK_MAX_FRAME);
	if (!x->tx_free || !x->rx_asm) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	for (i = RX_FRAMES; i < XR_XSK_NUM_FRAMES; i++)
		x->tx_free[x->tx_nfree++] = (uint64_t)i * XR_XSK_FRAME_SIZE;
	return 0;
fail:
	xr_xsk_close(x);
	return ret;
}

void xr_xsk_close(struct xr_xsk *x)
{
	if (x->xsk)
		xsk_socket__delete(x->xsk);
	if (x->umem)
		xsk_umem__delete(x->umem);
	if (x->area)
		munmap(x->area, (size_t)XR_XSK_NUM_FRAMES * XR_XSK_FRAME_SIZE);
	free(x->tx_free);
	free(x->rx_asm);
	memset(x, 0, sizeof(*x));
	x->fd = -1;
}

void xr_xsk_tx_reap(struct xr_xsk *x)
{
	uint32_t idx, n, i;

	n = xsk_ring_cons__peek(&x->comp, XR_XSK_RING_SIZE, &idx);
	for (i = 0; i < n; i++)
		x->tx_free[x->tx_nfree++] = *xsk_ring_cons__comp_addr(&x->comp, idx + i);
	if (n)
		xsk_ring_cons__release(&x->comp, n);
}

uint32_t xr_xsk_tx_room(struct xr_xsk *x)
{
	uint32_t ring = xsk_prod_nb_free(&x->tx, XR_XSK_RING_SIZE);

	if (x->tx_nfree < 8)
		xr_xsk_tx_reap(x);
	return ring < x->tx_nfree ? ring : x->tx_nfree;
}

uint8_t *xr_xsk_tx_frame(struct xr_xsk *x, uint64_t *addr)
{
	if (!x->tx_nfree)
		xr_xsk_tx_reap(x);
	if (!x->tx_nfree)
		return NULL;
	*addr = x->tx_free[--x->tx_nfree];
	return xsk_umem__get_data(x->area, *addr);
}

int xr_xsk_tx_submit(struct xr_xsk *x, uint64_t addr, uint32_t len)
{
	struct xdp_desc *d;
	uint32_t idx;

	if (xsk_ring_prod__reserve(&x->tx, 1, &idx) != 1) {
		/* Give the frame back; the caller retries after a kick. */
		x->tx_free[x->tx_nfree++] = addr;
		x->tx_ring_full++;
		return -ENOBUFS;
	}
	d = xsk_ring_prod__tx_desc(&x->tx, idx);
	d->addr = addr;
	d->len = len;
	d->options = 0;
	xsk_ring_prod__submit(&x->tx, 1);
	x->tx_pending++;
	return 0;
}

int xr_xsk_tx_submit_buf(struct xr_xsk *x, const uint8_t *buf, uint32_t len)
{
	uint32_t n = (len + XR_XSK_FRAME_SIZE - 1) / XR_XSK_FRAME_SIZE, idx, i;

	if (!x->sg || n > 8)
		return -EMSGSIZE;
	if (x->tx_nfree < n)
		xr_xsk_tx_reap(x);
	if (x->tx_nfree < n)
		return -ENOBUFS;
	if (xsk_ring_prod__reserve(&x->tx, n, &idx) != n) {
		x->tx_ring_full++;
		return -ENOBUFS;
	}
	for (i = 0; i < n; i++) {
		struct xdp_desc *d = xsk_ring_prod__tx_desc(&x->tx, idx + i);
		uint32_t l = len - i * XR_XSK_FRAME_SIZE;
		uint64_t addr = x->tx_free[--x->tx_nfree];

		if (l > XR_XSK_FRAME_SIZE)
			l = XR_XSK_FRAME_SIZE;
		memcpy(xsk_umem__get_data(x->area, addr), buf + i * XR_XSK_FRAME_SIZE, l);
		d->addr = addr;
		d->len = l;
		d->options = i + 1 < n ? XDP_PKT_CONTD : 0;
	}
	xsk_ring_prod__submit(&x->tx, n);
	x->tx_pending += n;
	return 0;
}

void xr_xsk_tx_kick(struct xr_xsk *x)
{
	if (!x->tx_pending)
		return;
	/* Copy mode sends from sendto()'s context; zero-copy only when asked. */
	if (xsk_ring_prod__needs_wakeup(&x->tx)) {
		int tries = 0;

		while (sendto(x->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0 &&
		       (errno == EAGAIN || errno == EBUSY) && tries++ < 64)
			xr_xsk_tx_reap(x);
		x->tx_kicks++;
	}
	x->tx_pending = 0;
	xr_xsk_tx_reap(x);
}

int xr_xsk_rx(struct xr_xsk *x, unsigned max, xr_xsk_rx_fn fn, void *ctx)
{
	uint32_t idx_rx, idx_fill, n, i;

	n = xsk_ring_cons__peek(&x->rx, max, &idx_rx);
	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		const struct xdp_desc *d = xsk_ring_cons__rx_desc(&x->rx, idx_rx + i);
		uint8_t *data = xsk_umem__get_data(x->area, d->addr);

		/* One descriptor, one frame: no copy. */
		if (!x->rx_asm_len && !x->rx_asm_bad && !(d->options & XDP_PKT_CONTD)) {
			fn(ctx, data, d->len);
			continue;
		}
		/* A frame in several descriptors: gather it (it may straddle batches). */
		if (x->rx_asm_len + d->len > XR_XSK_MAX_FRAME)
			x->rx_asm_bad = true;
		if (!x->rx_asm_bad) {
			memcpy(x->rx_asm + x->rx_asm_len, data, d->len);
			x->rx_asm_len += d->len;
		}
		if (d->options & XDP_PKT_CONTD)
			continue;
		if (!x->rx_asm_bad)
			fn(ctx, x->rx_asm, x->rx_asm_len);
		else
			x->rx_oversize++;
		x->rx_asm_len = 0;
		x->rx_asm_bad = false;
	}
	/* The fill ring holds every RX frame not in flight, so this fits. */
	while (xsk_ring_prod__reserve(&x->fill, n, &idx_fill) != n)
		;
	for (i = 0; i < n; i++) {
		const struct xdp_desc *d = xsk_ring_cons__rx_desc(&x->rx, idx_rx + i);

		*xsk_ring_prod__fill_addr(&x->fill, idx_fill + i) =
			xsk_umem__extract_addr(d->addr);
	}
	xsk_ring_prod__submit(&x->fill, n);
	xsk_ring_cons__release(&x->rx, n);
	x->rx_frames += n;
	return n;
}
