# SPDX-License-Identifier: MIT
# Memory-allocation profiling: /proc/allocinfo, the vm.mem_profiling sysctl,
# the allocinfo tool on the real file, and the alloc_leak module's line
# growing, shrinking, ignored while profiling is off, and the warning at
# unload. (The boot parameter needs other boots: tests/host/mem-profiling-boot.)
. "$(dirname "$0")/guest-lib.sh"

AI=/proc/allocinfo
SYSCTL=/proc/sys/vm/mem_profiling
MOD=$GUEST_PREFIX/modules/alloc_leak.ko
PARAM=/sys/module/alloc_leak/parameters

expect_eq file-mode-0400 "-r--------" "$(ls -l $AI | cut -c1-10)"
expect_eq header-line "allocinfo - version: 1.0" "$(sed -n 1p $AI)"
expect_eq column-line "#     <size>  <calls> <tag info>" "$(sed -n 2p $AI)"
# Every other line: "%12lli %8llu file:line [module] func:name " (note the
# trailing space).
bad=$(sed 1,2d $AI | grep -v -E '^ *-?[0-9]+ +[0-9]+ [^ ]+:[0-9]+ (\[[^]]+\] )?func:[^ ]+ $' | head -n 3)
expect_eq every-line-has-the-format "" "$bad"
check width-of-the-number-columns sh -c "sed 1,2d $AI | grep -q -E '^ {0,11}-?[0-9]{1,12} {1,8}[0-9]{1,8} '"
check tool-parses-the-real-file sh -c "allocinfo -n 0 >/dev/null"
expect_eq tool-lists-every-site "$(($(wc -l <$AI) - 2 + 1))" "$(allocinfo -n 0 | wc -l)"
expect_eq sysctl-default-on 1 "$(cat $SYSCTL)"
expect_eq sysctl-mode-0644 "-rw-r--r--" "$(ls -l $SYSCTL | cut -c1-10)"
check counts-kernel-allocations sh -c "sed 1,2d $AI | awk '\$1 > 0' | grep -q ."

# leak_line: the module's allocinfo line, as "bytes calls".
leak_line() { grep '\[alloc_leak\]' $AI | awk '{ print $1, $2 }'; }
expect_eq no-line-before-load "" "$(leak_line)"
if ! insmod $MOD blocks=200; then
	fail module-loads "insmod $MOD failed"
	exit 0
fi
expect_eq line-after-load-200-blocks "819200 200" "$(leak_line)"
check line-names-module-and-function grep -q -E "^ +819200 +200 alloc_leak/alloc_leak.c:[0-9]+ \[alloc_leak\] func:leak_blocks $" $AI
expect_eq tool-filter-by-module "819200 200" "$(allocinfo -m alloc_leak | awk 'NR == 2 { print $1, $2 }')"
expect_eq tool-filter-by-function "1" "$(allocinfo -F leak_blocks | sed 1d | wc -l)"
expect_eq tool-filter-by-file "1" "$(allocinfo -f alloc_leak.c | sed 1d | wc -l)"

cat $AI >/tmp/allocinfo.before
echo 50 >$PARAM/leak
expect_eq line-grows-by-50 "1024000 250" "$(leak_line)"
expect_eq tool-diff-shows-growth "+204800 +50 1024000 250" \
	"$(allocinfo -m alloc_leak diff /tmp/allocinfo.before $AI | awk 'NR == 2 { print $1, $2, $3, $4 }')"
echo 10 >$PARAM/release
expect_eq calls-count-live-allocations "983040 240" "$(leak_line)"

echo 0 >$SYSCTL
echo 10 >$PARAM/leak
expect_eq not-counted-while-sysctl-0 "983040 240" "$(leak_line)"
echo 1 >$SYSCTL
echo 1 >$PARAM/leak
expect_eq counted-again-after-sysctl-1 "987136 241" "$(leak_line)"

warnings() { dmesg | grep -c 'allocated at module unload'; }
before=$(warnings)
check leaky-module-unloads rmmod alloc_leak
expect_eq unload-warns-once "$((before + 1))" "$(warnings)"
check warning-names-site-and-bytes sh -c "dmesg | grep -q 'alloc_leak/alloc_leak.c:[0-9]* module alloc_leak func:leak_blocks has 987136 allocated at module unload'"
check unload-says-not-clean sh -c "dmesg | grep -q 'alloc_leak: memory allocation(s) from the module still alive, cannot unload cleanly'"
expect_eq line-gone-after-unload "" "$(leak_line)"

# The same module, freeing its blocks at unload: no warning.
before=$(warnings)
check clean-module-loads insmod $MOD blocks=5 free_on_exit=1
expect_eq clean-module-line "20480 5" "$(leak_line)"
check clean-module-unloads rmmod alloc_leak
expect_eq clean-unload-no-warning "$before" "$(warnings)"
rm -f /tmp/allocinfo.before
