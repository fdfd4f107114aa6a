# SPDX-License-Identifier: MIT
# The library in a 32-bit process on the 64-bit kernel (IA32 emulation):
# the same tests as tracemap.test.sh's tracemap_kernel and as
# accounting.test.sh, built with -m32 (tests/vm/Makefile: *_m32). The
# kernel's commit word stays 8 bytes; the library takes the sub-buffer
# header from events/header_page, not from the process's long.
. "$(dirname "$0")/guest-lib.sh"

trace_reset
# 500 opens during the resize storm here (2000 in tracemap.test.sh): the
# race is the same, and the guest run stays short.
TRACEMAP_STORM_OPENS=500 tracemap_kernel_m32 2>&1 | tap_results
trace_reset
SEQ_CONSUME=seq_consume_m32 . "$(dirname "$0")/accounting.test.sh"
