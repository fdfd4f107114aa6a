# SPDX-License-Identifier: MIT
# The mapping's length leaves out the meta-page: the last sub-buffer is
# past its end: a SIGBUS or SIGSEGV once the consumer gets there, or, when
# another mapping lies right after it, a sub-buffer's worth skipped or
# never printed.
# want: step-6-buffer-sizes: .*(exited 1[0-9][0-9] \(SIG(BUS|SEGV)\) after [0-9]+ of [0-9]+ lines|skipped lines [0-9.]+ of the [0-9]+ events and then waited for more|lines [0-9.]+ never printed, and it waits for more): is the whole buffer mapped
/TODO 1:/,/END TODO 1/s/len = meta->meta_page_size +/len = 0 +/
