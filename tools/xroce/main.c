// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * xroce: a software RoCEv2 device for any Ethernet interface.
 * Usage follows ip(8) and xdp-loader(8): `xroce COMMAND [options] ARGS`,
 * any unambiguous prefix of a command works, `xroce COMMAND --help`.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>
#include <xdp/libxdp.h>

#include "cli.h"

#define XROCE_VERSION "0.1.0"

struct xr_cli_global xr_cli;

static const struct xr_cmd *const cmds[] = {
	&xr_cmd_attach,
	&xr_cmd_detach,
	&xr_cmd_status,
	&xr_cmd_dump,
};

#define N_CMDS (sizeof(cmds) / sizeof(cmds[0]))

int xr_cli_err(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "xroce %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

int xr_cli_common_opts(int *argc, char **argv)
{
	int i, out = 1, help = 0;

	for (i = 1; i < *argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-j") || !strcmp(a, "--json"))
			xr_cli.json = true;
		else if (!strcmp(a, "-p") || !strcmp(a, "--pretty"))
			xr_cli.json = xr_cli.pretty = true;
		else if (!strcmp(a, "-v") || !strcmp(a, "--verbose"))
			xr_cli.verbose++;
		else if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			help = 1;
		else
			argv[out++] = argv[i];
	}
	*argc = out;
	argv[out] = NULL;
	return help;
}

static void usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"Usage: xroce [-j|--json] [-p|--pretty] [-v] COMMAND [options] ARGS\n"
		"       xroce COMMAND --help\n"
		"       xroce --version\n\nCommands:\n");
	for (i = 0; i < N_CMDS; i++)
		fprintf(out, "  %-8s %s\n", cmds[i]->name, cmds[i]->summary);
	fprintf(out, "\nSee xroce(8).\n");
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG && xr_cli.verbose < 2)
		return 0;
	if (!xr_cli.verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static int libxdp_print(enum libxdp_print_level level, const char *fmt, va_list ap)
{
	if (xr_cli.verbose < (level == LIBXDP_DEBUG ? 2 : 1))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

int main(int argc, char **argv)
{
	const struct xr_cmd *found = NULL;
	size_t i, len;
	int first = 1;

	/* Global options before the command. */
	while (first < argc && argv[first][0] == '-') {
		const char *a = argv[first];

		if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			xr_cli.json = true;
		} else if (!strcmp(a, "-p") || !strcmp(a, "--pretty")) {
			xr_cli.json = xr_cli.pretty = true;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			xr_cli.verbose++;
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			printf("xroce %s (libbpf %s)\n", XROCE_VERSION,
			       libbpf_version_string());
			return 0;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "xroce: unknown option '%s'\n", a);
			usage(stderr);
			return 1;
		}
		first++;
	}
	if (first >= argc) {
		usage(stderr);
		return 1;
	}
	if (!strcmp(argv[first], "help")) {
		usage(stdout);
		return 0;
	}
	libbpf_set_print(libbpf_print);
	libxdp_set_print(libxdp_print);

	len = strlen(argv[first]);
	for (i = 0; i < N_CMDS; i++) {
		if (strncmp(cmds[i]->name, argv[first], len))
			continue;
		if (strlen(cmds[i]->name) == len) {
			found = cmds[i];
			break;
		}
		if (found) {
			fprintf(stderr, "xroce: '%s' is ambiguous (%s, %s)\n",
				argv[first], found->name, cmds[i]->name);
			return 1;
		}
		found = cmds[i];
	}
	if (!found) {
		fprintf(stderr, "xroce: unknown command '%s'; try 'xroce help'\n",
			argv[first]);
		return 1;
	}
	argv[first] = (char *)found->name;
	argc -= first;
	argv += first;
	if (xr_cli_common_opts(&argc, argv)) {
		found->usage(stdout);
		return 0;
	}
	return found->run(argc, argv);
}
