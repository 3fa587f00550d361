// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "pcap.h"
#include "test_progs.h"
#include "test_util.h"

static const char *const fixture_dirs[] = { "rxe", "rxe-ipv6" };

/* The MANIFEST table row "| [NAME.pcap](#...) | bytes | frames | RoCEv2 |". */
static int manifest_roce(const char *dir, const char *file)
{
	char path[512], line[1024], key[160];
	int roce = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/MANIFEST.md", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	snprintf(key, sizeof(key), "| [%s](", file);
	while (fgets(line, sizeof(line), f)) {
		char *p;
		int col;

		if (strncmp(line, key, strlen(key)))
			continue;
		/* columns: name | bytes | frames | RoCEv2 */
		p = line;
		for (col = 0; col < 4 && p; col++)
			p = strchr(p + 1, '|');
		if (p)
			roce = atoi(p + 1);
		break;
	}
	fclose(f);
	return roce;
}

static int cmp_fixture(const void *a, const void *b)
{
	return strcmp(((const struct xr_fixture *)a)->path,
		      ((const struct xr_fixture *)b)->path);
}

int xr_fixtures(struct xr_fixture *out, int max)
{
	size_t d;
	int n = 0;

	for (d = 0; d < sizeof(fixture_dirs) / sizeof(fixture_dirs[0]); d++) {
		char dir[400];
		struct dirent *e;
		DIR *dh;

		snprintf(dir, sizeof(dir), "%s/selftests/fixtures/%s",
			 test__srcdir(), fixture_dirs[d]);
		dh = opendir(dir);
		if (!dh)
			continue;
		while ((e = readdir(dh)) && n < max) {
			size_t l = strlen(e->d_name);

			if (l < 6 || strcmp(e->d_name + l - 5, ".pcap"))
				continue;
			snprintf(out[n].path, sizeof(out[n].path), "%s/%s", dir,
				 e->d_name);
			snprintf(out[n].name, sizeof(out[n].name), "%s/%s",
				 fixture_dirs[d], e->d_name);
			out[n].manifest_roce = manifest_roce(dir, e->d_name);
			n++;
		}
		closedir(dh);
	}
	qsort(out, n, sizeof(*out), cmp_fixture);
	return n;
}

int xr_fixture_frames(const char *path,
		      int (*fn)(const uint8_t *frame, uint32_t len, void *ctx),
		      void *ctx)
{
	static struct xr_pcap pc;
	struct xr_pcap_rec rec;
	int n = 0, r;

	if (xr_pcap_open_file(&pc, path) < 0)
		return -1;
	while ((r = xr_pcap_next(&pc, &rec)) == 1) {
		n++;
		if (fn(rec.data, rec.caplen, ctx))
			break;
	}
	xr_pcap_close(&pc);
	return r < 0 ? -1 : n;
}

int xr_sys(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	if (st < 0 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}
