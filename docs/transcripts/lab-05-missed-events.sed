# SPDX-License-Identifier: MIT
# How many events fit depends on time-extend events, which vary with timing.
s/^(events|missed|first_seq|last_seq|gaps|overrun|dropped) [0-9]+$/\1 <N>/
