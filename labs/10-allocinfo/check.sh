#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 10 in the guest: load the project's alloc_leak module, leak on
# purpose between two snapshots taken by the learner's leak.sh, and compare
# what it finds with what the module did (its blocks are 4096-byte kmalloc()
# calls, one allocinfo line; docs/allocinfo.rst).
#   sh check.sh DIR
SUITE=${SUITE:-labs/10-allocinfo}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" leak.sh step-1-snapshot
module=$GUEST_PREFIX/modules/alloc_leak.ko
params=/sys/module/alloc_leak/parameters
first=20 more=420 block=4096
old=/tmp/lab10.old new=/tmp/lab10.new fill=/tmp/lab10.fill
LAB_CLEANUP="rmmod alloc_leak 2>/dev/null; rm -f $old $new $fill"
leak() { run_prog 20 sh "$dir/leak.sh" "$@"; }

[ ! -d /sys/module/alloc_leak ] || rmmod alloc_leak
if ! insmod $module blocks=$first; then
	fail step-1-snapshot "could not load $module"
	exit 0
fi
leak snapshot $old
if [ "$(head -n 1 $old 2>/dev/null)" = "allocinfo - version: 1.0" ] &&
	grep -q "\[alloc_leak\] func:" $old && [ "$(wc -l <$old)" -gt 100 ]; then
	pass step-1-snapshot
else
	fail step-1-snapshot "a snapshot is all of /proc/allocinfo as it is, 'allocinfo - version: 1.0' first; got $(wc -l <$old 2>/dev/null || echo 0) lines, starting '$(head -n 1 $old 2>/dev/null)'"
fi

echo $more >$params/leak
# A vmlinux site that surely grows more than the leak between the two
# snapshots: 16 MiB of tmpfs pages (shmem). Without it the slab's own
# pages grow about as much as the leak, and a grew that takes the first
# site, module or not, would pass about half the time.
dd if=/dev/zero of=$fill bs=1M count=16 2>/dev/null
leak snapshot $new
rm -f $fill
leak grew $old $new
want="alloc_leak $((more * block)) $more"
got=$prog_out
if [ "$got" = "$want" ]; then
	pass step-2-grew
elif [ "$got" = "alloc_leak -$((more * block)) -$more" ]; then
	fail step-2-grew "a shrink: 'allocinfo diff OLD NEW' takes the older snapshot first; want '$want'"
elif [ "${got%% *}" != alloc_leak ]; then
	fail step-2-grew "of the sites with a [module], alloc_leak's grew most (sites in vmlinux grow too, here tmpfs pages: skip sites without a module); want '$want'; $(first_diff "$want" "$got")"
elif [ "$got" = "alloc_leak $(((first + more) * block)) $((first + more))" ]; then
	fail step-2-grew "that is what alloc_leak holds, not what it grew: the +bytes and +calls columns; want '$want'"
else
	fail step-2-grew "print the module without its brackets, then the +bytes and +calls growth without the +; $(first_diff "$want" "$got")"
fi

leak held alloc_leak
want=$(((first + more) * block))
if [ "$prog_out" = "$want" ]; then
	pass step-3-held
elif [ "$prog_out" = $((first + more)) ]; then
	fail step-3-held "that is the calls: the first column of allocinfo is bytes, the second calls; want $want"
else
	fail step-3-held "alloc_leak holds $((first + more)) blocks of $block bytes: want $want; $(first_diff "$want" "$prog_out")"
fi

leak unload alloc_leak
want="still allocated $(((first + more) * block))"
if [ -d /sys/module/alloc_leak ]; then
	fail step-4-unload "alloc_leak is still loaded: rmmod it"
else
	expect_lines step-4-unload "at rmmod the kernel logs what the module left allocated ('dmesg', the last line with 'allocated at module unload')" \
		"$want" "$prog_out"
fi
