# SPDX-License-Identifier: MIT
# mseal(): every row of the table in docs/mseal.rst (the committed transcript
# docs/transcripts/mseal.txt) must be what mseal_demo prints on this kernel.
. "$(dirname "$0")/guest-lib.sh"

if out=$(mseal_demo); then
	pass demo-runs
else
	fail demo-runs "mseal_demo exited $?"
fi
check_rows "$GUEST_PREFIX/transcripts/mseal.txt" "$out"
