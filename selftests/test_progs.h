/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A small test_progs-style harness (after tools/testing/selftests/bpf):
 *
 *   XR_TEST(name) { ... }            a test; runs in registration order
 *   XR_TEST_ROOT(name) { ... }       skipped with a reason when not root
 *   ASSERT_EQ(a, b, "what") ...      record a failure and return false;
 *                                    the test goes on unless it checks
 *   test__skip("reason")             mark the running test skipped
 *
 * Every test prints exactly one line: "PASS name", "FAIL name" or
 * "SKIP name: reason"; selftests/run.sh counts those lines over all tiers.
 */
#ifndef XROCE_TEST_PROGS_H
#define XROCE_TEST_PROGS_H

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define XR_TEST_NEEDS_ROOT (1u << 0)

void xr_test_register(const char *name, void (*fn)(void), unsigned flags);
void test__fail(void);
void test__skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool test__skipped(void);
/* Prints a diagnostic line, indented under the test's result. */
void test__log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Directory of the repository (for fixtures): $XROCE_SRC or "." */
const char *test__srcdir(void);
const char *test__builddir(void);

#define __XR_TEST(name, flags)                                                 \
	static void test_##name(void);                                         \
	__attribute__((constructor)) static void register_##name(void)         \
	{                                                                      \
		xr_test_register(#name, test_##name, flags);                   \
	}                                                                      \
	static void test_##name(void)

#define XR_TEST(name) __XR_TEST(name, 0)
#define XR_TEST_ROOT(name) __XR_TEST(name, XR_TEST_NEEDS_ROOT)

#define _XR_CHECK(cond, fmt, ...)                                              \
	({                                                                     \
		bool ___ok = !(cond);                                          \
		if (!___ok) {                                                  \
			test__fail();                                          \
			test__log("%s:%d: " fmt, __FILE__, __LINE__,           \
				  ##__VA_ARGS__);                              \
		}                                                              \
		___ok;                                                         \
	})

#define ASSERT_TRUE(x, name)                                                   \
	_XR_CHECK(!(x), "%s: expected true", name)
#define ASSERT_FALSE(x, name)                                                  \
	_XR_CHECK((x), "%s: expected false", name)
#define ASSERT_EQ(a, b, name)                                                  \
	({                                                                     \
		long long ___a = (long long)(a), ___b = (long long)(b);        \
		_XR_CHECK(___a != ___b, "%s: %lld != %lld (0x%llx != 0x%llx)", \
			  name, ___a, ___b, ___a, ___b);                       \
	})
#define ASSERT_NEQ(a, b, name)                                                 \
	({                                                                     \
		long long ___a = (long long)(a), ___b = (long long)(b);        \
		_XR_CHECK(___a == ___b, "%s: unexpected %lld", name, ___a);    \
	})
#define ASSERT_GE(a, b, name)                                                  \
	({                                                                     \
		long long ___a = (long long)(a), ___b = (long long)(b);        \
		_XR_CHECK(___a < ___b, "%s: %lld < %lld", name, ___a, ___b);   \
	})
#define ASSERT_LE(a, b, name)                                                  \
	({                                                                     \
		long long ___a = (long long)(a), ___b = (long long)(b);        \
		_XR_CHECK(___a > ___b, "%s: %lld > %lld", name, ___a, ___b);   \
	})
#define ASSERT_OK(err, name)                                                   \
	({                                                                     \
		long long ___e = (long long)(err);                             \
		_XR_CHECK(___e != 0, "%s: error %lld (errno %d: %s)", name,    \
			  ___e, errno, strerror(errno));                       \
	})
#define ASSERT_ERR(err, name)                                                  \
	_XR_CHECK((err) >= 0, "%s: expected an error", name)
#define ASSERT_OK_PTR(p, name)                                                 \
	_XR_CHECK((p) == NULL, "%s: NULL (errno %d: %s)", name, errno,        \
		  strerror(errno))
#define ASSERT_STREQ(a, b, name)                                               \
	({                                                                     \
		const char *___a = (a), *___b = (b);                           \
		_XR_CHECK(strcmp(___a, ___b), "%s: \"%s\" != \"%s\"", name,    \
			  ___a, ___b);                                         \
	})
#define ASSERT_MEMEQ(a, b, len, name)                                          \
	_XR_CHECK(memcmp((a), (b), (len)), "%s: %zu bytes differ", name,       \
		  (size_t)(len))

#endif
