# SPDX-License-Identifier: MIT
# COUNT checked only around the sub-buffers, not in the walk over a
# sub-buffer's events: it prints every event of the last one (blind).
# want: step-6-buffer-sizes: .*lines printed for COUNT [0-9]*: stop as soon as COUNT
s/while (pos + 4 <= end && seen < count) {/while (pos + 4 <= end) {/
