// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The device: opening an interface xroce is attached to, its GID table,
 * the AF_XDP socket registered in the interface's xr_xsks map, and the
 * progress thread that answers the peer while the application is away.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include <xroce/map_types.h>

#include "engine.h"
#include "loader.h"
#include "neigh.h"

static __thread char last_err[512];

const char *xr_last_error(void)
{
	return last_err;
}

int xr_set_err(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_err, sizeof(last_err), fmt, ap);
	va_end(ap);
	errno = err;
	return err;
}

uint64_t xr_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

uint16_t xr_roce_sport(uint32_t lqpn, uint32_t rqpn, uint32_t flow_label)
{
	uint32_t fl = flow_label & 0xfffff, lo, hi;

	if (!fl) {
		uint64_t v = (uint64_t)lqpn * rqpn;

		v ^= v >> 20;
		v ^= v >> 40;
		fl = v & 0xfffff;
	}
	lo = fl & 0x3fff;
	hi = fl & 0xfc000;
	lo ^= hi >> 14;
	return (uint16_t)(lo | 0xc000);
}

/*
 * The GID table, as rdma_rxe builds it: 0 is fe80::/64 with the MAC's
 * EUI-64, then each IPv4 address as ::ffff:a.b.c.d, then the other IPv6
 * addresses.
 */
static void build_gids(struct xr_context *ctx)
{
	struct ifaddrs *ifa, *i;
	union xr_gid *g = &ctx->gids[0].gid;
	int pass;

	memset(g, 0, sizeof(*g));
	g->raw[0] = 0xfe;
	g->raw[1] = 0x80;
	g->raw[8] = ctx->mac[0] ^ 0x02;
	g->raw[9] = ctx->mac[1];
	g->raw[10] = ctx->mac[2];
	g->raw[11] = 0xff;
	g->raw[12] = 0xfe;
	g->raw[13] = ctx->mac[3];
	g->raw[14] = ctx->mac[4];
	g->raw[15] = ctx->mac[5];
	ctx->gids[0].family = AF_INET6;
	ctx->ngid = 1;
	if (getifaddrs(&ifa))
		return;
	for (pass = 0; pass < 2; pass++) {
		for (i = ifa; i && ctx->ngid < XR_MAX_GID; i = i->ifa_next) {
			struct xr_gid_entry *e = &ctx->gids[ctx->ngid];

			if (!i->ifa_addr || strcmp(i->ifa_name, ctx->ifname))
				continue;
			memset(e, 0, sizeof(*e));
			if (pass == 0 && i->ifa_addr->sa_family == AF_INET) {
				const struct sockaddr_in *s = (const void *)i->ifa_addr;

				e->gid.raw[10] = 0xff;
				e->gid.raw[11] = 0xff;
				memcpy(&e->gid.raw[12], &s->sin_addr, 4);
				e->family = AF_INET;
				ctx->ngid++;
			} else if (pass == 1 && i->ifa_addr->sa_family == AF_INET6) {
				const struct sockaddr_in6 *s = (const void *)i->ifa_addr;

				if (!memcmp(&s->sin6_addr, ctx->gids[0].gid.raw, 16))
					continue;
				memcpy(e->gid.raw, &s->sin6_addr, 16);
				e->family = AF_INET6;
				ctx->ngid++;
			}
		}
	}
	freeifaddrs(ifa);
}

/* QPs left in xr_qps by a process that died without closing its device. */
static void reap_stale_qps(int map_fd)
{
	struct xr_qp_entry e;
	__u32 key, next, *prev = NULL;

	while (!bpf_map_get_next_key(map_fd, prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(map_fd, &key, &e) && e.owner_pid &&
		    !xr_pid_alive(e.owner_pid)) {
			bpf_map_delete_elem(map_fd, &key);
			prev = NULL;	/* the iteration restarts after a delete */
		}
	}
}

/*
 * While the application polls a CQ it runs the engine itself; the thread
 * then stays off the AF_XDP socket (a wakeup per frame would cost more
 * than it saves) and only keeps the timers. When the application stops
 * polling for XR_APP_IDLE_US, the thread takes over receiving.
 */
#define XR_APP_IDLE_US 2000

static void *progress_thread(void *arg)
{
	struct xr_context *ctx = arg;

	while (!ctx->stop) {
		struct pollfd pfd[2] = {
			{ .fd = ctx->wake_fd, .events = POLLIN },
			{ .fd = ctx->xsk.fd, .events = POLLIN },
		};
		uint64_t deadline, now, app;
		struct timespec ts;
		long us = 100000;
		int nfd = 2;

		pthread_mutex_lock(&ctx->lock);
		xr_engine_progress(ctx, false);
		deadline = xr_engine_next_deadline(ctx);
		pthread_mutex_unlock(&ctx->lock);
		now = xr_now_us();
		app = ctx->app_poll_us;
		if (deadline)
			us = deadline > now ? (long)(deadline - now) : 0;
		if (now - app < XR_APP_IDLE_US) {
			nfd = 1;
			if (us > (long)(app + XR_APP_IDLE_US - now))
				us = app + XR_APP_IDLE_US - now;
		}
		if (us > 100000)
			us = 100000;
		ts.tv_sec = us / 1000000;
		ts.tv_nsec = (us % 1000000) * 1000;
		if (us && ppoll(pfd, nfd, &ts, NULL) > 0 && (pfd[0].revents & POLLIN)) {
			uint64_t v;

			if (read(ctx->wake_fd, &v, sizeof(v)) < 0)
				continue;
		}
	}
	return NULL;
}

/* Whether the process that last opened the interface is still running. */
static bool owner_alive(const char *dir)
{
	struct xr_dev_counters c;

	return xr_pin_read(dir, "xr_dev_stats", &c) || xr_pid_alive(c.owner_pid);
}

/* A pinned BPF_F_MMAPABLE array, mapped shared; NULL when it is not there. */
static void *map_counters(const char *dir, const char *name, size_t *len)
{
	struct bpf_map_info info = { 0 };
	__u32 ilen = sizeof(info);
	size_t page = sysconf(_SC_PAGESIZE);
	void *p;
	int fd = xr_pin_open(dir, name);

	if (fd < 0)
		return NULL;
	if (bpf_obj_get_info_by_fd(fd, &info, &ilen) ||
	    !(info.map_flags & BPF_F_MMAPABLE)) {
		close(fd);
		return NULL;
	}
	*len = ((size_t)((info.value_size + 7) & ~7u) * info.max_entries + page - 1) &
	       ~(page - 1);
	p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

struct xr_context *xr_open_device(const char *ifname)
{
	struct xr_attach_info info = { 0 };
	struct xr_context *ctx;
	char dir[PATH_MAX], err[256];
	int ret, xfd, i;

	if (!ifname || strlen(ifname) >= sizeof(ctx->ifname)) {
		xr_set_err(EINVAL, "invalid interface name");
		return NULL;
	}
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx) {
		xr_set_err(ENOMEM, "out of memory");
		return NULL;
	}
	ctx->qps_map_fd = ctx->xsks_map_fd = ctx->wake_fd = -1;
	ctx->ctr = &ctx->ctr_local;
	ctx->neigh.udp4 = ctx->neigh.udp6 = -1;
	pthread_mutex_init(&ctx->neigh_lock, NULL);
	ctx->xsk.fd = -1;
	snprintf(ctx->ifname, sizeof(ctx->ifname), "%s", ifname);
	pthread_mutex_init(&ctx->lock, NULL);
	ctx->next_qpn = XR_FIRST_QPN;
	ctx->ip_id = (uint16_t)(getpid() * 7919);
	ctx->mr_gen = (uint32_t)xr_now_us();

	ctx->ifindex = if_nametoindex(ifname);
	if (!ctx->ifindex) {
		xr_set_err(ENODEV, "no interface '%s' in this network namespace", ifname);
		goto fail;
	}
	if (xr_pin_dir(ifname, dir, sizeof(dir)) || access(dir, F_OK)) {
		xr_set_err(ENODEV, "xroce is not attached to %s: run 'xroce attach %s'",
			   ifname, ifname);
		goto fail;
	}
	if (xr_pin_read(dir, "xr_info", &info) || info.ifindex != (__u32)ctx->ifindex) {
		xr_set_err(ENODEV, "the xroce pins of %s are stale (%s): run "
			   "'xroce detach %s; xroce attach %s'", ifname, dir, ifname,
			   ifname);
		goto fail;
	}
	ctx->icrc_in_xdp = info.icrc_check;
	ctx->qps_map_fd = xr_pin_open(dir, "xr_qps");
	ctx->xsks_map_fd = xr_pin_open(dir, "xr_xsks");
	if (ctx->qps_map_fd < 0 || ctx->xsks_map_fd < 0) {
		xr_set_err(ENODEV, "%s was attached by an older xroce without QP maps: "
			   "run 'xroce detach %s; xroce attach %s'", ifname, ifname,
			   ifname);
		goto fail;
	}
	reap_stale_qps(ctx->qps_map_fd);
	ret = xr_link_info(ctx->ifindex, ctx->mac, &ctx->ifmtu);
	if (ret) {
		xr_set_err(-ret, "cannot read %s's address: %s", ifname, strerror(-ret));
		goto fail;
	}
	build_gids(ctx);
	ctx->netns_ino = xr_netns_ino();
	ret = xr_neigh_open(&ctx->neigh);
	if (ret) {
		xr_set_err(-ret, "cannot open rtnetlink: %s", strerror(-ret));
		goto fail;
	}

	ret = xr_xsk_open(&ctx->xsk, ifname, 0, err, sizeof(err));
	/*
	 * The kernel tears down an exited process's socket asynchronously: if
	 * the last owner is dead, its queue frees itself within moments.
	 */
	for (i = 0; ret == -EBUSY && i < 40 && !owner_alive(dir); i++) {
		usleep(50000);
		ret = xr_xsk_open(&ctx->xsk, ifname, 0, err, sizeof(err));
	}
	if (ret) {
		xr_set_err(-ret, "%s", err);
		goto fail;
	}
	ctx->xsk_slot = 0;
	xfd = ctx->xsk.fd;
	/* The slot is the lock: the kernel empties it when the socket closes. */
	if (bpf_map_update_elem(ctx->xsks_map_fd, &ctx->xsk_slot, &xfd, BPF_NOEXIST)) {
		if (errno == EEXIST)
			xr_set_err(EBUSY, "%s is in use by another xroce application "
				   "(this version serves one application per "
				   "interface)", ifname);
		else
			xr_set_err(errno, "cannot register the AF_XDP socket: %s",
				   strerror(errno));
		goto fail;
	}
	/* The interface is ours now: its engine counters start from zero. */
	ctx->ctr = map_counters(dir, "xr_dev_stats", &ctx->dev_stats_len);
	if (!ctx->ctr)
		ctx->ctr = &ctx->ctr_local;
	memset(ctx->ctr, 0, sizeof(*ctx->ctr));
	ctx->ctr->owner_pid = getpid();
	ctx->qp_stats = map_counters(dir, "xr_qp_stats", &ctx->qp_stats_len);
	if (ctx->qp_stats)
		memset(ctx->qp_stats, 0, XR_MAX_QP_STATS * sizeof(*ctx->qp_stats));
	ctx->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (ctx->wake_fd < 0 ||
	    pthread_create(&ctx->thread, NULL, progress_thread, ctx)) {
		xr_set_err(errno ? errno : EAGAIN, "cannot start the progress thread");
		goto fail;
	}
	ctx->thread_started = true;
	return ctx;
fail:
	ret = errno;
	xr_close_device(ctx);
	errno = ret;
	return NULL;
}

int xr_close_device(struct xr_context *ctx)
{
	int i;

	if (!ctx)
		return xr_set_err(EINVAL, "no device");
	if (ctx->thread_started) {
		uint64_t one = 1;

		ctx->stop = true;
		/* The thread also wakes by itself within 100 ms. */
		(void)!write(ctx->wake_fd, &one, sizeof(one));
		pthread_join(ctx->thread, NULL);
	}
	if (ctx->xsk.xsk)
		xr_xsk_tx_kick(&ctx->xsk);
	for (i = 0; i < XR_MAX_QP; i++)
		if (ctx->qps[i])
			bpf_map_delete_elem(ctx->qps_map_fd, &ctx->qps[i]->pub.qp_num);
	xr_xsk_close(&ctx->xsk);
	xr_neigh_close(&ctx->neigh);
	if (ctx->ctr != &ctx->ctr_local)
		munmap(ctx->ctr, ctx->dev_stats_len);
	if (ctx->qp_stats)
		munmap(ctx->qp_stats, ctx->qp_stats_len);
	pthread_mutex_destroy(&ctx->neigh_lock);
	if (ctx->qps_map_fd >= 0)
		close(ctx->qps_map_fd);
	if (ctx->xsks_map_fd >= 0)
		close(ctx->xsks_map_fd);
	if (ctx->wake_fd >= 0)
		close(ctx->wake_fd);
	pthread_mutex_destroy(&ctx->lock);
	free(ctx);
	return 0;
}

const char *xr_device_name(const struct xr_context *ctx)
{
	return ctx->ifname;
}

static enum xr_mtu mtu_fit(uint32_t ifmtu, enum xr_mtu max)
{
	/* IP + UDP + BTH + RETH + ImmDt + ICRC ride inside the interface MTU. */
	uint32_t room = ifmtu > 80 ? ifmtu - 80 : 0;
	enum xr_mtu m = max;

	while (m > XR_MTU_256 && (uint32_t)xr_mtu_to_bytes(m) > room)
		m--;
	return m;
}

int xr_query_port(struct xr_context *ctx, uint8_t port_num, struct xr_port_attr *attr)
{
	uint8_t mac[6];
	uint32_t mtu = ctx->ifmtu;

	if (port_num != 1)
		return xr_set_err(EINVAL, "port %u does not exist (xroce devices have port 1)",
				  port_num);
	if (xr_netns_ino() == ctx->netns_ino)
		xr_link_info(ctx->ifindex, mac, &mtu);
	memset(attr, 0, sizeof(*attr));
	attr->state = XR_PORT_ACTIVE;
	/* 4096 needs multi-buffer AF_XDP (XDP_USE_SG, Linux 6.6). */
	attr->max_mtu = ctx->xsk.sg ? XR_MTU_4096 : XR_MTU_2048;
	attr->active_mtu = mtu_fit(mtu, attr->max_mtu);
	attr->gid_tbl_len = XR_MAX_GID;
	attr->link_layer = 2;
	attr->ifmtu = mtu;
	return 0;
}

int xr_query_gid(struct xr_context *ctx, uint8_t port_num, int index, union xr_gid *gid)
{
	if (port_num != 1)
		return xr_set_err(EINVAL, "port %u does not exist", port_num);
	/* Addresses may have changed; getifaddrs() sees this thread's netns only. */
	if (xr_netns_ino() == ctx->netns_ino) {
		pthread_mutex_lock(&ctx->lock);
		build_gids(ctx);
		pthread_mutex_unlock(&ctx->lock);
	}
	if (index < 0 || index >= ctx->ngid)
		return xr_set_err(EINVAL, "GID index %d is empty (%s has %d GIDs)", index,
				  ctx->ifname, ctx->ngid);
	*gid = ctx->gids[index].gid;
	return 0;
}

const char *xr_wc_status_str(enum xr_wc_status s)
{
	switch (s) {
	case XR_WC_SUCCESS: return "success";
	case XR_WC_LOC_LEN_ERR: return "local length error";
	case XR_WC_LOC_QP_OP_ERR: return "local QP operation error";
	case XR_WC_LOC_PROT_ERR: return "local protection error";
	case XR_WC_WR_FLUSH_ERR: return "Work Request Flushed Error";
	case XR_WC_BAD_RESP_ERR: return "bad response error";
	case XR_WC_LOC_ACCESS_ERR: return "local access error";
	case XR_WC_REM_INV_REQ_ERR: return "remote invalid request error";
	case XR_WC_REM_ACCESS_ERR: return "remote access error";
	case XR_WC_REM_OP_ERR: return "remote operation error";
	case XR_WC_RETRY_EXC_ERR: return "transport retry counter exceeded";
	case XR_WC_RNR_RETRY_EXC_ERR: return "RNR retry counter exceeded";
	case XR_WC_FATAL_ERR: return "fatal error";
	case XR_WC_GENERAL_ERR: return "general error";
	}
	return "unknown";
}
