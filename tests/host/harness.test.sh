# SPDX-License-Identifier: MIT
# The test harness itself: the summary counts and fails where it must, deps
# names what is missing, transcripts normalise what varies.
set -euo pipefail
dir=$B/host/$SUITE
rm -rf "$dir" && mkdir -p "$dir"

# summary_status NAME WANT_EXIT WANT_LINE CONTENT
summary_status() {
	local rc=0 out
	printf '%b' "$4" >"$dir/in.results"
	out=$(tests/summary.sh "$dir/in.results") || rc=$?
	if [ "$rc" = "$2" ] && [ "$(tail -n 1 <<<"$out")" = "$3" ]; then
		echo "PASS: $SUITE/$1"
	else
		echo "FAIL: $SUITE/$1: exit $rc, last line '$(tail -n 1 <<<"$out")'"
	fi
}
summary_status summary-all-pass 0 "2 passed, 0 failed, 0 skipped" 'PASS: a/b\nPASS: a/c\nnoise\n'
summary_status summary-a-failure-fails 1 "1 passed, 1 failed, 0 skipped" 'PASS: a/b\nFAIL: a/c: why\n'
summary_status summary-unexpected-skip-fails 1 "1 passed, 0 failed, 1 skipped" 'PASS: a/b\nSKIP: a/never-expected: no reason\n'
summary_status summary-nothing-ran-fails 1 "0 passed, 0 failed, 0 skipped" 'just noise\n'
summary_status summary-crlf-from-serial 0 "1 passed, 0 failed, 0 skipped" 'PASS: a/b\r\n'

if out=$(DEPS_EXTRA=tmg-no-such-package setpriv --reuid=65534 --regid=65534 --clear-groups vm/deps.sh 2>&1); then
	echo "FAIL: $SUITE/deps-missing-not-root: exited 0"
elif grep -q 'missing packages: tmg-no-such-package; install them with: sudo apt-get install' <<<"$out" &&
	[ "$(wc -l <<<"$out")" = 1 ]; then
	echo "PASS: $SUITE/deps-missing-not-root"
else
	echo "FAIL: $SUITE/deps-missing-not-root: said '$out'"
fi
if out=$(vm/deps.sh 2>&1) && [ -z "$out" ]; then
	echo "PASS: $SUITE/deps-quiet-when-present"
else
	echo "FAIL: $SUITE/deps-quiet-when-present: said '$out'"
fi

printf 'ts 1234.567890 addr 0xffff888003a1c000 n 42\n' >"$dir/t.txt"
want='ts <TIME> addr <ADDR> n 42'
got=$(tests/normalise-transcript.sh no-such-rules "$dir/t.txt")
if [ "$got" = "$want" ]; then echo "PASS: $SUITE/normalise-transcript"; else echo "FAIL: $SUITE/normalise-transcript: got '$got'"; fi

# The built kernel's .config has every symbol of the fragment; one without
# CONFIG_FTRACE is refused, naming the symbol.
config=$(vm/kernel.sh --print-var BUILD_DIR)/.config
if vm/kernel.sh --check-config "$config" 2>/dev/null; then
	echo "PASS: $SUITE/kernel-config-complete"
else
	echo "FAIL: $SUITE/kernel-config-complete: $(vm/kernel.sh --check-config "$config" 2>&1 | tail -n 2)"
fi
sed '/^CONFIG_FTRACE=/d' "$config" >"$dir/config"
if out=$(vm/kernel.sh --check-config "$dir/config" 2>&1); then
	echo "FAIL: $SUITE/kernel-config-missing-symbol: accepted"
elif grep -q 'CONFIG_FTRACE: wanted y, got n' <<<"$out"; then
	echo "PASS: $SUITE/kernel-config-missing-symbol"
else
	echo "FAIL: $SUITE/kernel-config-missing-symbol: said '$out'"
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
if stage "$fake/good" >/dev/null 2>&1 && grep -qx TWO "$fake/cache/linux/file"; then
	echo "PASS: $SUITE/patch-stage-applies-series"
else
	echo "FAIL: $SUITE/patch-stage-applies-series"
fi
if out=$(stage "$fake/bad" 2>&1); then
	echo "FAIL: $SUITE/patch-stage-names-failing-patch: accepted"
elif grep -q "patch kernel-patches/0001-uno.patch does not apply" <<<"$out"; then
	echo "PASS: $SUITE/patch-stage-names-failing-patch"
else
	echo "FAIL: $SUITE/patch-stage-names-failing-patch: said '$(tail -n 1 <<<"$out")'"
fi
: >"$fake/bad/series"
if stage "$fake/bad" >/dev/null 2>&1 && grep -qx two "$fake/cache/linux/file"; then
	echo "PASS: $SUITE/patch-stage-restarts-from-pristine"
else
	echo "FAIL: $SUITE/patch-stage-restarts-from-pristine"
fi
