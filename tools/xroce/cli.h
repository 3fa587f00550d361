/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The xroce command table and the helpers every subcommand shares. */
#ifndef XROCE_CLI_H
#define XROCE_CLI_H

#include <stdbool.h>
#include <stdio.h>

struct xr_cli_global {
	bool json;
	bool pretty;
	int verbose;
};

extern struct xr_cli_global xr_cli;

struct xr_cmd {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
	void (*usage)(FILE *out);
};

extern const struct xr_cmd xr_cmd_dump, xr_cmd_attach, xr_cmd_detach,
	xr_cmd_status;

/* Prints "xroce CMD: ..." to stderr; returns 1 (the exit code for errors). */
int xr_cli_err(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Consumes the options every command accepts (-j/--json, -p/--pretty,
 * -v/--verbose, -h/--help) from argv, leaving the rest in order.
 * Returns 1 if --help was given.
 */
int xr_cli_common_opts(int *argc, char **argv);

#endif
