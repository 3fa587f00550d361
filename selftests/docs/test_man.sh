#!/usr/bin/env bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The docs stay true to the code: every man page renders without groff
# warnings, xroce(8) documents every command the CLI has, and every make
# target the README names exists.
set -u
cd "$(dirname "$0")/../.."
B=${XROCE_BUILD:-$PWD/build}

for m in docs/man/*.[0-9]; do
	name=man_$(basename "$m")
	if ! command -v man >/dev/null; then
		echo "SKIP $name: man-db is not installed"
		continue
	fi
	warn=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$m" 2>&1 >/dev/null)
	out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$m" 2>/dev/null | wc -l)
	if [ -z "$warn" ] && [ "$out" -gt 20 ]; then
		echo "PASS $name"
	else
		echo "FAIL $name: ${warn:-renders only $out lines}"
	fi
done

missing=""
for c in $("$B/xroce" --help 2>&1 | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p'); do
	grep -q "^\.B $c\b" docs/man/xroce.8 || missing="$missing $c"
done
if [ -z "$missing" ]; then echo "PASS man_covers_cli"; else
	echo "FAIL man_covers_cli: xroce.8 lacks:$missing"; fi

missing=""
for t in $(grep -o 'make [a-z][a-z-]*' README.md | awk '{print $2}' | sort -u); do
	grep -q "^$t:" Makefile || missing="$missing $t"
done
if [ -z "$missing" ]; then echo "PASS readme_targets_exist"; else
	echo "FAIL readme_targets_exist: no make target:$missing"; fi
