# SPDX-License-Identifier: MIT
# The library in a 32-bit process on the 64-bit kernel (IA32 emulation),
# built with -m32 (tests/vm/Makefile: *_m32). The kernel's commit word
# stays 8 bytes: the library takes the sub-buffer header from
# events/header_page, not from the process's long. The guest kernel has
# GET_READER for 32-bit processes (kernel-patches/0003 adds the
# compat_ioctl; compat_32bit_get_reader checks it), so the 32-bit
# library maps the buffer: every test of tracemap_kernel and of
# accounting.test.sh runs here as in the 64-bit suites.
. "$(dirname "$0")/guest-lib.sh"

trace_reset
run_tap tracemap_kernel_m32 tracemap_kernel_m32
trace_reset
SEQ_CONSUME=seq_consume_m32 . "$(dirname "$0")/accounting.test.sh"
