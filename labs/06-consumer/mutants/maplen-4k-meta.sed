# SPDX-License-Identifier: MIT
# The meta-page counted as one 4 KiB page in the mapping's length: it is a
# sub-buffer long, so with 8 or 16 KiB sub-buffers the end of the last
# sub-buffer is left out (blind).
# want: step-6-buffer-sizes: .*(exited 1[0-9][0-9] \(SIG(BUS|SEGV)\) after [0-9]+ of [0-9]+ lines|skipped lines [0-9.]+ of the [0-9]+ events and then waited for more|lines [0-9.]+ never printed, and it waits for more): is the whole buffer mapped
s/len = meta->meta_page_size +/len = 4096 +/
