#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Host tests of the labs' tooling: the skeleton generator (labs/skel.sh), the
# make targets' handling of an unknown lab and of a missing terminal, the
# mutant builder (labs/build-all.sh), and each lab's parts.
. tests/host/lib.sh
tmp=$WORK_DIR

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
expect_eq skel-shell-markers $'echo a\n\t# TODO 1: say b\n\t:' "$out"

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
bad_input skel-why-outside-its-todo $'/* TODO 1: x */\n/* WHY 2: y */\n/* END TODO 1 */'
printf '%s\n' '	# TODO 1: say b' '	# WHY 1: because' '	echo b' '	# END TODO 1' >"$tmp/why.sh"
expect_eq skel-drops-why $'\t# TODO 1: say b' "$(labs/skel.sh "$tmp/why.sh")"

# labs/status.sh on a copy of the tree: not started (no copy, or the
# skeleton as generated), builds, passes once a lab-check's results passed
# on these files, and builds again once they change; lab-diff only after a
# pass.
st=$tmp/status-tree
mkdir -p "$st/labs/99-fake" "$st/examples" "$tmp/uapi/include/linux"
cp labs/status.sh labs/skel.sh labs/build.sh "$st/labs/"
cp -r examples/build.mk examples/lib examples/common examples/demos "$st/examples/"
# The reason is longer than half the side-by-side width: lab-diff still
# shows it whole.
why="WHY 1: the check wants it$(printf ', and so on%.0s' $(seq 30)), to the end"
printf '%s\n' '# TODO 1: say yes' "# $why" 'echo yes' '# END TODO 1' >"$st/labs/99-fake/say.sh"
echo 'exit 0' >"$st/labs/99-fake/check.sh"
status() { OUT_DIR=$tmp/status-out UAPI=$tmp/uapi "$st/labs/status.sh" "$@" 2>&1; }
s1=$(status 99-fake)
mkdir -p "$st/labs/work/99-fake"
"$st/labs/skel.sh" "$st/labs/99-fake/say.sh" >"$st/labs/work/99-fake/say.sh"
s2=$(status 99-fake)
echo 'echo yes' >>"$st/labs/work/99-fake/say.sh"
s3=$(status 99-fake)
d1=$(status diff 99-fake) && d1="exit 0: $d1" || d1="exit $?: $d1"
echo 'PASS: labs/99-fake/step-1-say' >"$tmp/results"
status record 99-fake "$tmp/results" >/dev/null
s4=$(status 99-fake)
d2=$(status diff 99-fake) || true
echo '# mine' >>"$st/labs/work/99-fake/say.sh"
s5=$(status 99-fake)
expect_eq labs-status-states "not started|not started|builds|passes|builds" \
	"$(for s in "$s1" "$s2" "$s3" "$s4" "$s5"; do sed 's/^99-fake *//' <<<"$s"; done | paste -sd'|')"
expect_match lab-diff-before-pass "^exit 1: lab-diff: the solution is shown once 'make lab-check L=99-fake' passes" "$d1"
expect_eq lab-diff-shows-why "$why" "$(grep -F -x -- "$why" <<<"$d2")"

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
check_fails skel-force grep -q mine "$tmp/work/a.c"

# skel.sh without arguments: its usage, from its header, and exit 2.
err=$(labs/skel.sh 2>&1) && rc=0 || rc=$?
if [ "$rc" = 2 ] && [ "$(head -n 1 <<<"$err")" = "Generate a lab's learner skeleton from its solution." ] &&
	grep -q '^  labs/skel.sh \[-f\] LAB_DIR OUT' <<<"$err"; then
	pass skel-usage
else
	fail skel-usage "want exit 2 and the header's usage; got $rc: $(tr '\n' '|' <<<"$err")"
fi

# An unknown lab, or make lab without a terminal: a line saying so at once
# (make's own "Error 2" line follows), before anything is built (a kernel or
# initramfs build would take seconds or more).
# fails_at_once NAME WANT_REGEX MAKE_ARGS...
fails_at_once() {
	local name=$1 want=$2 err rc marker=$tmp/built remade
	shift 2
	# Built first: a target besides the goal remade (make --debug=b), or a
	# recipe's $(MAKE) run (MAKE leaves a marker). Not timed: under load
	# the Makefile's parse alone took over 2 s.
	rm -f "$marker"
	err=$(make -s --debug=b MAKE="touch $marker; false" "$@" 2>&1 </dev/null >"$tmp/debug") && rc=0 || rc=$?
	remade=$(awk -v goal="$1" '/^Must remake target .*\.$/ {
		t = substr($0, 21, length($0) - 22); if (t != goal) printf "%s ", t }' "$tmp/debug")
	[ ! -e "$marker" ] || remade+='$(MAKE)'
	if [ "$rc" = 0 ] || ! head -n 1 <<<"$err" | grep -qE "$want"; then
		fail "$name" "want a non-zero exit and a first line matching '$want'; got $rc: $(tr '\n' '|' <<<"$err")"
	else
		expect_eq "$name" "built nothing" "built ${remade:-nothing}"
	fi
}
fails_at_once unknown-lab "^unknown lab L='no-such-lab'; the labs: 01-" skel L=no-such-lab
fails_at_once unknown-lab-check "^unknown lab L='bogus'; the labs: 01-" lab-check L=bogus
fails_at_once unknown-lab-shell "^unknown lab L='bogus'; the labs: 01-" lab L=bogus
fails_at_once lab-needs-terminal "^make lab needs a terminal" lab L=01-tracefs

# labs/build-all.sh on a lab of its own: a mutant that no longer changes the
# file, one without a want line, and too few mutants each give a FAIL line;
# a good one is built with its want file.
fake=$tmp/tree
mkdir -p "$fake/labs/99-fake/mutants" "$fake/examples" "$fake/tests" "$tmp/uapi/include/linux"
cp labs/build-all.sh labs/build.sh labs/skel.sh "$fake/labs/"
cp tests/results.sh "$fake/tests/"
cp -r examples/build.mk examples/lib examples/common examples/demos "$fake/examples/"
printf '%s\n' '# TODO 1: say yes' 'echo yes' '# END TODO 1' >"$fake/labs/99-fake/say.sh"
echo 'exit 0' >"$fake/labs/99-fake/check.sh"
printf '%s\n' '# want: step-1-say: say yes' 's/echo yes/echo no/' >"$fake/labs/99-fake/mutants/good.sed"
printf '%s\n' '# want: step-1-say: say yes' 's/echo maybe/echo no/' >"$fake/labs/99-fake/mutants/stale.sed"
printf '%s\n' 's/echo yes/echo no/' >"$fake/labs/99-fake/mutants/no-want.sed"
out=$(UAPI=$tmp/uapi OUT_DIR=$tmp "$fake/labs/build-all.sh" "$tmp/built" 99-fake 2>&1) || true
expect_eq build-all-good-mutant "step-1-say: say yes|echo no" \
	"$(cat "$tmp/built/99-fake/mutant-good/want" 2>/dev/null)|$(sed -n 2p "$tmp/built/99-fake/mutant-good/say.sh" 2>/dev/null)"
if grep -q '^FAIL: labs/99-fake/mutant-stale: .*no longer changes say.sh' <<<"$out" &&
	grep -q "^FAIL: labs/99-fake/mutant-no-want: no '# want: " <<<"$out" &&
	! grep -q 'mutant-good' <<<"$out"; then
	pass build-all-bad-mutants
else
	fail build-all-bad-mutants "want FAIL lines for mutant-stale and mutant-no-want only; got: $(tr '\n' '|' <<<"$out")"
fi
rm "$fake/labs/99-fake/mutants/stale.sed" "$fake/labs/99-fake/mutants/no-want.sed"
out=$(UAPI=$tmp/uapi OUT_DIR=$tmp "$fake/labs/build-all.sh" "$tmp/built" 99-fake 2>&1) || true
expect_match build-all-too-few-mutants '^FAIL: labs/99-fake/mutants: 1 mutants .*at least 3' "$out"

# Each lab: a check, numbered TODOs 1..N in its files, a page in the guide
# listed in the labs' index, and at least three mutants that change its file.
for dir in labs/[0-9][0-9]-*/; do
	lab=$(basename "$dir")
	why=''
	[ -f "$dir/check.sh" ] || why="no check.sh"
	[ -f "docs/labs/$lab.rst" ] || why="${why:+$why; }no docs/labs/$lab.rst"
	grep -qx "   $lab" docs/labs/index.rst || why="${why:+$why; }not in docs/labs/index.rst"
	n=$(ls "$dir"/mutants/*.sed 2>/dev/null | wc -l)
	[ "$n" -ge 3 ] || why="${why:+$why; }$n mutants"
	nums=$(find "$dir" -maxdepth 1 -type f -exec cat {} + | sed -n 's/.*[#*][ \t]*TODO \([0-9]*\):.*/\1/p' | sort -n | tr '\n' ' ')
	[ -n "$nums" ] && [ "$nums" = "$(seq -s ' ' 1 "$(wc -w <<<"$nums")") " ] ||
		why="${why:+$why; }TODOs are not numbered 1..N: '$nums'"
	for f in "$dir"/*; do
		[ -f "$f" ] && [ "$(basename "$f")" != check.sh ] || continue
		labs/skel.sh "$f" >"$tmp/skel" 2>"$tmp/err" || why="${why:+$why; }$(cat "$tmp/err")"
	done
	expect_eq "lab-$lab" "" "$why"
done
