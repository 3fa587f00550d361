// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* xroce attach | detach | status: the interface side of the CLI. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <xroce/xroce.h>

#include "cli.h"
#include "json.h"
#include "loader.h"
#include "pkt.h"

static void attach_usage(FILE *out)
{
	fprintf(out,
		"Usage: xroce attach [--icrc=on|off] [--mode native|skb] IFNAME\n\n"
		"Attach xroce's XDP program to IFNAME (through libxdp, so other XDP\n"
		"programs can share the interface) and pin its maps under\n"
		"%s/IFNAME (IFNAME@NETNS outside the initial network namespace;\n"
		"the root can be changed with XROCE_BPFFS).\n\n"
		"  --icrc=on|off   verify the ICRC of every RoCEv2 packet (default on)\n"
		"  --mode MODE     native (default) or skb (generic XDP)\n\n"
		"In another network namespace use 'nsenter --net=/run/netns/NS xroce ...';\n"
		"'ip netns exec' mounts a private bpffs whose pins vanish with the command.\n",
		XR_PIN_ROOT_DEFAULT);
}

static int attach_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "icrc", required_argument, NULL, 'c' },
		{ "mode", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	struct xr_attach_opts o = { .icrc_check = true, .mode = XR_ATTACH_NATIVE };
	char err[512];
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "c:m:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			if (!strcmp(optarg, "on"))
				o.icrc_check = true;
			else if (!strcmp(optarg, "off"))
				o.icrc_check = false;
			else
				return xr_cli_err("attach", "--icrc takes on or off, not '%s'",
						  optarg);
			break;
		case 'm':
			if (!strcmp(optarg, "native"))
				o.mode = XR_ATTACH_NATIVE;
			else if (!strcmp(optarg, "skb"))
				o.mode = XR_ATTACH_SKB;
			else
				return xr_cli_err("attach", "--mode takes native or skb, not '%s'",
						  optarg);
			break;
		default:
			attach_usage(stderr);
			return 1;
		}
	}
	if (optind != argc - 1) {
		attach_usage(stderr);
		return 1;
	}
	if (xr_private_mount_ns())
		fprintf(stderr,
			"xroce attach: warning: this process has a private mount namespace "
			"(ip netns exec?); if its bpffs is private, the pins and the "
			"attachment end with it. Prefer 'nsenter --net=/run/netns/NS'.\n");
	if (xr_loader_attach(argv[optind], &o, err, sizeof(err)))
		return xr_cli_err("attach", "%s", err);
	return 0;
}

static void detach_usage(FILE *out)
{
	fprintf(out,
		"Usage: xroce detach IFNAME\n\n"
		"Detach xroce's XDP program from IFNAME and remove its pins; other\n"
		"XDP programs on the interface stay. Fails if xroce is not attached.\n");
}

static int detach_run(int argc, char **argv)
{
	char err[512];

	if (argc != 2 || argv[1][0] == '-') {
		detach_usage(stderr);
		return 1;
	}
	if (xr_loader_detach(argv[1], err, sizeof(err)))
		return xr_cli_err("detach", "%s", err);
	return 0;
}

static void status_usage(FILE *out)
{
	fprintf(out,
		"Usage: xroce [--json|-j] [--pretty|-p] status [IFNAME]\n\n"
		"Show the interfaces of this network namespace xroce is attached to and\n"
		"their packet counters: every frame the XDP program saw is counted under\n"
		"one reason (pass_not_roce, roce_valid or a drop reason). With IFNAME,\n"
		"every counter of that interface, zeros included. Then the counters of\n"
		"the libxroce engine serving the interface (the process that opened it)\n"
		"and of each of its QPs: retransmits, timeouts, NAKs, duplicates, drops.\n");
}

static const char *mode_name(__u32 m)
{
	return m == XR_ATTACH_SKB ? "skb" : m == XR_ATTACH_NATIVE ? "native" : "?";
}

static void engine_text(const struct xr_iface_status *st, bool all)
{
	int i;

	if (!st->has_engine || !st->engine.owner_pid)
		return;
	printf("    engine: pid %u%s\n", st->engine.owner_pid,
	       xr_pid_alive(st->engine.owner_pid) ? "" : " (exited)");
#define XR__PRINT(name, desc)                                                  \
	if (all || st->engine.name)                                            \
		printf("      %-14s %14" PRIu64 "\n", #name, (uint64_t)st->engine.name);
	XR_DEV_COUNTERS(XR__PRINT)
#undef XR__PRINT
	for (i = 0; i < st->nqps; i++) {
		const struct xr_qp_counters *q = &st->qps[i];

		const struct xr_qp_entry *e = &st->qp_entries[i];

		printf("    qp 0x%06x", q->qpn);
		if (e->qpn)
			printf(" %s peer 0x%06x mtu %u", xr_qp_state_str(e->state),
			       e->dest_qpn, e->path_mtu);
		printf(":");
#define XR__PRINT(name, desc)                                                  \
		if (all || q->name)                                            \
			printf(" %s %" PRIu64, #name, (uint64_t)q->name);
		XR_QP_COUNTERS(XR__PRINT)
#undef XR__PRINT
		printf("\n");
	}
}

static void engine_json(struct xr_json *j, const struct xr_iface_status *st)
{
	int i;

	if (!st->has_engine)
		return;
	xr_json_open_object(j, "engine");
	xr_json_uint(j, "owner_pid", st->engine.owner_pid);
	xr_json_bool(j, "running", xr_pid_alive(st->engine.owner_pid));
#define XR__JSON(name, desc) xr_json_uint(j, #name, st->engine.name);
	XR_DEV_COUNTERS(XR__JSON)
#undef XR__JSON
	xr_json_open_array(j, "qps");
	for (i = 0; i < st->nqps; i++) {
		const struct xr_qp_counters *q = &st->qps[i];

		const struct xr_qp_entry *e = &st->qp_entries[i];

		xr_json_open_object(j, NULL);
		xr_json_uint(j, "qpn", q->qpn);
		if (e->qpn) {
			xr_json_string(j, "state", xr_qp_state_str(e->state));
			xr_json_uint(j, "dest_qpn", e->dest_qpn);
			xr_json_uint(j, "path_mtu", e->path_mtu);
		}
#define XR__JSON(name, desc) xr_json_uint(j, #name, q->name);
		XR_QP_COUNTERS(XR__JSON)
#undef XR__JSON
		xr_json_close_object(j);
	}
	xr_json_close_array(j);
	xr_json_close_object(j);
}

static void status_text(const struct xr_iface_status *st, bool all)
{
	char when[32] = "?";
	time_t t = (time_t)st->info.attach_time;
	struct tm tm;
	int i;

	if (t && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	printf("%s: %s", st->ifname,
	       st->attached ? "attached" :
	       st->ifindex ? "stale (program no longer attached)" :
			     "stale (interface gone)");
	if (st->attached)
		printf(" ifindex %d prog_id %u mode %s icrc %s since %s",
		       st->ifindex, st->info.prog_id, mode_name(st->info.mode),
		       st->info.icrc_check ? "on" : "off", when);
	printf("\n    pins %s\n", st->pin_dir);
	printf("    %-16s %14s %16s\n", "counter", "packets", "bytes");
	for (i = 0; i < XR_STAT_MAX; i++) {
		if (!all && !st->counters[i].packets)
			continue;
		printf("    %-16s %14" PRIu64 " %16" PRIu64 "\n", xr_stat_name(i),
		       (uint64_t)st->counters[i].packets,
		       (uint64_t)st->counters[i].bytes);
	}
	engine_text(st, all);
}

static void status_json(struct xr_json *j, const struct xr_iface_status *st)
{
	const char *kinds[] = { "pass", "ok", "drop" };
	int i;

	xr_json_open_object(j, NULL);
	xr_json_string(j, "ifname", st->ifname);
	xr_json_int(j, "ifindex", st->ifindex);
	xr_json_bool(j, "attached", st->attached);
	xr_json_uint(j, "prog_id", st->info.prog_id);
	xr_json_string(j, "mode", mode_name(st->info.mode));
	xr_json_bool(j, "icrc_check", st->info.icrc_check);
	xr_json_uint(j, "attach_time", st->info.attach_time);
	xr_json_uint(j, "netns_ino", st->info.netns_ino);
	xr_json_string(j, "pin_dir", st->pin_dir);
	xr_json_open_object(j, "counters");
	for (i = 0; i < XR_STAT_MAX; i++) {
		xr_json_open_object(j, xr_stat_name(i));
		xr_json_string(j, "kind", kinds[xr_stat_kind_of(i)]);
		xr_json_uint(j, "packets", st->counters[i].packets);
		xr_json_uint(j, "bytes", st->counters[i].bytes);
		xr_json_close_object(j);
	}
	xr_json_close_object(j);
	engine_json(j, st);
	xr_json_close_object(j);
}

static int status_run(int argc, char **argv)
{
	struct xr_iface_status *st;
	char err[512];
	int n, i;

	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		status_usage(stderr);
		return 1;
	}
	if (xr_loader_status(argc == 2 ? argv[1] : NULL, &st, &n, err, sizeof(err)))
		return xr_cli_err("status", "%s", err);
	if (xr_cli.json) {
		struct xr_json j;

		xr_json_init(&j, stdout, xr_cli.pretty);
		xr_json_open_object(&j, NULL);
		xr_json_open_array(&j, "interfaces");
		for (i = 0; i < n; i++)
			status_json(&j, &st[i]);
		xr_json_close_array(&j);
		xr_json_close_object(&j);
		xr_json_finish(&j);
	} else {
		if (!n)
			printf("xroce is not attached to any interface in this "
			       "network namespace\n");
		for (i = 0; i < n; i++)
			status_text(&st[i], argc == 2);
	}
	xr_loader_status_free(st, n);
	return 0;
}

const struct xr_cmd xr_cmd_attach = {
	.name = "attach",
	.summary = "attach xroce to an interface (XDP, via libxdp)",
	.run = attach_run,
	.usage = attach_usage,
};

const struct xr_cmd xr_cmd_detach = {
	.name = "detach",
	.summary = "detach xroce from an interface",
	.run = detach_run,
	.usage = detach_usage,
};

const struct xr_cmd xr_cmd_status = {
	.name = "status",
	.summary = "show attached interfaces and their counters",
	.run = status_run,
	.usage = status_usage,
};
