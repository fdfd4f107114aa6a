#!/bin/sh
# SPDX-License-Identifier: MIT
# Check lab 10 in the guest: load the project's alloc_leak module (one
# kmalloc() site of 4096-byte blocks), leak_sites (two sites: 4096- and
# 512-byte blocks) and leak_sites_many (16 sites of 1024-byte blocks; its
# source named leak_sites/leak_sites_many.c), make them leak counts chosen
# per run between two snapshots, once with each module in the lead, and
# compare what the learner's leak.sh finds with what the modules did; unload
# alloc_leak twice in the boot, and leak_sites with two sites left just
# after leak_sites_many with 11 to 16 (docs/allocinfo.rst). In the first two
# rounds, leak_sites' 512-byte site makes 2 to 5 times the calls of the site
# that leaked most bytes, with fewer bytes. Each step is judged on its own:
# steps 2 to 4 use the check's snapshots and leaks, whatever the learner's
# earlier steps did.
#   sh check.sh DIR
SUITE=${SUITE:-labs/10-allocinfo}
. "$(dirname "$0")/../check-helpers.sh"
lab_start "$1" leak.sh step-1-snapshot
modules=$GUEST_PREFIX/modules
block=4096 small=512
snap0=/tmp/lab10.0 snap1=/tmp/lab10.1 snap2=/tmp/lab10.2 snap3=/tmp/lab10.3
fill=/tmp/lab10.fill many=leak_sites_many
LAB_CLEANUP="rmmod alloc_leak leak_sites $many 2>/dev/null; rm -f $snap0 $snap1 $snap2 $snap3 $fill"
leak() { run_prog 60 sh "$dir/leak.sh" "$@"; }
loaded() { [ -d /sys/module/$1 ]; }

# What the modules hold, in blocks, as the check makes them leak.
# The small site's calls: 2 to 5 times the leader's, its bytes at most
# 5/8 of the leader's (512 against 4096 bytes a call).
first=$(rand 10 40) a_more=$(rand 200 400) b_big1=$(rand 20 60)
b_big2=$(rand 200 400) a_few=$(rand 10 40) again=$(rand 50 150)
b_small1=$((a_more * $(rand 20 50) / 10)) b_small2=$((b_big2 * $(rand 20 50) / 10))
b_small=$((b_small1 + b_small2)) a_third=$(rand 5 20)
# leak_sites_many: 11 to 16 of its 16 sites leak, from site m_from on (mod
# 16); the first, m_lead, leaks m_pre blocks in round 1 and m_big in round
# 3, more bytes than alloc_leak's a_third blocks then; the others 5 to 60
# blocks each in round 3. m_blocks: each site's blocks at the end, in site
# order from m_from.
m_n=$(rand 11 16) m_from=$(rand 0 15) m_pre=$(rand 5 15) m_big=$(rand 100 200)
m_lead=$m_from m_blocks=$((m_pre + m_big))
i=1
while [ $i -lt $m_n ]; do
	m_blocks="$m_blocks $(rand 5 60)"
	i=$((i + 1))
done
mblock=1024
m_held=$((($(echo $m_blocks | tr ' ' '+')) * mblock))
m_top10=$((($(echo $m_blocks | tr ' ' '\n' | sort -rn | head -n 10 | tr '\n' '+')0) * mblock))
for m in alloc_leak leak_sites $many; do ! loaded $m || rmmod $m; done
if ! insmod $modules/alloc_leak.ko blocks=$first || ! insmod $modules/leak_sites.ko ||
	! insmod $modules/$many.ko; then
	fail step-1-snapshot "could not load $modules/alloc_leak.ko, leak_sites.ko and $many.ko"
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

# grew_round OLD NEW MODULE BLOCKS SIZE HELD SMALL DIR: a site of MODULE
# has grown most of the module sites from OLD to NEW, by BLOCKS of SIZE
# bytes; the site holds HELD blocks; leak_sites' 512-byte site grew by
# SMALL calls (more calls, fewer bytes; "-": it did not grow); the site's
# source file is in folder DIR. Fails step-2 and returns 1 when the
# learner's grew says otherwise.
grew_round() {
	local want="$3 $(($4 * $5)) $4" got
	leak grew "$1" "$2"
	got=$prog_out
	if [ "$got" = "$want" ]; then
		return 0
	elif [ "$7" != - ] && [ "$got" = "leak_sites $(($7 * small)) $7" ]; then
		fail step-2-grew "'$got' is the site with the most calls (leak_sites' func:leak_small, $small-byte blocks), not the most bytes: sort by bytes, allocinfo diff's default (not -s calls); want '$want'"
	elif [ -n "$got" ] && echo "$got" | awk '{ exit !($2 <= 0) }'; then
		fail step-2-grew "'$got' did not grow: 'allocinfo diff OLD NEW' takes the older snapshot first, and lists the sites that grew most first; want '$want'"
	elif [ "$8" != "$3" ] && [ "${got%% *}" = "$8" ]; then
		fail step-2-grew "$8 is the folder of the site's source file ($8/$3.c), not its module: the module is the name in [brackets]; want '$want'"
	elif [ "${got%% *}" = alloc_leak ] || [ "${got%% *}" = leak_sites ] || [ "${got%% *}" = $many ]; then
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

# Round 1: alloc_leak leaks most; round 2: leak_sites' 4096-byte site;
# round 3: one of leak_sites_many's (alloc_leak leaks less). Each time, a
# vmlinux site that surely grows more than the leak: 16 MiB of tmpfs pages
# (shmem). Without it the slab's own pages grow about as much as the leak,
# and a grew that takes the first site, module or not, would pass about
# half the time. The snapshots are the check's own, and each round leaks
# even when an earlier one failed, so that steps 3 and 4 find what they
# expect.
many_leak() { echo "$((($1 + m_from) % 16)) $2" >/sys/module/$many/parameters/leak; }
cat /proc/allocinfo >$snap0
echo $a_more >/sys/module/alloc_leak/parameters/leak
many_leak 0 $m_pre
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
echo $a_third >/sys/module/alloc_leak/parameters/leak
i=0
for n in $m_blocks; do
	if [ $i = 0 ]; then
		many_leak 0 $m_big
	else
		many_leak $i $n
	fi
	i=$((i + 1))
done
dd if=/dev/zero of=$fill bs=1M count=16 2>/dev/null
cat /proc/allocinfo >$snap3
rm -f $fill
if grew_round $snap0 $snap1 alloc_leak $a_more $block $((first + a_more)) $b_small1 alloc_leak &&
	grew_round $snap1 $snap2 leak_sites $b_big2 $block $((b_big1 + b_big2)) $b_small2 leak_sites &&
	grew_round $snap2 $snap3 $many $m_big $mblock $((m_pre + m_big)) - leak_sites; then
	pass step-2-grew
fi

# held: leak_sites (two sites), then leak_sites_many (11 to 16 sites
# hold memory, more than the allocinfo tool's 10 lines by default). The
# lines of leak_sites_many hold the text leak_sites too.
big_held=$(((b_big1 + b_big2) * block)) small_held=$((b_small * small))
want=$((big_held + small_held))
held_sites() {
	leak held leak_sites
	if [ "$prog_out" = "$want" ]; then
		return 0
	elif [ "$prog_out" = $((b_big1 + b_big2 + b_small)) ]; then
		fail step-3-held "that is the calls: the first column of allocinfo is bytes, the second calls; want $want"
	elif [ "$prog_out" = $big_held ] || [ "$prog_out" = $small_held ]; then
		fail step-3-held "that is one site of leak_sites: it has two (func:leak_big, func:leak_small); add up every site of the module; want $want"
	elif [ "$prog_out" = $((want + m_held)) ]; then
		fail step-3-held "that adds the $m_held bytes of $many's sites: their lines hold the text leak_sites too (leak_sites/$many.c, [$many]); add up the sites whose [module] is leak_sites; want $want"
	else
		fail step-3-held "leak_sites holds $((b_big1 + b_big2)) blocks of $block bytes and $b_small of $small: want $want; $(first_diff "$want" "$prog_out")"
	fi
	return 1
}
held_many() {
	leak held $many
	if [ "$prog_out" = "$m_held" ]; then
		return 0
	elif [ "$prog_out" = "$m_top10" ]; then
		fail step-3-held "that is $many's 10 biggest sites, all the allocinfo tool shows by default (-n 10): $m_n of its sites hold memory; -n 0 shows every one; want $m_held"
	else
		fail step-3-held "$many holds $((m_held / mblock)) blocks of $mblock bytes, from $m_n sites: want $m_held; $(first_diff "$m_held" "$prog_out")"
	fi
	return 1
}
if held_sites && held_many; then
	pass step-3-held
fi

# unload_round MODULE BYTES [WRONG HINT]...: the learner's unload of MODULE
# says BYTES; when it says a WRONG number, fail with its HINT. Its rmmod
# first logs an unload line of another module (lab10_other), as a module
# unloaded at the same time would, then unloads the module $also (when not
# empty) for real: leak.sh is sourced by a shell where rmmod is a function
# (busybox sh runs its applets without PATH).
other=$(($(rand 1 99) * small))
other_line="lab10_other.c:$(rand 10 99) module lab10_other func:lab10_other has $other allocated at module unload"
also=''
unload_round() {
	local m=$1 bytes=$2
	shift 2
	run_prog 60 sh -c 'lab10_other=$1 lab10_also=$2 lab10_leak=$3; shift 3
		rmmod() {
			echo "$lab10_other" >/dev/kmsg
			[ -z "$lab10_also" ] || command rmmod "$lab10_also"
			command rmmod "$@"
		}
		. "$lab10_leak"' \
		sh "$other_line" "$also" "$dir/leak.sh" unload $m
	prog_cmd="sh leak.sh unload $m"
	if loaded $m; then
		fail step-4-unload "$m is still loaded: rmmod it"
		return 1
	fi
	[ "$prog_out" != "still allocated $bytes" ] || return 0
	if [ "$prog_out" = "still allocated $((bytes + other))" ] ||
		{ [ -n "$also" ] && [ "$prog_out" = "still allocated $((bytes + other + m_held))" ]; }; then
		fail step-4-unload "that adds the $other bytes another module (lab10_other) logged at the same time${also:+ (and $also's $m_held)}: count only the lines of module $m (' module $m func:'); want 'still allocated $bytes'"
		return 1
	fi
	if [ -n "$also" ] && [ "$prog_out" = "still allocated $((bytes + m_held))" ]; then
		fail step-4-unload "that adds the $m_held bytes of $also, unloaded at the same time: its name starts with $m, its lines say ' module $also func:'; count only the lines of module $m (' module $m func:'); want 'still allocated $bytes'"
		return 1
	fi
	while [ $# -ge 2 ]; do
		if [ "$prog_out" = "still allocated $1" ]; then
			fail step-4-unload "$2; want 'still allocated $bytes'"
			return 1
		fi
		shift 2
	done
	fail step-4-unload "at rmmod the kernel logs what the module left allocated, one line per site ('dmesg', the lines with 'allocated at module unload' that this rmmod logged); $(first_diff "still allocated $bytes" "$prog_out")"
	return 1
}

# alloc_leak unloaded, loaded again with other blocks, unloaded again (the
# lines of its first unload stay in dmesg); then leak_sites with two sites,
# its rmmod unloading leak_sites_many (11 to 16 sites) first.
a_held=$(((first + a_more + a_few + a_third) * block))
if unload_round alloc_leak $a_held &&
	insmod $modules/alloc_leak.ko blocks=$again &&
	unload_round alloc_leak $((again * block)) \
		$a_held "that is alloc_leak's first unload in this boot: dmesg keeps the older lines, report the ones this rmmod logged" \
		$((a_held + again * block)) "that adds alloc_leak's first unload in this boot ($a_held bytes): dmesg keeps the older lines, report only the ones this rmmod logged" &&
	also=$many &&
	unload_round leak_sites $want \
		$big_held "that is one of leak_sites' two sites: the kernel logs a line per site still holding memory; add them up" \
		$small_held "that is one of leak_sites' two sites: the kernel logs a line per site still holding memory; add them up"; then
	pass step-4-unload
fi
