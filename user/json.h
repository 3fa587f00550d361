/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A minimal streaming JSON writer in the spirit of iproute2's json_writer:
 * the caller opens objects/arrays and emits members; commas and string
 * escaping are handled here so every --json output is valid JSON.
 */
#ifndef XROCE_USER_JSON_H
#define XROCE_USER_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define XR_JSON_MAX_DEPTH 16

struct xr_json {
	FILE *out;
	int depth;
	bool pretty;
	bool first[XR_JSON_MAX_DEPTH];	/* no member written yet at this level */
};

void xr_json_init(struct xr_json *j, FILE *out, bool pretty);
void xr_json_open_object(struct xr_json *j, const char *key);
void xr_json_close_object(struct xr_json *j);
void xr_json_open_array(struct xr_json *j, const char *key);
void xr_json_close_array(struct xr_json *j);
/* key is NULL inside arrays. */
void xr_json_string(struct xr_json *j, const char *key, const char *val);
void xr_json_uint(struct xr_json *j, const char *key, uint64_t val);
void xr_json_int(struct xr_json *j, const char *key, int64_t val);
void xr_json_double(struct xr_json *j, const char *key, double val);
void xr_json_bool(struct xr_json *j, const char *key, bool val);
void xr_json_hex(struct xr_json *j, const char *key, uint64_t val);
void xr_json_null(struct xr_json *j, const char *key);
/* Ends the document with a newline. */
void xr_json_finish(struct xr_json *j);

#endif
