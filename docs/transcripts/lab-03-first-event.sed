# SPDX-License-Identifier: MIT
s/^(time_stamp|common_pid) ([0-9]+|<ADDR>)$/\1 <N>/
