# SPDX-License-Identifier: MIT
s/events [0-9]+ bytes [0-9]+/events <N> bytes <N>/
s/usec [0-9]+/usec <N>/
s/[0-9]+ us/<N> us/g
s/for [0-9]+ events of [0-9]+ payload bytes \(the first [0-9]+ of [0-9]+\) in [0-9]+ KiB/for <N> events of <N> payload bytes (the first <N> of <N>) in <N> KiB/
