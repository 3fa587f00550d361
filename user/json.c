// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <inttypes.h>
#include <math.h>

#include "json.h"

void xr_json_init(struct xr_json *j, FILE *out, bool pretty)
{
	j->out = out;
	j->depth = 0;
	j->pretty = pretty;
	j->first[0] = true;
}

static void indent(struct xr_json *j)
{
	int i;

	if (!j->pretty)
		return;
	fputc('\n', j->out);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

static void put_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			if (c < 0x20)
				fprintf(out, "\\u%04x", c);
			else
				fputc(c, out);
		}
	}
	fputc('"', out);
}

/* Separator, indentation and "key": before any member. */
static void member(struct xr_json *j, const char *key)
{
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->out);
		j->first[j->depth] = false;
		indent(j);
	}
	if (key) {
		put_string(j->out, key);
		fputs(j->pretty ? ": " : ":", j->out);
	}
}

static void open_nested(struct xr_json *j, const char *key, char c)
{
	member(j, key);
	fputc(c, j->out);
	if (j->depth < XR_JSON_MAX_DEPTH - 1)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_nested(struct xr_json *j, char c)
{
	bool empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->out);
}

void xr_json_open_object(struct xr_json *j, const char *key)
{
	open_nested(j, key, '{');
}

void xr_json_close_object(struct xr_json *j)
{
	close_nested(j, '}');
}

void xr_json_open_array(struct xr_json *j, const char *key)
{
	open_nested(j, key, '[');
}

void xr_json_close_array(struct xr_json *j)
{
	close_nested(j, ']');
}

void xr_json_string(struct xr_json *j, const char *key, const char *val)
{
	member(j, key);
	put_string(j->out, val ? val : "");
}

void xr_json_uint(struct xr_json *j, const char *key, uint64_t val)
{
	member(j, key);
	fprintf(j->out, "%" PRIu64, val);
}

void xr_json_int(struct xr_json *j, const char *key, int64_t val)
{
	member(j, key);
	fprintf(j->out, "%" PRId64, val);
}

void xr_json_double(struct xr_json *j, const char *key, double val)
{
	member(j, key);
	if (isfinite(val))
		fprintf(j->out, "%.6g", val);
	else
		fputs("null", j->out);
}

void xr_json_bool(struct xr_json *j, const char *key, bool val)
{
	member(j, key);
	fputs(val ? "true" : "false", j->out);
}

void xr_json_hex(struct xr_json *j, const char *key, uint64_t val)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, val);
	xr_json_string(j, key, buf);
}

void xr_json_null(struct xr_json *j, const char *key)
{
	member(j, key);
	fputs("null", j->out);
}

void xr_json_finish(struct xr_json *j)
{
	fputc('\n', j->out);
	fflush(j->out);
}
