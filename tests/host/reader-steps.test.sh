#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# docs/_ext/readersteps.py, which draws the guide's reader-swap and
# missed-event pictures from the recorded transcripts: what it says each
# GET_READER did in the committed transcripts, and that a transcript it
# cannot read is an error, not a picture with a step missing.
. tests/host/lib.sh
# verdicts FILE SESSION: the title of each state, one per line.
verdicts() {
	/usr/bin/python3 - "$1" "$2" <<'PY'
import re, sys
sys.path.insert(0, "docs/_ext")
import readersteps
runs = readersteps.sessions(open(sys.argv[1]).read().splitlines())
dot = readersteps.dot(runs[int(sys.argv[2]) - 1])
print("\n".join(re.findall(r'BGCOLOR="#dde8f5">([^<]*)<', dot)))
PY
}
reader=$(verdicts docs/transcripts/rb-reader.txt 1)
expect_eq rb-reader-verdicts "mapped, before any call
get 1: swap: ID 0 out, ID 1 in
get 2: no swap: ID 1 had unread data, marked read (the writer had added 60 bytes)
get 3: no swap: nothing new
get 4: no swap: ID 1 had unread data, marked read (the writer had added 3948 bytes)
get 5: swap: ID 1 out, ID 2 in
get-blocking 6: EINTR, nothing changed" "$reader"
expect_eq rb-missed-overwrite-first-swap "get 1: swap: ID 0 out, ID 1 in, flagged: 1692 missed" \
	"$(verdicts docs/transcripts/rb-missed.txt 1 | sed -n 2p)"
expect_eq rb-missed-sessions 2 "$(verdicts docs/transcripts/rb-missed.txt 2 >/dev/null && echo 2)"
# Damage: a meta line cut short, a state that changed with no call between.
sed 's/ overrun 0 read 2$/ overrun 0/' docs/transcripts/rb-reader.txt >"$WORK_DIR/cut.txt"
if out=$(verdicts "$WORK_DIR/cut.txt" 1 2>&1); then
	fail cut-line-refused "drew a picture: $out"
else
	expect_match cut-line-refused "not a step's output" "$out"
fi
awk '/^> write 1 /{ print "> show"; print "  meta: reader.id 9 reader.read 0 reader.lost_events 0 entries 0 overrun 0 read 0"; print "  sub-buffer 9: commit word 0x0000000000000000: 0 bytes of data" } { print }' \
	docs/transcripts/rb-reader.txt >"$WORK_DIR/moved.txt"
if out=$(verdicts "$WORK_DIR/moved.txt" 1 2>&1); then
	fail change-without-call-refused "drew a picture: $out"
else
	expect_match change-without-call-refused "changed without a call" "$out"
fi
