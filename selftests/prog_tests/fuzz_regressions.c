// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Inputs the fuzzers (make fuzz) crashed on, kept in selftests/fuzz/
 * regressions/ as pcap-* (pcap reader + parser + dump) or frame-* (one
 * raw frame), run again through the very code the fuzzers call. The
 * fixtures, cut short at many points and with bits flipped, run too.
 */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "fuzz_body.h"
#include "test_progs.h"
#include "test_util.h"

static uint8_t *slurp(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *buf;
	FILE *f = fopen(path, "rb");

	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) || !(buf = malloc(st.st_size + 1))) {
		fclose(f);
		return NULL;
	}
	*len = fread(buf, 1, st.st_size, f);
	fclose(f);
	return buf;
}

XR_TEST(fuzz_regressions)
{
	static struct xr_fixture fx[XR_MAX_FIXTURES];
	char dir[600], path[900];
	struct dirent *e;
	int n, i, runs = 0, saved = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/selftests/fuzz/regressions", test__srcdir());
	d = opendir(dir);
	if (!ASSERT_OK_PTR(d, "regressions folder"))
		return;
	while ((e = readdir(d))) {
		uint8_t *buf;
		size_t len;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		buf = slurp(path, &len);
		if (!ASSERT_OK_PTR(buf, path))
			continue;
		if (!strncmp(e->d_name, "frame-", 6))
			xr_fuzz_frame(buf, len);
		else
			xr_fuzz_pcap(buf, len);
		free(buf);
		saved++;
	}
	closedir(d);

	n = xr_fixtures(fx, XR_MAX_FIXTURES);
	ASSERT_GE(n, 20, "fixtures found");
	for (i = 0; i < n; i++) {
		size_t len, cut;
		uint8_t *buf = slurp(fx[i].path, &len);

		if (!ASSERT_OK_PTR(buf, fx[i].name))
			continue;
		for (cut = 0; cut < len && cut < 4096; cut += 37, runs++)
			xr_fuzz_pcap(buf, cut);
		for (cut = 24; cut + 16 < len && cut < 8192; cut += 61, runs++) {
			buf[cut] ^= 0x5a;
			xr_fuzz_pcap(buf, len);
			xr_fuzz_frame(buf + 40, len - 40 < 1600 ? len - 40 : 1600);
			buf[cut] ^= 0x5a;
		}
		free(buf);
	}
	test__log("%d saved crash inputs, %d mutated fixture runs, no crash", saved, runs);
	ASSERT_GE(runs, 1000, "mutated inputs run");
}
