// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Tier 2: the XDP validator under BPF_PROG_TEST_RUN. Every verdict is read
 * back from xr_stats (the reason the program counted), so a test knows not
 * only XDP_PASS/XDP_DROP but why.
 */
#include <net/if.h>
#include <stdlib.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_link.h>

#include "build.h"
#include "netns.h"
#include "pcap.h"
#include "pkt.h"
#include "test_progs.h"
#include <xroce/map_types.h>

#include "test_util.h"
#include "xroce_xdp.skel.h"

struct run {
	struct xroce_xdp *skel;
	int prog_fd;
	int stats_fd;
	int ncpus;
	struct xr_stats *percpu;	/* ncpus copies */
};

static int run_open(struct run *r, int icrc)
{
	memset(r, 0, sizeof(*r));
	r->skel = xroce_xdp__open();
	if (!ASSERT_OK_PTR(r->skel, "skeleton open"))
		return -1;
	r->skel->rodata->xr_cfg.icrc_check = icrc;
	if (!ASSERT_OK(xroce_xdp__load(r->skel), "skeleton load")) {
		xroce_xdp__destroy(r->skel);
		r->skel = NULL;
		return -1;
	}
	r->prog_fd = bpf_program__fd(r->skel->progs.xroce_xdp);
	r->stats_fd = bpf_map__fd(r->skel->maps.xr_stats);
	r->ncpus = libbpf_num_possible_cpus();
	r->percpu = calloc(r->ncpus, sizeof(struct xr_stats));
	return 0;
}

static void run_close(struct run *r)
{
	free(r->percpu);
	xroce_xdp__destroy(r->skel);
}

/* Sum over CPUs of the packet count of every reason. */
static void read_stats(struct run *r, uint64_t out[XR_STAT_MAX])
{
	uint32_t zero = 0;
	int c, i;

	memset(out, 0, XR_STAT_MAX * sizeof(uint64_t));
	if (bpf_map_lookup_elem(r->stats_fd, &zero, r->percpu))
		return;
	for (c = 0; c < r->ncpus; c++) {
		const struct xr_stat_value *v =
			(const struct xr_stat_value *)&r->percpu[c];

		for (i = 0; i < XR_STAT_MAX; i++)
			out[i] += v[i].packets;
	}
}

/*
 * Runs one frame; returns the XDP action and sets *reason to the counter
 * that moved (exactly one must).
 */
static int run_frame(struct run *r, const void *frame, uint32_t len,
		     enum xr_stat *reason)
{
	uint64_t before[XR_STAT_MAX], after[XR_STAT_MAX];
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame, .data_size_in = len,
		    .repeat = 1);
	int i, moved = 0, err;

	read_stats(r, before);
	err = bpf_prog_test_run_opts(r->prog_fd, &opts);
	if (err)
		return -1;
	read_stats(r, after);
	*reason = XR_STAT_MAX;
	for (i = 0; i < XR_STAT_MAX; i++) {
		if (after[i] != before[i]) {
			moved++;
			*reason = i;
		}
	}
	if (moved != 1)
		return -2;
	return opts.retval;
}

struct fixture_run {
	struct run *r;
	int roce, other, bad;
};

static int fixture_frame(const uint8_t *frame, uint32_t len, void *vctx)
{
	struct fixture_run *f = vctx;
	struct xr_pkt_info pi;
	enum xr_stat reason;
	int act;

	/* test_run wants at least an Ethernet header. */
	if (len < XR_ETH_HLEN)
		return 0;
	act = run_frame(f->r, frame, len, &reason);
	xr_parse_frame(frame, len, XR_PARSE_ICRC, &pi);
	if (pi.cls == XR_PKT_ROCE) {
		f->roce++;
		if (act != XDP_DROP || reason != XR_STAT_QP_UNKNOWN) {
			if (!f->bad++)
				test__log("RoCE frame: action %d reason %s", act,
					  xr_stat_name(reason));
		}
	} else {
		f->other++;
		if (act != XDP_PASS || reason != XR_STAT_PASS_NOT_ROCE) {
			if (!f->bad++)
				test__log("other frame: action %d reason %s", act,
					  xr_stat_name(reason));
		}
	}
	return 0;
}

XR_TEST_ROOT(xdp_fixtures_valid)
{
	static struct xr_fixture fx[XR_MAX_FIXTURES];
	int n = xr_fixtures(fx, XR_MAX_FIXTURES), i;
	struct run r;

	if (run_open(&r, 1))
		return;
	for (i = 0; i < n; i++) {
		struct fixture_run f = { .r = &r };

		xr_fixture_frames(fx[i].path, fixture_frame, &f);
		ASSERT_EQ(f.bad, 0, fx[i].name);
		if (fx[i].manifest_roce > 0)
			ASSERT_EQ(f.roce, fx[i].manifest_roce, fx[i].name);
	}
	run_close(&r);
}

static const struct xr_frame_addr addr4 = {
	.src_mac = { 0x02, 0, 0, 0, 0, 1 },
	.dst_mac = { 0x02, 0, 0, 0, 0, 2 },
	.ip_version = 4,
	.src_ip = { 10, 0, 0, 1 },
	.dst_ip = { 10, 0, 0, 2 },
	.sport = 0xc123,
};

static void expect(struct run *r, const void *f, uint32_t len, int act,
		   enum xr_stat want, const char *what)
{
	enum xr_stat got = XR_STAT_MAX;
	int a = run_frame(r, f, len, &got);

	if (!ASSERT_EQ(a, act, what) || !ASSERT_EQ(got, want, what))
		test__log("%s: got %s, want %s", what,
			  got < XR_STAT_MAX ? xr_stat_name(got) : "?",
			  xr_stat_name(want));
}

XR_TEST_ROOT(xdp_rejects_malformed)
{
	static uint8_t payload[9000], f[10000], g[10000];
	struct xr_frame_hdrs h = { .opcode = XR_OP_RC_RDMA_WRITE_ONLY,
				   .pkey = 0xffff, .dqpn = 0x11, .psn = 5,
				   .reth = { 0x1000, 0x42, 100 } };
	struct xr_frame_addr a = addr4;
	struct run r;
	uint32_t n;

	if (run_open(&r, 1))
		return;
	memset(payload, 0x5a, sizeof(payload));
	n = xr_frame_build(f, sizeof(f), &a, &h, payload, 100);
	expect(&r, f, n, XDP_DROP, XR_STAT_QP_UNKNOWN, "baseline");
	/* Ethernet padding after the datagram is ignored. */
	memset(f + n, 0, 8);
	expect(&r, f, n + 8, XDP_DROP, XR_STAT_QP_UNKNOWN, "trailing padding");

	expect(&r, f, 20, XDP_DROP, XR_STAT_IP_TRUNC, "truncated ip");
	expect(&r, f, 38, XDP_DROP, XR_STAT_UDP_TRUNC, "truncated udp");
	expect(&r, f, 60, XDP_DROP, XR_STAT_IP_BAD_LEN, "truncated datagram");
#define MUTATE(what, off, val, act, reason)                                    \
	do {                                                                   \
		memcpy(g, f, n);                                               \
		g[off] = (val);                                                \
		expect(&r, g, n, act, reason, what);                           \
	} while (0)
	MUTATE("ip version", 14, 0x65, XDP_DROP, XR_STAT_IP_BAD_VERSION);
	MUTATE("ip checksum", 24, f[24] ^ 1, XDP_DROP, XR_STAT_IP_BAD_CSUM);
	MUTATE("tcp", 23, 6, XDP_PASS, XR_STAT_PASS_NOT_ROCE);
	MUTATE("other port", 37, 0x00, XDP_PASS, XR_STAT_PASS_NOT_ROCE);
	MUTATE("arp", 13, 0x06, XDP_PASS, XR_STAT_PASS_NOT_ROCE);
	MUTATE("udp len", 39, f[39] + 4, XDP_DROP, XR_STAT_UDP_BAD_LEN);
	MUTATE("tver", 43, 0x01, XDP_DROP, XR_STAT_BAD_TVER);
	MUTATE("opcode", 42, 0x1e, XDP_DROP, XR_STAT_OPCODE_UNKNOWN);
	MUTATE("payload on ack", 42, XR_OP_RC_ACKNOWLEDGE, XDP_DROP,
	       XR_STAT_LEN_PAYLOAD);
	MUTATE("first not pmtu", 42, XR_OP_RC_RDMA_WRITE_FIRST, XDP_DROP,
	       XR_STAT_LEN_NOT_PMTU);
	MUTATE("payload bit", 100, f[100] ^ 0x10, XDP_DROP, XR_STAT_ICRC_BAD);
	MUTATE("icrc", n - 1, f[n - 1] ^ 0x80, XDP_DROP, XR_STAT_ICRC_BAD);
	MUTATE("ip id", 19, f[19] ^ 1, XDP_DROP, XR_STAT_IP_BAD_CSUM);
	/* A masked field may change without touching the ICRC. */
	MUTATE("bth resv8a", 46, 0xc0, XDP_DROP, XR_STAT_QP_UNKNOWN);

	/* The same frame behind an 802.1Q tag, and over IPv6. */
	a.vlan_tci = 7;
	n = xr_frame_build(f, sizeof(f), &a, &h, payload, 100);
	expect(&r, f, n, XDP_DROP, XR_STAT_QP_UNKNOWN, "vlan");
	expect(&r, f, 16, XDP_DROP, XR_STAT_ETH_TRUNC, "truncated vlan tag");
	a.vlan_tci = 0;
	a.ip_version = 6;
	n = xr_frame_build(f, sizeof(f), &a, &h, payload, 100);
	expect(&r, f, n, XDP_DROP, XR_STAT_QP_UNKNOWN, "ipv6");
	MUTATE("ipv6 flow label", 16, 0x55, XDP_DROP, XR_STAT_QP_UNKNOWN);
	MUTATE("ipv6 payload bit", 120, f[120] ^ 1, XDP_DROP, XR_STAT_ICRC_BAD);
	expect(&r, f, 50, XDP_DROP, XR_STAT_IP_TRUNC, "truncated ipv6");

	/* Oversized: a 4097-byte payload in a jumbo (multi-buffer) frame. */
	a.ip_version = 4;
	h.opcode = XR_OP_RC_SEND_ONLY;
	n = xr_frame_build(f, sizeof(f), &a, &h, payload, 4096);
	expect(&r, f, n, XDP_DROP, XR_STAT_QP_UNKNOWN, "4096 payload");
	n = xr_frame_build(f, sizeof(f), &a, &h, payload, 4097);
	expect(&r, f, n, XDP_DROP, XR_STAT_LEN_TOO_LONG, "4097 payload");
	n = xr_frame_build(f, sizeof(f), &a, &h, payload, 8900);
	expect(&r, f, n, XDP_DROP, XR_STAT_LEN_TOO_LONG, "8900 payload");
	run_close(&r);
}

XR_TEST_ROOT(xdp_icrc_switch_off)
{
	uint8_t payload[64] = { 1 }, f[200];
	struct xr_frame_hdrs h = { .opcode = XR_OP_RC_SEND_ONLY, .pkey = 0xffff };
	struct run r;
	uint32_t n;

	if (run_open(&r, 0))
		return;
	n = xr_frame_build(f, sizeof(f), &addr4, &h, payload, sizeof(payload));
	f[n - 1] ^= 0xff;
	expect(&r, f, n, XDP_DROP, XR_STAT_QP_UNKNOWN, "bad icrc accepted when off");
	run_close(&r);
}

/*
 * Mutates a valid frame in one of several ways: flip bits anywhere, change
 * a header byte, truncate, extend, or rewrite a length field.
 */
static uint32_t mutate(uint8_t *g, const uint8_t *f, uint32_t n, uint32_t cap)
{
	uint32_t len = n, k, i;

	memcpy(g, f, n);
	switch (rand() % 6) {
	case 0:	/* a few random bit flips anywhere */
		for (k = 1 + rand() % 3; k; k--)
			g[rand() % n] ^= 1u << (rand() % 8);
		break;
	case 1:	/* a random header byte */
		g[rand() % (n < 80 ? n : 80)] = (uint8_t)rand();
		break;
	case 2:	/* truncation (test_run needs an Ethernet header) */
		len = XR_ETH_HLEN + rand() % (n - XR_ETH_HLEN);
		break;
	case 3:	/* extra bytes */
		k = 1 + rand() % 64;
		for (i = 0; i < k && n + i < cap; i++)
			g[n + i] = (uint8_t)rand();
		len = n + i;
		break;
	case 4:	/* opcode and flags */
		g[42] = (uint8_t)rand();
		if (rand() & 1)
			g[43] = (uint8_t)rand();
		break;
	default: /* an IP/UDP length field */
		i = (rand() & 1) ? 16 + rand() % 2 : 38 + rand() % 2;
		g[i] = (uint8_t)rand();
		break;
	}
	return len;
}

XR_TEST_ROOT(xdp_agrees_with_userspace_parser)
{
	static uint8_t payload[4200], f[5000], g[5100];
	static const uint8_t ops[] = {
		XR_OP_RC_SEND_ONLY, XR_OP_RC_RDMA_WRITE_FIRST,
		XR_OP_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, XR_OP_RC_RDMA_READ_REQUEST,
		XR_OP_RC_ACKNOWLEDGE, XR_OP_RC_ATOMIC_ACKNOWLEDGE,
		XR_OP_RC_COMPARE_SWAP, XR_OP_UD_SEND_ONLY_WITH_IMMEDIATE,
		XR_OP_RC_RDMA_READ_RESPONSE_MIDDLE, XR_OP_CNP,
	};
	unsigned iters = 100000, i, disagree = 0, valid = 0, malformed = 0;
	struct run r;

	if (run_open(&r, 1))
		return;
	srand(4791);
	for (i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)rand();
	for (i = 0; i < iters; i++) {
		struct xr_frame_addr a = addr4;
		struct xr_frame_hdrs h = { .pkey = 0xffff };
		const struct xr_opcode_info *info;
		struct xr_pkt_info pi;
		enum xr_stat reason;
		uint32_t n, len, plen;
		int act;

		h.opcode = ops[rand() % sizeof(ops)];
		info = &xr_opcode_table[h.opcode];
		plen = 0;
		if (info->mask & XR_M_PAYLOAD)
			plen = (info->mask & XR_M_LAST) ? rand() % 1100 : 1024;
		a.ip_version = rand() % 3 ? 4 : 6;
		a.vlan_tci = rand() % 4 ? 0 : 5;
		h.psn = rand();
		n = xr_frame_build(f, sizeof(f), &a, &h, payload, plen);
		len = mutate(g, f, n, sizeof(g));
		act = run_frame(&r, g, len, &reason);
		xr_parse_frame(g, len, XR_PARSE_ICRC, &pi);
		if (pi.cls == XR_PKT_ROCE)
			valid++;
		else if (pi.cls == XR_PKT_MALFORMED)
			malformed++;
		/* No QP exists: what userspace calls valid, XDP drops as qp_unknown. */
		if (pi.reason == XR_STAT_ROCE_VALID)
			pi.reason = XR_STAT_QP_UNKNOWN;
		if (act < 0 || reason != pi.reason ||
		    act != (pi.cls == XR_PKT_NOT_ROCE ? XDP_PASS : XDP_DROP)) {
			if (disagree++ < 5)
				test__log("frame %u (len %u): xdp %d/%s, userspace %s",
					  i, len, act,
					  reason < XR_STAT_MAX ? xr_stat_name(reason) : "?",
					  xr_stat_name(pi.reason));
		}
	}
	test__log("%u frames: %u still valid, %u malformed, rest not RoCE",
		  iters, valid, malformed);
	ASSERT_EQ(disagree, 0, "xdp and userspace verdicts differ");
	ASSERT_GE(malformed, iters / 2, "mostly malformed input");
	run_close(&r);
}

/*
 * Steering by QPN: unknown QPN, a QP not yet receiving, a live QP whose
 * socket is gone, and a frame on an RX queue the QP's engine does not
 * serve each get their own counter (test_run on a 4-queue veth, so
 * rx_queue_index can be chosen).
 */
XR_TEST_ROOT(xdp_steering_verdicts)
{
	static uint8_t f[512];
	struct xr_frame_addr a = addr4;
	struct xr_frame_hdrs h = { .opcode = XR_OP_RC_SEND_ONLY, .pkey = 0xffff,
				   .dqpn = 0x11, .psn = 5 };
	struct xr_qp_entry e = { .qpn = 0x11, .state = 1 /* INIT */, .xsk_slot = 0 };
	uint64_t before[XR_STAT_MAX], after[XR_STAT_MAX];
	struct xr_hosts hosts;
	struct run r;
	int qfd, ifindex = 0, i;
	uint32_t n;
	static const struct { uint32_t state, queue; enum xr_stat want; } cases[] = {
		{ 0, 0, XR_STAT_QP_UNKNOWN },		/* no entry */
		{ 1, 0, XR_STAT_QP_NOT_READY },		/* INIT */
		{ 3, 0, XR_STAT_XSK_MISSING },		/* RTS, no socket */
		{ 3, 2, XR_STAT_XSK_WRONG_QUEUE },	/* RTS, queue 2 */
	};

	if (run_open(&r, 1))
		return;
	if (xr_hosts_create(&hosts, 0) ||
	    xr_hosts_sys(&hosts, 0, "ip link add xq0 numrxqueues 4 numtxqueues 4 type veth "
			 "peer name xq1 numrxqueues 4 numtxqueues 4 && ip link set xq0 up") ||
	    xr_hosts_enter(&hosts, 0)) {
		test__fail();
		goto out;
	}
	ifindex = if_nametoindex("xq0");
	n = xr_frame_build(f, sizeof(f), &a, &h, "0123456789abcdef", 16);
	qfd = bpf_map__fd(r.skel->maps.xr_qps);
	for (i = 0; i < 4; i++) {
		struct xdp_md md = { .ingress_ifindex = ifindex,
				     .rx_queue_index = cases[i].queue };
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = f, .data_size_in = n,
			    .ctx_in = &md, .ctx_size_in = sizeof(md), .repeat = 1);
		int j, moved = 0;

		if (cases[i].state) {
			e.state = cases[i].state;
			bpf_map_update_elem(qfd, &e.qpn, &e, BPF_ANY);
		}
		read_stats(&r, before);
		if (!ASSERT_OK(bpf_prog_test_run_opts(r.prog_fd, &o), "test_run"))
			continue;
		read_stats(&r, after);
		for (j = 0; j < XR_STAT_MAX; j++)
			moved += after[j] != before[j];
		ASSERT_EQ(moved, 1, "one counter per frame");
		if (!ASSERT_EQ(after[cases[i].want] - before[cases[i].want], 1,
			       xr_stat_name(cases[i].want)))
			test__log("case %d", i);
		ASSERT_EQ(o.retval, XDP_DROP, "dropped");
	}
out:
	xr_hosts_destroy(&hosts);
	run_close(&r);
}
