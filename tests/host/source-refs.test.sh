#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every evidence reference in the guide resolves: each :src:`PATH:SYMBOL`
# names a file of the unpacked 6.12 tree (vm/kernel.sh's PRISTINE_DIR, the
# release without the project's patches) that defines or mentions SYMBOL,
# and each :test:`PATH:NAME` a file of this repository that contains NAME.
# The checker is docs/_ext/srcref.py, the same module that renders the roles.
# First it must catch a reference made to fail, or it proves nothing.
. tests/host/lib.sh
tree=$(vm/kernel.sh --print-var PRISTINE_DIR)
checker=docs/_ext/srcref.py
out=$WORK_DIR
if [ ! -f "$tree/kernel/trace/ring_buffer.c" ]; then
	fail tree "no unpacked kernel tree at $tree (make kernel unpacks it)"
	exit 0
fi

# The checker must reject a missing file, a missing function, a function
# that is only mentioned, a missing test name, a test name that is only the
# start of a real one, and a role left open.
cat >"$out/bad.rst" <<'RST'
:src:`kernel/trace/no_such_file.c:ring_buffer_map()`
:src:`kernel/trace/ring_buffer.c:no_such_function()`
:src:`kernel/trace/ring_buffer.c:EXPORT_SYMBOL_GPL()`
:test:`tests/host/run.sh:no-such-test-name`
:test:`tests/vm/docs-claims-rb.test.sh:reset-keeps`
RST
printf ':src:`kernel/trace/ring_buffer.c:ring_buffer_map()\n' >"$out/open.rst"
python3 "$checker" check "$tree" . "$out/bad.rst" "$out/open.rst" >"$out/bad.out" 2>&1 || true
fails=$(grep -c '^FAIL: ' "$out/bad.out" || true)
if [ "$fails" = 6 ] && ! grep -q '^PASS: ' "$out/bad.out"; then
	pass checker-rejects-bad-references
else
	fail checker-rejects-bad-references "expected 6 failures, got: $(tr '\n' ' ' <"$out/bad.out")"
fi

# The guide itself: every page, and at least one reference of each kind.
mapfile -t pages < <(find docs -name '*.rst' -not -path 'docs/_ext/*' | sort)
python3 "$checker" check "$tree" . "${pages[@]}" >"$out/guide.out" 2>&1 || true
cat "$out/guide.out"
for role in src test; do
	expect_match "guide-has-$role-references" "^PASS: source-refs/$role/" "$(cat "$out/guide.out")"
done
