#!/bin/sh
# SPDX-License-Identifier: MIT
# Lab 01: read the ring buffer's self-describing format files.
#   sh formats.sh page            header_page:  "NAME OFFSET SIZE" per field
#   sh formats.sh event-header    header_event: "type_len BITS", "time_delta
#                                 BITS", then "padding N", "time_extend N",
#                                 "time_stamp N", "max_type_len N"
#   sh formats.sh event SYS/NAME  "id N", then "NAME OFFSET SIZE" per field
#   sh formats.sh id N            the SYS/NAME of the event with ID N
T=${TRACEFS:-/sys/kernel/tracing}/events

case ${1:-} in
page)
	# TODO 1: print "NAME OFFSET SIZE" for each field line of $T/header_page
	# WHY 1: header_page's field lines carry their own offset and size: read them from the file rather than assume the layout (commit is a local_t: 8 bytes on 64-bit, 4 on 32-bit).
	sed -n 's/^[[:space:]]*field: .*[ *]\([A-Za-z_0-9]*\);[[:space:]]*offset:\([0-9]*\);[[:space:]]*size:\([0-9]*\);.*/\1 \2 \3/p' "$T/header_page"
	# END TODO 1
	;;
event-header)
	# TODO 2: print the bit widths and special type_len values of $T/header_event
	# WHY 2: type_len and time_delta widths and the special type_len values (padding 29, time extend 30, absolute time 31) are what a decoder switches on; the file says them for this kernel.
	sed -n -e 's/^[[:space:]]*\(type_len\|time_delta\)[[:space:]]*:[[:space:]]*\([0-9]*\) bits$/\1 \2/p' \
		-e 's/^[[:space:]]*\([a-z_]*\)[[:space:]]*: type == \([0-9]*\)$/\1 \2/p' \
		-e 's/^[[:space:]]*data max type_len[[:space:]]*==[[:space:]]*\([0-9]*\)$/max_type_len \1/p' \
		"$T/header_event"
	# END TODO 2
	;;
event)
	# TODO 3: print "id N" from $T/$2/format, then "NAME OFFSET SIZE" for each field
	# WHY 3: the format file gives each field's offset and size in the payload, array fields included (their size is the whole array), so the fields are read from it, not counted by hand.
	sed -n -e 's/^ID: \([0-9]*\)$/id \1/p' \
		-e 's/^[[:space:]]*field:.*[ *]\([a-zA-Z_0-9]*\)\(\[[0-9]*\]\)\{0,1\};[[:space:]]*offset:\([0-9]*\);[[:space:]]*size:\([0-9]*\);.*/\1 \3 \4/p' \
		"$T/$2/format"
	# END TODO 3
	;;
id)
	# TODO 4: find the format file whose "ID:" line is $2 and print its SYS/NAME
	# WHY 4: an event's ID is only in its format file and differs between kernels and configurations, so the name is found by the ID, matching the whole ID line (ID 9 is not 98); an ID no event has is an error, not an empty name.
	f=$(grep -l -x "ID: ${2:?usage: sh formats.sh id N}" "$T"/*/*/format) ||
		{ echo "formats.sh: no event with ID $2" >&2; exit 1; }
	f=${f%/format}
	echo "${f#"$T"/}"
	# END TODO 4
	;;
*)
	echo "usage: sh formats.sh page|event-header|event SYS/NAME|id N" >&2
	exit 2
	;;
esac
