# SPDX-License-Identifier: MIT
# common_type read as a u32 at payload byte 0 (blind): common_flags and
# common_preempt_count land in its high half, 0 for a trace_marker line
# written from a shell, not for an event written with irqs off.
# want: step-4-payload: common_type '[0-9]+' is [0-9]+ plus common_flags
/TODO 4:/,/END TODO 4/s/uint16_t common_type;/uint32_t common_type;/
