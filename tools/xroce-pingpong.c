// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * xroce-pingpong: RC SEND/RECV ping-pong over libxroce with the command
 * line, output and TCP address exchange of rdma-core's ibv_rc_pingpong, so
 * either end can be the real ibv_rc_pingpong on rdma_rxe or a RoCE NIC.
 *
 *   xroce-pingpong [options]          server: waits for a connection
 *   xroce-pingpong [options] HOST     client: connects to HOST
 *
 * The exchange (TCP, default port 18515): the client sends
 * "LLLL:QQQQQQ:PPPPPP:GGGG...G" (LID, QPN, PSN in hex, the GID as 32 hex
 * digits in byte order) with its terminating NUL, the server answers with
 * its own, the client sends "done". Exit status 0 only when every
 * iteration completed successfully.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <xroce/xroce.h>

#include "loader.h"

enum { RECV_WRID = 1, SEND_WRID = 2 };

struct pp_dest {
	int lid;
	int qpn;
	int psn;
	union xr_gid gid;
};

struct pp_ctx {
	struct xr_context *dev;
	struct xr_pd *pd;
	struct xr_mr *mr;
	struct xr_cq *cq;
	struct xr_qp *qp;
	void *buf;
	unsigned int size;
	int rx_depth;
	int pending;
};

#define MSG_FMT "0000:000000:000000:00000000000000000000000000000000"

static void gid_to_wire(const union xr_gid *gid, char out[33])
{
	int i;

	for (i = 0; i < 16; i++)
		sprintf(out + 2 * i, "%02x", gid->raw[i]);
}

static void wire_to_gid(const char *in, union xr_gid *gid)
{
	char b[3] = { 0 };
	int i;

	for (i = 0; i < 16; i++) {
		b[0] = in[2 * i];
		b[1] = in[2 * i + 1];
		gid->raw[i] = (uint8_t)strtoul(b, NULL, 16);
	}
}

static enum xr_mtu mtu_to_enum(int mtu)
{
	switch (mtu) {
	case 256: return XR_MTU_256;
	case 512: return XR_MTU_512;
	case 1024: return XR_MTU_1024;
	case 2048: return XR_MTU_2048;
	case 4096: return XR_MTU_4096;
	default: return 0;
	}
}

static int pp_connect(struct pp_ctx *c, int port, int my_psn, enum xr_mtu mtu,
		      int sl, const struct pp_dest *d, int sgid_idx)
{
	struct xr_qp_attr a = {
		.qp_state = XR_QPS_RTR,
		.path_mtu = mtu,
		.dest_qp_num = d->qpn,
		.rq_psn = d->psn,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 12,
		.ah_attr = { .dlid = d->lid, .sl = sl, .port_num = port },
	};

	if (d->gid.global.interface_id) {
		a.ah_attr.is_global = 1;
		a.ah_attr.grh.hop_limit = 1;
		a.ah_attr.grh.dgid = d->gid;
		a.ah_attr.grh.sgid_index = sgid_idx;
	}
	if (xr_modify_qp(c->qp, &a, XR_QP_STATE | XR_QP_AV | XR_QP_PATH_MTU |
			 XR_QP_DEST_QPN | XR_QP_RQ_PSN | XR_QP_MAX_DEST_RD_ATOMIC |
			 XR_QP_MIN_RNR_TIMER)) {
		fprintf(stderr, "Failed to modify QP to RTR: %s\n", xr_last_error());
		return 1;
	}
	a.qp_state = XR_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = my_psn;
	a.max_rd_atomic = 1;
	if (xr_modify_qp(c->qp, &a, XR_QP_STATE | XR_QP_TIMEOUT | XR_QP_RETRY_CNT |
			 XR_QP_RNR_RETRY | XR_QP_SQ_PSN | XR_QP_MAX_QP_RD_ATOMIC)) {
		fprintf(stderr, "Failed to modify QP to RTS: %s\n", xr_last_error());
		return 1;
	}
	return 0;
}

static void format_dest(char *msg, const struct pp_dest *d)
{
	char gid[33];

	gid_to_wire(&d->gid, gid);
	sprintf(msg, "%04x:%06x:%06x:%s", d->lid, d->qpn, d->psn, gid);
}

static int parse_dest(const char *msg, struct pp_dest *d)
{
	char gid[33] = { 0 };

	if (sscanf(msg, "%x:%x:%x:%32s", &d->lid, &d->qpn, &d->psn, gid) != 4 ||
	    strlen(gid) != 32)
		return -1;
	wire_to_gid(gid, &d->gid);
	return 0;
}

/* read() until @len bytes or EOF: TCP may split the message. */
static ssize_t read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = read(fd, (char *)buf + got, len - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += r;
	}
	return got;
}

static int client_exch(const char *server, int port, const struct pp_dest *my,
		       struct pp_dest *rem)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *t;
	char msg[sizeof(MSG_FMT)], service[8];
	int fd = -1, ret = -1, n;

	snprintf(service, sizeof(service), "%d", port);
	n = getaddrinfo(server, service, &hints, &res);
	if (n) {
		fprintf(stderr, "%s for %s:%d\n", gai_strerror(n), server, port);
		return -1;
	}
	for (t = res; t; t = t->ai_next) {
		fd = socket(t->ai_family, t->ai_socktype, t->ai_protocol);
		if (fd >= 0) {
			if (!connect(fd, t->ai_addr, t->ai_addrlen))
				break;
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	if (fd < 0) {
		fprintf(stderr, "Couldn't connect to %s:%d\n", server, port);
		return -1;
	}
	format_dest(msg, my);
	if (write(fd, msg, sizeof(msg)) != sizeof(msg)) {
		fprintf(stderr, "Couldn't send local address\n");
		goto out;
	}
	if (read_full(fd, msg, sizeof(msg)) != sizeof(msg) ||
	    write(fd, "done", sizeof("done")) != sizeof("done")) {
		perror("client read/write");
		fprintf(stderr, "Couldn't read/write remote address\n");
		goto out;
	}
	ret = parse_dest(msg, rem);
	if (ret)
		fprintf(stderr, "Malformed remote address '%.*s'\n", (int)sizeof(msg), msg);
out:
	close(fd);
	return ret;
}

static int server_exch(struct pp_ctx *c, int ib_port, enum xr_mtu mtu, int port,
		       int sl, const struct pp_dest *my, struct pp_dest *rem,
		       int sgid_idx)
{
	struct addrinfo hints = { .ai_flags = AI_PASSIVE, .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *t;
	char msg[sizeof(MSG_FMT)], service[8];
	int fd = -1, conn, ret = -1, n;

	snprintf(service, sizeof(service), "%d", port);
	n = getaddrinfo(NULL, service, &hints, &res);
	if (n) {
		fprintf(stderr, "%s for port %d\n", gai_strerror(n), port);
		return -1;
	}
	for (t = res; t; t = t->ai_next) {
		fd = socket(t->ai_family, t->ai_socktype, t->ai_protocol);
		if (fd >= 0) {
			n = 1;
			setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &n, sizeof(n));
			if (!bind(fd, t->ai_addr, t->ai_addrlen))
				break;
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	if (fd < 0) {
		fprintf(stderr, "Couldn't listen to port %d\n", port);
		return -1;
	}
	listen(fd, 1);
	conn = accept(fd, NULL, NULL);
	close(fd);
	if (conn < 0) {
		fprintf(stderr, "accept() failed\n");
		return -1;
	}
	n = read_full(conn, msg, sizeof(msg));
	if (n != sizeof(msg) || parse_dest(msg, rem)) {
		perror("server read");
		fprintf(stderr, "%d/%d: Couldn't read remote address\n", n, (int)sizeof(msg));
		goto out;
	}
	if (pp_connect(c, ib_port, my->psn, mtu, sl, rem, sgid_idx)) {
		fprintf(stderr, "Couldn't connect to remote QP\n");
		goto out;
	}
	format_dest(msg, my);
	if (write(conn, msg, sizeof(msg)) != sizeof(msg) ||
	    read_full(conn, msg, sizeof("done")) != sizeof("done")) {
		fprintf(stderr, "Couldn't send/recv local address\n");
		goto out;
	}
	ret = 0;
out:
	close(conn);
	return ret;
}

static int post_recv(struct pp_ctx *c, int n)
{
	struct xr_sge sge = { (uintptr_t)c->buf, c->size, c->mr->lkey };
	struct xr_recv_wr wr = { .wr_id = RECV_WRID, .sg_list = &sge, .num_sge = 1 };
	int i;

	for (i = 0; i < n; i++)
		if (xr_post_recv(c->qp, &wr, NULL))
			break;
	return i;
}

static int post_send(struct pp_ctx *c)
{
	struct xr_sge sge = { (uintptr_t)c->buf, c->size, c->mr->lkey };
	struct xr_send_wr wr = { .wr_id = SEND_WRID, .sg_list = &sge, .num_sge = 1,
				 .opcode = XR_WR_SEND, .send_flags = XR_SEND_SIGNALED };

	return xr_post_send(c->qp, &wr, NULL);
}

static void usage(const char *argv0)
{
	printf("Usage:\n");
	printf("  %s            start a server and wait for connection\n", argv0);
	printf("  %s <host>     connect to server at <host>\n", argv0);
	printf("\nOptions:\n");
	printf("  -p, --port=<port>      listen on/connect to port <port> (default 18515)\n");
	printf("  -d, --ib-dev=<dev>     use the xroce interface <dev> (default: the first attached)\n");
	printf("  -i, --ib-port=<port>   use port <port> of the device (default 1)\n");
	printf("  -s, --size=<size>      size of message to exchange (default 4096)\n");
	printf("  -m, --mtu=<size>       path MTU (default 1024)\n");
	printf("  -r, --rx-depth=<dep>   number of receives to post at a time (default 500)\n");
	printf("  -n, --iters=<iters>    number of exchanges (default 1000)\n");
	printf("  -l, --sl=<sl>          service level value\n");
	printf("  -e, --events           sleep on CQ events (default poll)\n");
	printf("  -g, --gid-idx=<gid index> local port gid index\n");
}

static const char *first_attached(void)
{
	static char name[32];
	struct xr_iface_status *st;
	char err[256];
	int n, i;

	if (xr_loader_status(NULL, &st, &n, err, sizeof(err)))
		return NULL;
	for (i = 0; i < n; i++)
		if (st[i].attached) {
			snprintf(name, sizeof(name), "%s", st[i].ifname);
			xr_loader_status_free(st, n);
			return name;
		}
	xr_loader_status_free(st, n);
	return NULL;
}

/* One completion: what rc_pingpong's parse_single_wc does, in our words. */
static int handle_wc(struct pp_ctx *c, const struct xr_wc *wc, int *scnt, int *rcnt,
		     int *routs, int iters)
{
	if (wc->status != XR_WC_SUCCESS) {
		fprintf(stderr, "Failed status %s (%d) for wr_id %d\n",
			xr_wc_status_str(wc->status), wc->status, (int)wc->wr_id);
		return 1;
	}
	switch ((int)wc->wr_id) {
	case SEND_WRID:
		++*scnt;
		break;
	case RECV_WRID:
		if (--*routs <= 1) {
			*routs += post_recv(c, c->rx_depth - *routs);
			if (*routs < c->rx_depth) {
				fprintf(stderr, "Couldn't post receive (%d)\n", *routs);
				return 1;
			}
		}
		++*rcnt;
		break;
	default:
		fprintf(stderr, "Completion for unknown wr_id %d\n", (int)wc->wr_id);
		return 1;
	}
	c->pending &= ~(int)wc->wr_id;
	if (*scnt < iters && !c->pending) {
		if (post_send(c)) {
			fprintf(stderr, "Couldn't post send: %s\n", xr_last_error());
			return 1;
		}
		c->pending = RECV_WRID | SEND_WRID;
	}
	return 0;
}

int main(int argc, char *argv[])
{
	static const struct option lopts[] = {
		{ "port", 1, NULL, 'p' }, { "ib-dev", 1, NULL, 'd' },
		{ "ib-port", 1, NULL, 'i' }, { "size", 1, NULL, 's' },
		{ "mtu", 1, NULL, 'm' }, { "rx-depth", 1, NULL, 'r' },
		{ "iters", 1, NULL, 'n' }, { "sl", 1, NULL, 'l' },
		{ "events", 0, NULL, 'e' }, { "gid-idx", 1, NULL, 'g' },
		{ "odp", 0, NULL, 'o' }, { "ts", 0, NULL, 't' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	const char *devname = NULL, *server = NULL;
	unsigned int port = 18515, size = 4096, rx_depth = 500, iters = 1000;
	int ib_port = 1, use_event = 0, sl = 0, gidx = -1, rcnt, scnt, routs;
	enum xr_mtu mtu = XR_MTU_1024;
	struct pp_dest my = { 0 }, rem = { 0 };
	struct xr_qp_init_attr ia = { 0 };
	struct xr_qp_attr attr = { 0 };
	struct timeval start, end;
	struct pp_ctx c = { 0 };
	char gid[INET6_ADDRSTRLEN];

	srand48(getpid() * time(NULL));
	for (;;) {
		int ch = getopt_long(argc, argv, "p:d:i:s:m:r:n:l:eg:oth", lopts, NULL);

		if (ch == -1)
			break;
		switch (ch) {
		case 'p':
			port = strtoul(optarg, NULL, 0);
			if (port > 65535) {
				usage(argv[0]);
				return 1;
			}
			break;
		case 'd': devname = optarg; break;
		case 'i':
			ib_port = strtol(optarg, NULL, 0);
			if (ib_port < 1) {
				usage(argv[0]);
				return 1;
			}
			break;
		case 's': size = strtoul(optarg, NULL, 0); break;
		case 'm':
			mtu = mtu_to_enum(strtol(optarg, NULL, 0));
			if (!mtu) {
				usage(argv[0]);
				return 1;
			}
			break;
		case 'r': rx_depth = strtoul(optarg, NULL, 0); break;
		case 'n': iters = strtoul(optarg, NULL, 0); break;
		case 'l': sl = strtol(optarg, NULL, 0); break;
		case 'e': ++use_event; break;
		case 'g': gidx = strtol(optarg, NULL, 0); break;
		case 'o':
		case 't':
			fprintf(stderr, "-%c: xroce has no %s\n", ch,
				ch == 'o' ? "on-demand paging" : "completion timestamps");
			return 1;
		case 'h':
			usage(argv[0]);
			return 0;
		default:
			usage(argv[0]);
			return 1;
		}
	}
	if (optind == argc - 1) {
		server = argv[optind];
	} else if (optind < argc) {
		usage(argv[0]);
		return 1;
	}
	if (!devname && !(devname = first_attached())) {
		fprintf(stderr, "No IB devices found (xroce is attached to no "
			"interface of this network namespace: run 'xroce attach IFNAME')\n");
		return 1;
	}

	c.size = size;
	c.rx_depth = rx_depth;
	if (posix_memalign(&c.buf, sysconf(_SC_PAGESIZE), size ? size : 1)) {
		fprintf(stderr, "Couldn't allocate work buf.\n");
		return 1;
	}
	memset(c.buf, 0x7b, size);
	c.dev = xr_open_device(devname);
	if (!c.dev) {
		fprintf(stderr, "Couldn't get context for %s: %s\n", devname,
			xr_last_error());
		return 1;
	}
	c.pd = xr_alloc_pd(c.dev);
	if (!c.pd) {
		fprintf(stderr, "Couldn't allocate PD\n");
		return 1;
	}
	c.mr = xr_reg_mr(c.pd, c.buf, size, XR_ACCESS_LOCAL_WRITE);
	if (!c.mr) {
		fprintf(stderr, "Couldn't register MR: %s\n", xr_last_error());
		return 1;
	}
	c.cq = xr_create_cq(c.dev, rx_depth + 1, NULL);
	if (!c.cq) {
		fprintf(stderr, "Couldn't create CQ: %s\n", xr_last_error());
		return 1;
	}
	ia.send_cq = ia.recv_cq = c.cq;
	ia.cap.max_send_wr = 1;
	ia.cap.max_recv_wr = rx_depth;
	ia.cap.max_send_sge = 1;
	ia.cap.max_recv_sge = 1;
	ia.qp_type = XR_QPT_RC;
	c.qp = xr_create_qp(c.pd, &ia);
	if (!c.qp) {
		fprintf(stderr, "Couldn't create QP: %s\n", xr_last_error());
		return 1;
	}
	attr.qp_state = XR_QPS_INIT;
	attr.pkey_index = 0;
	attr.port_num = ib_port;
	attr.qp_access_flags = 0;
	if (xr_modify_qp(c.qp, &attr, XR_QP_STATE | XR_QP_PKEY_INDEX | XR_QP_PORT |
			 XR_QP_ACCESS_FLAGS)) {
		fprintf(stderr, "Failed to modify QP to INIT: %s\n", xr_last_error());
		return 1;
	}
	routs = post_recv(&c, c.rx_depth);
	if (routs < c.rx_depth) {
		fprintf(stderr, "Couldn't post receive (%d)\n", routs);
		return 1;
	}
	if (use_event && xr_req_notify_cq(c.cq, 0)) {
		fprintf(stderr, "Couldn't request CQ notification\n");
		return 1;
	}
	if (gidx >= 0 && xr_query_gid(c.dev, ib_port, gidx, &my.gid)) {
		fprintf(stderr, "can't read sgid of index %d\n", gidx);
		return 1;
	}
	my.lid = 0;
	my.qpn = c.qp->qp_num;
	my.psn = lrand48() & 0xffffff;
	inet_ntop(AF_INET6, &my.gid, gid, sizeof(gid));
	printf("  local address:  LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID %s\n",
	       my.lid, my.qpn, my.psn, gid);
	fflush(stdout);

	if (server ? client_exch(server, port, &my, &rem) :
		     server_exch(&c, ib_port, mtu, port, sl, &my, &rem, gidx))
		return 1;
	inet_ntop(AF_INET6, &rem.gid, gid, sizeof(gid));
	printf("  remote address: LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID %s\n",
	       rem.lid, rem.qpn, rem.psn, gid);
	fflush(stdout);
	if (server && pp_connect(&c, ib_port, my.psn, mtu, sl, &rem, gidx))
		return 1;

	c.pending = RECV_WRID;
	if (server) {
		if (post_send(&c)) {
			fprintf(stderr, "Couldn't post send: %s\n", xr_last_error());
			return 1;
		}
		c.pending |= SEND_WRID;
	}
	gettimeofday(&start, NULL);
	rcnt = scnt = 0;
	while (rcnt < (int)iters || scnt < (int)iters) {
		struct xr_wc wc[2];
		int ne, i;

		if (use_event) {
			if (xr_get_cq_event(c.cq)) {
				fprintf(stderr, "Failed to get cq_event\n");
				return 1;
			}
			if (xr_req_notify_cq(c.cq, 0)) {
				fprintf(stderr, "Couldn't request CQ notification\n");
				return 1;
			}
		}
		do {
			ne = xr_poll_cq(c.cq, 2, wc);
			if (ne < 0) {
				fprintf(stderr, "poll CQ failed %d: %s\n", ne, xr_last_error());
				return 1;
			}
		} while (!use_event && ne < 1);
		for (i = 0; i < ne; i++)
			if (handle_wc(&c, &wc[i], &scnt, &rcnt, &routs, iters)) {
				fprintf(stderr, "parse WC failed %d\n", ne);
				return 1;
			}
	}
	gettimeofday(&end, NULL);
	{
		float usec = (end.tv_sec - start.tv_sec) * 1000000 +
			     (end.tv_usec - start.tv_usec);
		long long bytes = (long long)size * iters * 2;

		printf("%lld bytes in %.2f seconds = %.2f Mbit/sec\n", bytes,
		       usec / 1000000., bytes * 8. / usec);
		printf("%d iters in %.2f seconds = %.2f usec/iter\n", iters,
		       usec / 1000000., usec / iters);
	}
	if (xr_destroy_qp(c.qp) || xr_destroy_cq(c.cq) || xr_dereg_mr(c.mr) ||
	    xr_dealloc_pd(c.pd) || xr_close_device(c.dev)) {
		fprintf(stderr, "Couldn't release resources: %s\n", xr_last_error());
		return 1;
	}
	free(c.buf);
	return 0;
}
