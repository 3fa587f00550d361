// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Tier 3: `xroce attach/detach/status` on a veth pair between two network
 * namespaces, driven through the CLI as a user would (nsenter, so the pins
 * live in this mount namespace's bpffs).
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <unistd.h>

#include <xdp/libxdp.h>

#include "netns.h"
#include "pcap.h"
#include "pkt.h"
#include "test_progs.h"
#include "test_util.h"

#define OUT 65536

static char xroce_bin[512];

static int setup(struct xr_hosts *h)
{
	snprintf(xroce_bin, sizeof(xroce_bin), "%s/xroce", test__builddir());
	if (access(xroce_bin, X_OK)) {
		test__log("%s not built", xroce_bin);
		return -1;
	}
	if (xr_ensure_bpffs())
		return -1;
	/* Jumbo MTU so the 4096-byte path MTU fixtures fit. */
	return xr_hosts_create(h, 9000);
}

/* Packets counted under @name in `xroce status --json` on host @host. */
static long long json_counter(const struct xr_hosts *h, int host, const char *name)
{
	static char out[OUT];
	char key[96];
	const char *p;

	if (xr_hosts_capture(h, host, out, sizeof(out), "%s --json status xr0",
			     xroce_bin))
		return -1;
	snprintf(key, sizeof(key), "\"%s\":{\"kind\":", name);
	p = strstr(out, key);
	if (!p || !(p = strstr(p, "\"packets\":")))
		return -1;
	return atoll(p + strlen("\"packets\":"));
}

struct replay {
	const struct xr_hosts *h;
	int sent, failed;
	int corrupt_every;	/* flip a payload bit in every Nth RoCE frame */
	int corrupted;
};

/*
 * Rewrites a captured RoCE frame to travel from host 1 to host 0 (MACs, IP
 * addresses, IP checksum and ICRC recomputed) and sends it.
 */
static int replay_frame(const uint8_t *frame, uint32_t len, void *vctx)
{
	struct replay *r = vctx;
	static uint8_t f[XR_PCAP_MAX_FRAME];
	struct xr_pkt_info pi;
	uint32_t icrc;

	if (xr_parse_frame(frame, len, 0, &pi) != XR_PKT_ROCE || pi.has_vlan)
		return 0;
	memcpy(f, frame, len);
	memcpy(f, r->h->mac[0], 6);
	memcpy(f + 6, r->h->mac[1], 6);
	if (pi.ip_version == 4) {
		struct xr_iphdr *ip = (struct xr_iphdr *)(f + pi.l3_off);

		inet_pton(AF_INET, r->h->ip4[1], &ip->saddr);
		inet_pton(AF_INET, r->h->ip4[0], &ip->daddr);
		ip->check = 0;
		ip->check = xr_cpu_to_be16(xr_ip_checksum(ip));
	} else {
		struct xr_ipv6hdr *ip6 = (struct xr_ipv6hdr *)(f + pi.l3_off);

		inet_pton(AF_INET6, r->h->ip6[1], ip6->saddr);
		inet_pton(AF_INET6, r->h->ip6[0], ip6->daddr);
	}
	icrc = xr_icrc_calc(f, pi.ip_version, pi.l3_off, pi.icrc_off);
	memcpy(f + pi.icrc_off, &icrc, 4);
	if (r->corrupt_every && (r->sent % r->corrupt_every) == 0 &&
	    pi.payload_off < pi.icrc_off) {
		f[pi.payload_off] ^= 0x01;
		r->corrupted++;
	}
	if (xr_hosts_send_frame(r->h, 1, f, pi.end_off))
		r->failed++;
	else
		r->sent++;
	return 0;
}

static int replay_fixture(const struct xr_hosts *h, const char *name,
			  struct replay *r)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/selftests/fixtures/%s", test__srcdir(), name);
	r->h = h;
	return xr_fixture_frames(path, replay_frame, r);
}

XR_TEST_ROOT(cli_attach_lifecycle)
{
	static char out[OUT];
	struct replay r = { 0 };
	long long before, after, bad0;
	struct xr_hosts h;
	int i, st;

	if (setup(&h))
		return;
	for (i = 0; i < 2; i++)
		ASSERT_OK(xr_hosts_sys(&h, i, "%s attach xr0", xroce_bin), "attach");

	/* Pins keyed by interface and namespace; bpftool prints named fields. */
	snprintf(out, 256, "/sys/fs/bpf/xroce/xr0@%s/xr_stats", h.ns[0]);
	ASSERT_OK(access(out, F_OK), "xr_stats pinned under xr0@netns");
	st = xr_hosts_capture(&h, 0, out, sizeof(out),
			      "bpftool map dump pinned /sys/fs/bpf/xroce/xr0@%s/xr_stats",
			      h.ns[0]);
	ASSERT_EQ(st, 0, "bpftool map dump");
	ASSERT_TRUE(strstr(out, "\"roce_valid\"") && strstr(out, "\"icrc_bad\"") &&
		    strstr(out, "\"packets\""), "bpftool prints counter names");

	/* Twice: a clear refusal, the first attachment untouched. */
	st = xr_hosts_capture(&h, 0, out, sizeof(out), "%s attach xr0", xroce_bin);
	ASSERT_NEQ(st, 0, "second attach fails");
	ASSERT_TRUE(strstr(out, "already attached"), "second attach message");

	/* The host keeps working: ICMP both ways and a TCP connection. */
	ASSERT_OK(xr_hosts_sys(&h, 0, "ping -c2 -W2 %s >/dev/null", h.ip4[1]), "ping v4");
	ASSERT_OK(xr_hosts_sys(&h, 1, "ping -6 -c2 -W2 %s >/dev/null", h.ip6[0]),
		  "ping v6");
	ASSERT_OK(xr_hosts_sys(&h, 1, "(nc -l -p 5001 > /tmp/xrt%d.tcp &) ; sleep 0.3",
			       (int)getpid()), "tcp listen");
	ASSERT_OK(xr_hosts_sys(&h, 0, "echo hello-xroce | nc -N -w 3 %s 5001", h.ip4[1]),
		  "tcp send");
	usleep(200000);
	st = xr_sys("grep -q hello-xroce /tmp/xrt%d.tcp", (int)getpid());
	ASSERT_EQ(st, 0, "tcp data arrived");
	xr_sys("rm -f /tmp/xrt%d.tcp", (int)getpid());
	ASSERT_GE(json_counter(&h, 0, "pass_not_roce"), 4, "non-RoCE passed and counted");

	/* RoCE traffic from host 1, replayed from rxe captures. */
	before = json_counter(&h, 0, "qp_unknown");
	bad0 = json_counter(&h, 0, "icrc_bad");
	replay_fixture(&h, "rxe/rc_pingpong_s4096_mtu4096.pcap", &r);
	replay_fixture(&h, "rxe/atomic_bw_fetch_add.pcap", &r);
	replay_fixture(&h, "rxe-ipv6/rc_pingpong_s8192_mtu1024_ipv6.pcap", &r);
	ASSERT_EQ(r.failed, 0, "frames sent");
	ASSERT_GE(r.sent, 100, "frames replayed");
	usleep(100000);
	after = json_counter(&h, 0, "qp_unknown");
	ASSERT_EQ(after - before, r.sent, "every replayed frame (no QP) counted qp_unknown");
	ASSERT_EQ(json_counter(&h, 0, "icrc_bad"), bad0, "no ICRC errors");

	/* Corrupted payloads are counted as icrc_bad, not accepted. */
	memset(&r, 0, sizeof(r));
	r.corrupt_every = 3;
	before = json_counter(&h, 0, "qp_unknown");
	replay_fixture(&h, "rxe/write_bw_s8192_mtu1024.pcap", &r);
	usleep(100000);
	ASSERT_GE(r.corrupted, 10, "frames corrupted");
	ASSERT_EQ(json_counter(&h, 0, "icrc_bad") - bad0, r.corrupted, "icrc_bad");
	ASSERT_EQ(json_counter(&h, 0, "qp_unknown") - before, r.sent - r.corrupted,
		  "intact frames still valid");

	/* Text status lists the attachment with its counters. */
	st = xr_hosts_capture(&h, 0, out, sizeof(out), "%s status", xroce_bin);
	ASSERT_EQ(st, 0, "status");
	ASSERT_TRUE(strstr(out, "xr0: attached") && strstr(out, "qp_unknown") &&
		    strstr(out, "icrc_bad"), "status text");

	for (i = 0; i < 2; i++)
		ASSERT_OK(xr_hosts_sys(&h, i, "%s detach xr0", xroce_bin), "detach");
	snprintf(out, 256, "/sys/fs/bpf/xroce/xr0@%s", h.ns[0]);
	ASSERT_NEQ(access(out, F_OK), 0, "pins removed");
	st = xr_hosts_capture(&h, 0, out, sizeof(out), "xdp-loader status xr0");
	ASSERT_TRUE(!strstr(out, "xroce_xdp"), "program gone from the interface");
	st = xr_hosts_capture(&h, 0, out, sizeof(out), "%s status", xroce_bin);
	ASSERT_TRUE(strstr(out, "not attached"), "status after detach");
	xr_hosts_destroy(&h);
}

XR_TEST_ROOT(cli_attach_errors)
{
	static char out[OUT];
	struct xr_hosts h;
	int st;

	if (setup(&h))
		return;
	st = xr_hosts_capture(&h, 0, out, sizeof(out), "%s detach xr0", xroce_bin);
	ASSERT_NEQ(st, 0, "detach when not attached fails");
	ASSERT_TRUE(strstr(out, "not attached"), "detach message");

	st = xr_hosts_capture(&h, 0, out, sizeof(out), "%s attach xr9", xroce_bin);
	ASSERT_NEQ(st, 0, "missing interface fails");
	ASSERT_TRUE(strstr(out, "no interface 'xr9'"), "missing interface message");

	st = xr_hosts_capture(&h, 0, out, sizeof(out), "%s status xr0", xroce_bin);
	ASSERT_NEQ(st, 0, "status of a detached interface fails");
	ASSERT_TRUE(strstr(out, "not attached"), "status message");

	st = xr_hosts_capture(&h, 0, out, sizeof(out), "%s attach --icrc=maybe xr0",
			      xroce_bin);
	ASSERT_NEQ(st, 0, "bad option fails");
	ASSERT_TRUE(strstr(out, "--icrc takes on or off"), "bad option message");

	/* Without privileges: refused with a reason, nothing attached. */
	st = xr_hosts_capture(&h, 0, out, sizeof(out),
			      "setpriv --reuid=65534 --regid=65534 --clear-groups "
			      "--inh-caps=-all %s attach xr0", xroce_bin);
	ASSERT_NEQ(st, 0, "unprivileged attach fails");
	ASSERT_TRUE(strstr(out, "permission denied"), "unprivileged message");
	st = xr_hosts_capture(&h, 0, out, sizeof(out), "xdp-loader status xr0");
	ASSERT_TRUE(!strstr(out, "xroce_xdp"), "nothing half-attached");

	/* Generic mode and ICRC off are recorded in the status. */
	ASSERT_OK(xr_hosts_sys(&h, 0, "%s attach --mode skb --icrc=off xr0", xroce_bin),
		  "attach skb");
	st = xr_hosts_capture(&h, 0, out, sizeof(out), "%s --json status", xroce_bin);
	ASSERT_TRUE(strstr(out, "\"mode\":\"skb\"") &&
		    strstr(out, "\"icrc_check\":false"), "skb mode, icrc off");
	ASSERT_OK(xr_hosts_sys(&h, 0, "%s detach xr0", xroce_bin), "detach skb");
	xr_hosts_destroy(&h);
}

XR_TEST_ROOT(cli_coexist_with_xdp_loader)
{
	static char out[OUT];
	struct xdp_multiprog *mp;
	struct replay r = { 0 };
	bool legacy = true;
	long long before;
	struct xr_hosts h;
	char obj[] = "/usr/lib/x86_64-linux-gnu/bpf/xdpfilt_alw_all.o";
	int st;

	if (setup(&h))
		return;
	if (access(obj, R_OK)) {
		test__skip("xdp-tools' %s is not installed", obj);
		xr_hosts_destroy(&h);
		return;
	}
	ASSERT_OK(xr_hosts_sys(&h, 0, "%s attach xr0 2>/dev/null", xroce_bin), "attach");
	if (!xr_hosts_enter(&h, 0)) {
		mp = xdp_multiprog__get_from_ifindex(h.ifindex[0]);
		if (mp && !libxdp_get_error(mp)) {
			legacy = xdp_multiprog__is_legacy(mp);
			xdp_multiprog__close(mp);
		}
		xr_hosts_enter(&h, -1);
	}
	st = xr_hosts_capture(&h, 0, out, sizeof(out),
			      "xdp-loader load -m native xr0 %s", obj);
	if (!legacy) {
		/* libxdp's dispatcher: both programs run, xroce first. */
		ASSERT_EQ(st, 0, "xdp-loader adds a second program");
		st = xr_hosts_capture(&h, 0, out, sizeof(out), "xdp-loader status xr0");
		ASSERT_TRUE(strstr(out, "xroce_xdp") && strstr(out, "xdpfilt_alw_all"),
			    "both programs listed");
	} else {
		/* No dispatcher on this kernel: a clean refusal, xroce intact. */
		ASSERT_NEQ(st, 0, "second program refused without a dispatcher");
	}
	ASSERT_OK(xr_hosts_sys(&h, 0, "ping -c2 -W2 %s >/dev/null", h.ip4[1]), "ping");
	before = json_counter(&h, 0, "qp_unknown");
	replay_fixture(&h, "rxe/read_lat_s64_mtu1024.pcap", &r);
	usleep(100000);
	ASSERT_EQ(json_counter(&h, 0, "qp_unknown") - before, r.sent,
		  "xroce still counts RoCE");
	ASSERT_OK(xr_hosts_sys(&h, 0, "%s detach xr0", xroce_bin), "detach");
	if (!legacy) {
		st = xr_hosts_capture(&h, 0, out, sizeof(out), "xdp-loader status xr0");
		ASSERT_TRUE(strstr(out, "xdpfilt_alw_all") && !strstr(out, "xroce_xdp"),
			    "the other program stays");
	} else {
		test__skip("chaining not testable: this kernel refuses freplace "
			   "(BPF_PROG_TYPE_EXT) loads with EPERM, so libxdp runs "
			   "one program per interface; the refusal was checked");
	}
	xr_hosts_destroy(&h);
}
