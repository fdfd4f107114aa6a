# SPDX-License-Identifier: MIT
# Every data record printed as marker text, its type never checked: the
# events of another type print garbage and count towards COUNT (blind).
# want: step-6-buffer-sizes: .*it printed lines that are no trace_marker text
s/if (payload && \*(const uint16_t \*)payload == 5) {/if (payload) {/
