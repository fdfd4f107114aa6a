#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 10 in the guest: load the project's alloc_leak module (one
# kmalloc() site of 4096-byte blocks) and leak_sites (two sites: 4096- and
# 512-byte blocks), make them leak counts chosen per run between two
# snapshots, once with each module in the lead, and compare what the
# learner's leak.sh finds with what the modules did; unload alloc_leak twice
# in the boot and leak_sites with two sites left (docs/allocinfo.rst). Each
# round, leak_sites' 512-byte site makes 2 to 5 times the calls of the site
# that leaked most bytes, with fewer bytes. Each step is judged on its own:
# steps 2 to 4 use the check's snapshots and leaks, whatever the learner's
# earlier steps did.
#   sh check.sh DIR
SUITE=${SUITE:-labs/10-allocinfo}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" leak.sh step-1-snapshot
modules=$GUEST_PREFIX/modules
block=4096 small=512
snap0=/tmp/lab10.0 snap1=/tmp/lab10.1 snap2=/tmp/lab10.2 fill=/tmp/lab10.fill
LAB_CLEANUP="rmmod alloc_leak leak_sites 2>/dev/null; rm -f $snap0 $snap1 $snap2 $fill"
leak() { run_prog 60 sh "$dir/leak.sh" "$@"; }
loaded() { [ -d /sys/module/$1 ]; }

# What the modules hold, in blocks, as the check makes them leak.
# The small site's calls: 2 to 5 times the leader's, its bytes at most
# 5/8 of the leader's (512 against 4096 bytes a call).
first=$(rand 10 40) a_more=$(rand 200 400) b_big1=$(rand 20 60)
b_big2=$(rand 200 400) a_few=$(rand 10 40) again=$(rand 50 150)
b_small1=$((a_more * $(rand 20 50) / 10)) b_small2=$((b_big2 * $(rand 20 50) / 10))
b_small=$((b_small1 + b_small2))
for m in alloc_leak leak_sites; do ! loaded $m || rmmod $m; done
if ! insmod $modules/alloc_leak.ko blocks=$first || ! insmod $modules/leak_sites.ko; then
	fail step-1-snapshot "could not load $modules/alloc_leak.ko and leak_sites.ko"
	exit 0
fi
# FILE exists already (an older snapshot): a snapshot replaces it.
cat /proc/allocinfo >$snap0
leak snapshot $snap0
if [ "$(grep -c '^allocinfo - version' $snap0)" -gt 1 ]; then
	fail step-1-snapshot "$snap0 existed and now holds $(grep -c '^allocinfo - version' $snap0) tables: overwrite FILE (>), do not append to it (>>)"
elif [ "$(head -n 1 $snap0 2>/dev/null)" = "allocinfo - version: 1.0" ] &&
	grep -q "\[alloc_leak\] func:" $snap0 && grep -q "\[leak_sites\] func:" $snap0 &&
	[ "$(wc -l <$snap0)" -gt 100 ]; then
	pass step-1-snapshot
else
	fail step-1-snapshot "a snapshot is all of /proc/allocinfo as it is, 'allocinfo - version: 1.0' first; got $(wc -l <$snap0 2>/dev/null || echo 0) lines, starting '$(head -n 1 $snap0 2>/dev/null)'"
fi

# grew_round OLD NEW MODULE BLOCKS SIZE HELD SMALL: leak_sites' or
# alloc_leak's site has grown most of the module sites from OLD to NEW, by
# BLOCKS of SIZE bytes; the site holds HELD blocks; leak_sites' 512-byte
# site grew by SMALL calls (more calls, fewer bytes). Fails step-2 and
# returns 1 when the learner's grew says otherwise.
grew_round() {
	local want="$3 $(($4 * $5)) $4" got
	leak grew "$1" "$2"
	got=$prog_out
	if [ "$got" = "$want" ]; then
		return 0
	elif [ "$got" = "leak_sites $(($7 * small)) $7" ]; then
		fail step-2-grew "'$got' is the site with the most calls (leak_sites' func:leak_small, $small-byte blocks), not the most bytes: sort by bytes, allocinfo diff's default (not -s calls); want '$want'"
	elif [ -n "$got" ] && echo "$got" | awk '{ exit !($2 <= 0) }'; then
		fail step-2-grew "'$got' did not grow: 'allocinfo diff OLD NEW' takes the older snapshot first, and lists the sites that grew most first; want '$want'"
	elif [ "${got%% *}" = alloc_leak ] || [ "${got%% *}" = leak_sites ]; then
		if [ "${got%% *}" != "$3" ]; then
			fail step-2-grew "this time $3 leaked most, not ${got%% *}: take the module from the diff, not a name fixed in leak.sh; want '$want'"
		elif [ "$got" = "$3 $(($6 * $5)) $6" ]; then
			fail step-2-grew "that is what the site holds, not what it grew: the +bytes and +calls columns; want '$want'"
		else
			fail step-2-grew "print the module without its brackets, then the +bytes and +calls growth of its site without the +; $(first_diff "$want" "$got")"
		fi
	elif [ "${got%% *}" != "$3" ]; then
		fail step-2-grew "of the sites with a [module], $3's grew most (sites in vmlinux grow too, here tmpfs pages: skip sites without a module); want '$want'; $(first_diff "$want" "$got")"
	else
		fail step-2-grew "print the module without its brackets, then the +bytes and +calls growth of its site without the +; $(first_diff "$want" "$got")"
	fi
	return 1
}

# Round 1: alloc_leak leaks most; round 2: leak_sites' 4096-byte site.
# Each time, a vmlinux site that surely grows more than the leak: 16 MiB of
# tmpfs pages (shmem). Without it the slab's own pages grow about as much
# as the leak, and a grew that takes the first site, module or not, would
# pass about half the time. The snapshots are the check's own, and round 2
# leaks even when round 1 failed, so that steps 3 and 4 find what they
# expect.
cat /proc/allocinfo >$snap0
echo $a_more >/sys/module/alloc_leak/parameters/leak
echo $b_big1 >/sys/module/leak_sites/parameters/big
echo $b_small1 >/sys/module/leak_sites/parameters/small
dd if=/dev/zero of=$fill bs=1M count=16 2>/dev/null
cat /proc/allocinfo >$snap1
rm -f $fill
echo $b_big2 >/sys/module/leak_sites/parameters/big
echo $b_small2 >/sys/module/leak_sites/parameters/small
echo $a_few >/sys/module/alloc_leak/parameters/leak
dd if=/dev/zero of=$fill bs=1M count=16 2>/dev/null
cat /proc/allocinfo >$snap2
rm -f $fill
if grew_round $snap0 $snap1 alloc_leak $a_more $block $((first + a_more)) $b_small1 &&
	grew_round $snap1 $snap2 leak_sites $b_big2 $block $((b_big1 + b_big2)) $b_small2; then
	pass step-2-grew
fi

leak held leak_sites
big_held=$(((b_big1 + b_big2) * block)) small_held=$((b_small * small))
want=$((big_held + small_held))
if [ "$prog_out" = "$want" ]; then
	pass step-3-held
elif [ "$prog_out" = $((b_big1 + b_big2 + b_small)) ]; then
	fail step-3-held "that is the calls: the first column of allocinfo is bytes, the second calls; want $want"
elif [ "$prog_out" = $big_held ] || [ "$prog_out" = $small_held ]; then
	fail step-3-held "that is one site of leak_sites: it has two (func:leak_big, func:leak_small); add up every site of the module; want $want"
else
	fail step-3-held "leak_sites holds $((b_big1 + b_big2)) blocks of $block bytes and $b_small of $small: want $want; $(first_diff "$want" "$prog_out")"
fi

# unload_round MODULE BYTES [WRONG HINT]: the learner's unload of MODULE
# says BYTES; when it says one of the WRONG numbers, fail with HINT. Its
# rmmod first logs an unload line of another module (lab10_other), as a
# module unloaded at the same time would: leak.sh is sourced by a shell
# where rmmod is a function (busybox sh runs its applets without PATH).
other=$(($(rand 1 99) * small))
other_line="lab10_other.c:$(rand 10 99) module lab10_other func:lab10_other has $other allocated at module unload"
unload_round() {
	local w
	run_prog 60 sh -c 'rmmod() { echo "$0" >/dev/kmsg; command rmmod "$@"; }; lab10_leak=$1; shift; . "$lab10_leak"' \
		"$other_line" "$dir/leak.sh" unload $1
	prog_cmd="sh leak.sh unload $1"
	if loaded $1; then
		fail step-4-unload "$1 is still loaded: rmmod it"
		return 1
	fi
	[ "$prog_out" != "still allocated $2" ] || return 0
	if [ "$prog_out" = "still allocated $(($2 + other))" ]; then
		fail step-4-unload "that adds the $other bytes another module (lab10_other) logged at the same time: count only the lines of module $1 (' module $1 func:'); want 'still allocated $2'"
		return 1
	fi
	for w in ${3:-}; do
		[ "$prog_out" = "still allocated $w" ] || continue
		fail step-4-unload "$4; want 'still allocated $2'"
		return 1
	done
	fail step-4-unload "at rmmod the kernel logs what the module left allocated, one line per site ('dmesg', the lines with 'allocated at module unload' that this rmmod logged); $(first_diff "still allocated $2" "$prog_out")"
	return 1
}

# alloc_leak unloaded, loaded again with other blocks, unloaded again (the
# lines of its first unload stay in dmesg); then leak_sites with two sites.
a_held=$(((first + a_more + a_few) * block))
if unload_round alloc_leak $a_held &&
	insmod $modules/alloc_leak.ko blocks=$again &&
	unload_round alloc_leak $((again * block)) $a_held \
		"that is alloc_leak's first unload in this boot: dmesg keeps the older lines, report the ones this rmmod logged" &&
	unload_round leak_sites $want "$big_held $small_held" \
		"that is one of leak_sites' two sites: the kernel logs a line per site still holding memory; add them up"; then
	pass step-4-unload
fi
