#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Host tests of the labs' tooling: the skeleton generator (labs/skel.sh), the
# make targets' handling of an unknown lab, and each lab's parts.
set -euo pipefail
SUITE=${SUITE:-labs}
cd "$(dirname "$0")/../.."
pass() { echo "PASS: $SUITE/$1"; }
fail() { echo "FAIL: $SUITE/$1: $2"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/a.c" <<'SRC'
int f(void)
{
	int x = 0;
	/* TODO 1: set x to 42 */
	x = 42;
	/* END TODO 1 */
	/* SKEL: (void)x; */
	return x;
}
SRC
out=$(labs/skel.sh "$tmp/a.c")
if grep -q 'TODO 1: set x to 42' <<<"$out" && ! grep -q 'x = 42;' <<<"$out" &&
	! grep -q 'END TODO' <<<"$out"; then
	pass skel-drops-the-block
else
	fail skel-drops-the-block "got: $(tr '\n' ' ' <<<"$out")"
fi
if grep -qx $'\t(void)x;' <<<"$out" && ! grep -q SKEL <<<"$out"; then
	pass skel-keeps-skel-lines
else
	fail skel-keeps-skel-lines "want a line '<tab>(void)x;'; got: $(tr '\n' ' ' <<<"$out")"
fi
printf '%s\n' 'echo a' '	# TODO 1: say b' '	echo b' '	# END TODO 1' '	# SKEL: :' >"$tmp/a.sh"
out=$(labs/skel.sh "$tmp/a.sh")
if [ "$out" = $'echo a\n\t# TODO 1: say b\n\t:' ]; then
	pass skel-shell-markers
else
	fail skel-shell-markers "got: $(tr '\n' '|' <<<"$out")"
fi

# bad_input NAME CONTENT: the generator must fail with one line naming it.
bad_input() {
	local err
	printf '%s\n' "$2" >"$tmp/bad.c"
	if err=$(labs/skel.sh "$tmp/bad.c" 2>&1 >/dev/null); then
		fail "$1" "accepted"
	elif [ "$(wc -l <<<"$err")" = 1 ] && grep -q "^skel: $tmp/bad.c:[0-9]*: " <<<"$err"; then
		pass "$1"
	else
		fail "$1" "want one line 'skel: FILE:LINE: ...'; got: $(tr '\n' '|' <<<"$err")"
	fi
}
bad_input skel-unclosed-todo $'/* TODO 1: x */\nint a;'
bad_input skel-end-without-todo $'int a;\n/* END TODO 1 */'
bad_input skel-mismatched-end $'/* TODO 1: x */\n/* END TODO 2 */'
bad_input skel-nested-todo $'/* TODO 1: x */\n/* TODO 2: y */\n/* END TODO 2 */\n/* END TODO 1 */'
bad_input skel-todo-twice $'/* TODO 1: x */\n/* END TODO 1 */\n/* TODO 1: y */\n/* END TODO 1 */'

# A learner's edit survives regeneration; -f (FORCE=1) replaces it.
mkdir -p "$tmp/lab"
cp "$tmp/a.c" "$tmp/lab/a.c"
echo 'exit 0' >"$tmp/lab/check.sh"
labs/skel.sh "$tmp/lab" "$tmp/work" >/dev/null
echo '/* mine */' >>"$tmp/work/a.c"
labs/skel.sh "$tmp/lab" "$tmp/work" >/dev/null 2>&1
if grep -q mine "$tmp/work/a.c" && [ ! -e "$tmp/work/check.sh" ]; then
	pass skel-keeps-edits
else
	fail skel-keeps-edits "an edited file was overwritten, or check.sh was copied"
fi
labs/skel.sh -f "$tmp/lab" "$tmp/work" >/dev/null
if ! grep -q mine "$tmp/work/a.c"; then pass skel-force; else fail skel-force "-f kept the edit"; fi

err=$(make -s skel L=no-such-lab 2>&1 >/dev/null) && rc=0 || rc=$?
if [ "$rc" != 0 ] && grep -q "^unknown lab L='no-such-lab'; the labs: 01-" <<<"$err"; then
	pass unknown-lab
else
	fail unknown-lab "want a non-zero exit and a line listing the labs; got $rc: $(tr '\n' '|' <<<"$err")"
fi

# Each lab: a check, numbered TODOs 1..N in its files, a page in the guide,
# and a skeleton that differs from the solution.
for dir in labs/[0-9][0-9]-*/; do
	lab=$(basename "$dir")
	why=''
	[ -f "$dir/check.sh" ] || why="no check.sh"
	[ -f "docs/labs/$lab.rst" ] || why="${why:+$why; }no docs/labs/$lab.rst"
	nums=$(cat "$dir"/* | sed -n 's/.*[#*][ \t]*TODO \([0-9]*\):.*/\1/p' | sort -n | tr '\n' ' ')
	[ -n "$nums" ] && [ "$nums" = "$(seq -s ' ' 1 "$(wc -w <<<"$nums")") " ] ||
		why="${why:+$why; }TODOs are not numbered 1..N: '$nums'"
	for f in "$dir"/*; do
		[ "$(basename "$f")" != check.sh ] || continue
		labs/skel.sh "$f" >"$tmp/skel" 2>"$tmp/err" || why="${why:+$why; }$(cat "$tmp/err")"
	done
	if [ -z "$why" ]; then pass "lab-$lab"; else fail "lab-$lab" "$why"; fi
done
