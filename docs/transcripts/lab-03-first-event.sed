# SPDX-License-Identifier: MIT
s/^(time_stamp|common_pid|next_time_delta) ([0-9]+|<ADDR>)$/\1 <N>/
