# SPDX-License-Identifier: MIT
# The library in a 32-bit process on the 64-bit kernel (IA32 emulation),
# built with -m32 (tests/vm/Makefile: *_m32). The kernel's commit word
# stays 8 bytes: the library takes the sub-buffer header from
# events/header_page, not from the process's long. 6.12 has no
# GET_READER for 32-bit processes (compat_32bit_get_reader shows it), so
# the 32-bit library reads through read(): the tests here are those of
# tracemap_kernel and accounting.test.sh that hold on that path.
. "$(dirname "$0")/guest-lib.sh"

trace_reset
run_tap tracemap_kernel_m32 tracemap_kernel_m32 -t compat_32bit_get_reader \
	-t sixteen_markers_decode_exactly -t live_reader_page_then_more_subbufs \
	-t dropped_reported_when_overwrite_off -t read_fallback -t open_errors -t instance_buffer
trace_reset
SEQ_CONSUME=seq_consume_m32 ACCOUNTING_MODES="read splice" . "$(dirname "$0")/accounting.test.sh"
