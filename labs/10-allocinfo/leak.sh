#!/bin/sh
# SPDX-License-Identifier: MIT
# Lab 10: find the leaking module with /proc/allocinfo (memory-allocation
# profiling, Linux 6.10) and the project's allocinfo tool.
#   sh leak.sh snapshot FILE    copy /proc/allocinfo, as it is now, to FILE
#   sh leak.sh grew OLD NEW     the module site whose bytes grew most from
#                               snapshot OLD to NEW: "MODULE BYTES CALLS"
#                               (the growth)
#   sh leak.sh held MODULE      the bytes MODULE's sites hold now
#   sh leak.sh unload MODULE    rmmod MODULE, then "still allocated BYTES",
#                               what the kernel says it left allocated
case ${1:-} in
snapshot)
	# TODO 1: copy /proc/allocinfo to $2
	# WHY 1: a snapshot must be the whole file as the kernel prints it, header included, so that allocinfo diff can compare two of them later.
	cat /proc/allocinfo >"$2"
	# END TODO 1
	;;
grew)
	# TODO 2: 'allocinfo diff OLD NEW' sorts sites by growth: print the module, +bytes and +calls of the first site with a [module]
	# WHY 2: the kernel's own sites grow too (tmpfs, the slab's pages), so only sites with a [module] count, and the growth columns, not the totals, say what leaked.
	allocinfo -n 0 diff "$2" "$3" | awk 'NR > 1 && match($0, /\[[^]]*\]/) {
		module = substr($0, RSTART + 1, RLENGTH - 2)
		sub(/^\+/, "", $1); sub(/^\+/, "", $2)
		print module, $1, $2
		exit
	}'
	# END TODO 2
	;;
held)
	# TODO 3: add up the bytes of every site of module $2 ('allocinfo -m MODULE -n 0')
	# WHY 3: a module can allocate from many sites, each its own line: the bytes it holds are the sum of all of them, the first column.
	allocinfo -m "$2" -n 0 | awk 'NR > 1 { bytes += $1 } END { print bytes + 0 }'
	# END TODO 3
	;;
unload)
	# TODO 4: rmmod $2; the kernel logs "... module $2 func:F has N allocated at module unload" per site: print "still allocated N", N added up over the sites of this unload
	# WHY 4: at rmmod the kernel warns once per site still holding memory, and dmesg keeps earlier unloads' lines, so the lines of this rmmod are marked and added up.
	echo "leak.sh: rmmod $2" >/dev/kmsg
	rmmod "$2" || exit 1
	dmesg | awk -v mark="leak.sh: rmmod $2" -v mod=" module $2 func:" '
		index($0, mark) { bytes = 0; next }
		index($0, mod) && / allocated at module unload/ {
			sub(/.* has /, ""); bytes += $1
		}
		END { print "still allocated", bytes + 0 }'
	# END TODO 4
	;;
*)
	echo "usage: sh leak.sh snapshot FILE|grew OLD NEW|held MODULE|unload MODULE" >&2
	exit 2
	;;
esac
