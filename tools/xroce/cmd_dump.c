// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* xroce dump FILE.pcap: decode and check every packet of a capture. */
#include "cli.h"
#include "dump.h"

static void dump_usage(FILE *out)
{
	fprintf(out,
		"Usage: xroce dump [--json|-j] [--pretty|-p] FILE.pcap\n\n"
		"Decode a classic pcap capture: one line per packet with addresses,\n"
		"UDP source port, opcode, destination QPN, PSN, AckReq, extension\n"
		"header fields, payload length and whether the ICRC is correct.\n"
		"Non-RoCE packets are marked 'not RoCE', broken ones 'MALFORMED'\n"
		"with the reason. The last line is\n"
		"  packets N roce N icrc_ok N icrc_bad N malformed N\n"
		"Exit status: 0 if the file was read completely, 1 otherwise.\n");
}

static int dump_run(int argc, char **argv)
{
	struct xr_dump_opts opts = { .json = xr_cli.json, .pretty = xr_cli.pretty };
	static struct xr_pcap pc;
	struct xr_dump_summary sum;
	int ret;

	if (argc != 2) {
		dump_usage(stderr);
		return 1;
	}
	if (xr_pcap_open_file(&pc, argv[1]) < 0)
		return xr_cli_err("dump", "%s", pc.err);
	ret = xr_dump(&pc, stdout, &opts, &sum);
	xr_pcap_close(&pc);
	if (ret < 0)
		return xr_cli_err("dump", "%s: %s", argv[1], pc.err);
	return 0;
}

const struct xr_cmd xr_cmd_dump = {
	.name = "dump",
	.summary = "decode a pcap capture of RoCEv2 traffic, checking every ICRC",
	.run = dump_run,
	.usage = dump_usage,
};
