# SPDX-License-Identifier: MIT
# The test harness itself: the summary counts and fails where it must, deps
# names what is missing, transcripts normalise what varies.
. tests/host/lib.sh
dir=$WORK_DIR

# summary_status NAME WANT_EXIT WANT_LINE CONTENT
summary_status() {
	local rc=0 out
	printf '%b' "$4" >"$dir/in.results"
	out=$(tests/summary.sh "$dir/in.results") || rc=$?
	expect_eq "$1" "exit $2: $3" "exit $rc: $(tail -n 1 <<<"$out")"
}
summary_status summary-all-pass 0 "2 passed, 0 failed, 0 skipped" 'PASS: a/b\nPASS: a/c\nnoise\n'
summary_status summary-a-failure-fails 1 "1 passed, 1 failed, 0 skipped" 'PASS: a/b\nFAIL: a/c: why\n'
summary_status summary-unexpected-skip-fails 1 "1 passed, 0 failed, 1 skipped" 'PASS: a/b\nSKIP: a/never-expected: no reason\n'
summary_status summary-nothing-ran-fails 1 "0 passed, 0 failed, 0 skipped" 'just noise\n'
summary_status summary-crlf-from-serial 0 "1 passed, 0 failed, 0 skipped" 'PASS: a/b\r\n'

if out=$(DEPS_EXTRA=no-such-package-here setpriv --reuid=65534 --regid=65534 --clear-groups vm/deps.sh 2>&1); then
	fail deps-missing-not-root "exited 0"
elif grep -q 'missing packages: no-such-package-here; install them with: sudo apt-get install' <<<"$out" &&
	[ "$(wc -l <<<"$out")" = 1 ]; then
	pass deps-missing-not-root
else
	fail deps-missing-not-root "said '$out'"
fi
expect_eq deps-quiet-when-present "" "$(vm/deps.sh 2>&1 || echo "exited $?")"

printf 'ts 1234.567890 addr 0xffff888003a1c000 n 42\n' >"$dir/t.txt"
want='ts <TIME> addr <ADDR> n 42'
expect_eq normalise-transcript "$want" "$(tests/normalise-transcript.sh no-such-rules "$dir/t.txt")"

# The built kernel's .config has every symbol of the fragment; one without
# CONFIG_FTRACE is refused, naming the symbol.
config=$(vm/kernel.sh --print-var BUILD_DIR)/.config
check kernel-config-complete vm/kernel.sh --check-config "$config"
sed '/^CONFIG_FTRACE=/d' "$config" >"$dir/config"
if out=$(vm/kernel.sh --check-config "$dir/config" 2>&1); then
	fail kernel-config-missing-symbol accepted
elif grep -q 'CONFIG_FTRACE: wanted y, got n' <<<"$out"; then
	pass kernel-config-missing-symbol
else
	fail kernel-config-missing-symbol "said '$out'"
fi

# The patch stage on a tiny stand-in tree: a good series applies, a patch
# that does not apply stops the build naming it, and a changed series is
# re-applied from the pristine copy.
fake=$dir/fake
mkdir -p "$fake/src/linux-source-6.12" "$fake/good" "$fake/bad"
printf 'one\ntwo\n' >"$fake/src/linux-source-6.12/file"
tar -C "$fake/src" -cJf "$fake/linux.tar.xz" linux-source-6.12
cat >"$fake/good/0001-two.patch" <<'PATCH'
--- a/file
+++ b/file
@@ -1,2 +1,2 @@
 one
-two
+TWO
PATCH
printf '0001-two.patch\n' >"$fake/good/series"
sed 's/^-two$/-deux/' "$fake/good/0001-two.patch" >"$fake/bad/0001-uno.patch"
printf '# comment\n0001-uno.patch\n' >"$fake/bad/series"
stage() { CACHE_DIR=$fake/cache KERNEL_TARBALL=$fake/linux.tar.xz SERIES_DIR=$1 vm/kernel.sh patch; }
# applied NAME SERIES LINE: the patch stage with SERIES gives a file LINE.
applied() {
	if out=$(stage "$2" 2>&1) && grep -qx "$3" "$fake/cache/linux/file"; then
		pass "$1"
	else
		fail "$1" "$(tail -n 2 <<<"$out")"
	fi
}
applied patch-stage-applies-series "$fake/good" TWO
if out=$(stage "$fake/bad" 2>&1); then
	fail patch-stage-names-failing-patch accepted
elif grep -q "patch kernel-patches/0001-uno.patch does not apply" <<<"$out"; then
	pass patch-stage-names-failing-patch
else
	fail patch-stage-names-failing-patch "said '$(tail -n 1 <<<"$out")'"
fi
: >"$fake/bad/series"
applied patch-stage-restarts-from-pristine "$fake/bad" two

# The build (examples/build.mk): a user's CFLAGS adds to the flags the code
# needs and never drops them, the guest's programs stay static, and the
# compiler is gcc unless CC names another (make's own default is cc).
# compile_line DIR ARGS...: the first line make -n would run there that
# links a program (the compiler's name first; the archive's lines start
# with mkdir).
compile_line() {
	local d=$1
	shift
	make -s -n -B -C "$d" --no-print-directory O="$PWD/$dir/build" "$@" >"$dir/make-n.out" 2>&1 || true
	grep -m1 -E -- '^[^ ]*(cc|clang)[^ ]* .* -o ' "$dir/make-n.out" || echo "no compiler line: $(head -n 2 "$dir/make-n.out")"
}
line=$(compile_line examples CFLAGS=-O0)
missing=$(for flag in -O0 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror; do
	grep -q -- " $flag " <<<"$line " || echo "$flag"
done)
expect_eq build-cflags-keeps-required "" "$missing"
line=$(compile_line tests/vm CFLAGS=-O0 UAPI=/nonexistent TREE=/nonexistent)
expect_match build-guest-static ' -static( |$)' "$line"
expect_eq build-cc-default-gcc gcc "$(compile_line examples | cut -d' ' -f1)"
expect_eq build-cc-chosen clang "$(compile_line examples CC=clang | cut -d' ' -f1)"

# The guest's staging (vm/guest.mk): with nothing changed it rebuilds
# nothing, and what is no longer in the sources leaves the guest's files.
. vm/guest.conf
guest_tests=$OUT_DIR/guest-root$GUEST_PREFIX/tests
if make -s guest-root >"$dir/stage.log" 2>&1; then
	built() { find "$OUT_DIR/guest-root" -type f -printf '%T@ %p\n' | sort; }
	built >"$dir/built.before"
	: >"$guest_tests/stale.test.sh"
	make -s guest-root >>"$dir/stage.log" 2>&1
	built >"$dir/built.after"
	expect_eq guest-staging-warm-rebuilds-nothing "" "$(diff "$dir/built.before" "$dir/built.after" | head -n 4)"
	if [ -e "$guest_tests/stale.test.sh" ]; then
		fail guest-staging-drops-stale "$guest_tests/stale.test.sh is still there"
	else
		pass guest-staging-drops-stale
	fi
else
	fail guest-staging "make guest-root failed: $(tail -n 3 "$dir/stage.log")"
fi
