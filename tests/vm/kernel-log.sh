#!/bin/sh
# SPDX-License-Identifier: MIT
# Run after the suites of make check's main guest (not a suite itself: the
# glob of run-guest-tests.sh takes only *.test.sh): the kernel log must
# hold no WARNING, BUG or oops report, since a test can pass while the
# kernel complained under it. The debug guest checks its own log. One
# warning is the subject of a test: allocinfo unloads a module that still
# holds memory, and the kernel WARNs in alloc_tag_module_unload().
SUITE=kernel-log
. "$(dirname "$0")/guest-lib.sh"
first=$(dmesg | grep -E 'WARNING:|BUG:|Oops|general protection fault' |
	grep -v ' at lib/alloc_tag\.c:[0-9]* alloc_tag_module_unload+' | head -n 1)
if [ -z "$first" ]; then pass no-reports; else fail no-reports "the kernel logged: $first"; fi
