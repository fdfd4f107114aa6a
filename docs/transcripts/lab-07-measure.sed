# SPDX-License-Identifier: MIT
s/usec [0-9]+/usec <N>/
s/[0-9]+ us/<N> us/g
