// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Runner for the C test tiers: `test_progs [-t SUBSTR]... [-l]`.
 * Each test runs in a forked child so a crash fails that test, not the run.
 */
#include <fnmatch.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "test_progs.h"

#define MAX_TESTS 512

struct test_entry {
	const char *name;
	void (*fn)(void);
	unsigned flags;
};

static struct test_entry tests[MAX_TESTS];
static int n_tests;

#define XR_TEST_TIMEOUT_S 180

/* Shared with the forked child: its verdict and skip reason. */
struct test_state {
	int failed;
	int skipped;
	char skip_reason[256];
};
static struct test_state *state;

void xr_test_register(const char *name, void (*fn)(void), unsigned flags)
{
	if (n_tests == MAX_TESTS) {
		fprintf(stderr, "test_progs: too many tests\n");
		exit(2);
	}
	tests[n_tests++] = (struct test_entry){ name, fn, flags };
}

void test__fail(void)
{
	state->failed = 1;
}

bool test__skipped(void)
{
	return state->skipped;
}

void test__skip(const char *fmt, ...)
{
	va_list ap;

	state->skipped = 1;
	va_start(ap, fmt);
	vsnprintf(state->skip_reason, sizeof(state->skip_reason), fmt, ap);
	va_end(ap);
}

void test__log(const char *fmt, ...)
{
	va_list ap;

	fputs("    ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

const char *test__srcdir(void)
{
	const char *s = getenv("XROCE_SRC");

	return s ? s : ".";
}

const char *test__builddir(void)
{
	const char *s = getenv("XROCE_BUILD");

	return s ? s : "build";
}

/* Namespaces a test made (netns.c names them xrt<pid>-*), even if it crashed. */
static void cleanup_netns(pid_t pid)
{
	char cmd[256];

	/* Also the pins a test that died before `xroce detach` left behind. */
	snprintf(cmd, sizeof(cmd),
		 "for n in $(ip netns list 2>/dev/null | awk '{print $1}' | grep '^xrt%d-'); "
		 "do ip netns del $n; done; rm -rf /sys/fs/bpf/xroce/*@xrt%d-*",
		 (int)pid, (int)pid);
	if (system(cmd) < 0)
		test__log("netns cleanup failed");
}

/*
 * libbpf's warnings (a failed load prints the verifier log) go to the test
 * output; its debug chatter and the note that libxdp's .xdp_run_config
 * section is not libbpf's own only with XROCE_TEST_VERBOSE=1.
 */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	static int verbose = -1;

	if (verbose < 0)
		verbose = getenv("XROCE_TEST_VERBOSE") != NULL;
	if (!verbose && (level == LIBBPF_DEBUG || strstr(fmt, "unrecognized data section")))
		return 0;
	return vfprintf(stdout, fmt, ap);
}

static int selected(const char *name, char **filters, int n)
{
	int i;

	if (!n)
		return 1;
	for (i = 0; i < n; i++)
		if (strstr(name, filters[i]) || !fnmatch(filters[i], name, 0))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	char *filters[64];
	int n_filters = 0, list = 0, i, opt;
	int passed = 0, failed = 0, skipped = 0;

	while ((opt = getopt(argc, argv, "t:l")) != -1) {
		if (opt == 't' && n_filters < 64)
			filters[n_filters++] = optarg;
		else if (opt == 'l')
			list = 1;
		else {
			fprintf(stderr, "usage: %s [-t FILTER]... [-l]\n", argv[0]);
			return 2;
		}
	}
	state = mmap(NULL, sizeof(*state), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (state == MAP_FAILED)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(libbpf_print);

	for (i = 0; i < n_tests; i++) {
		struct test_entry *t = &tests[i];
		int status;
		pid_t pid;

		if (!selected(t->name, filters, n_filters))
			continue;
		if (list) {
			printf("%s\n", t->name);
			continue;
		}
		memset(state, 0, sizeof(*state));
		if ((t->flags & XR_TEST_NEEDS_ROOT) && geteuid() != 0) {
			printf("SKIP %s: needs root (BPF and network namespaces)\n",
			       t->name);
			skipped++;
			continue;
		}
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			/* A hung test fails alone instead of stalling the run. */
			alarm(XR_TEST_TIMEOUT_S);
			t->fn();
			fflush(stdout);
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0) {
			state->failed = 1;
		} else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
			test__log("timed out after %d s", XR_TEST_TIMEOUT_S);
			state->failed = 1;
		} else if (WIFSIGNALED(status)) {
			test__log("killed by signal %d", WTERMSIG(status));
			state->failed = 1;
		} else if (WEXITSTATUS(status)) {
			test__log("exited with %d", WEXITSTATUS(status));
			state->failed = 1;
		}
		cleanup_netns(pid);
		if (state->failed) {
			printf("FAIL %s\n", t->name);
			failed++;
		} else if (state->skipped) {
			printf("SKIP %s: %s\n", t->name, state->skip_reason);
			skipped++;
		} else {
			printf("PASS %s\n", t->name);
			passed++;
		}
	}
	if (!list)
		printf("test_progs: %d passed, %d failed, %d skipped\n", passed,
		       failed, skipped);
	return failed ? 1 : 0;
}
