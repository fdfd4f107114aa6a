# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# The table of the kernels the guest suites ran on (docs/matrix/results.csv,
# which docs/vm.rst includes), written by the runs themselves:
# tests/check-matrix.sh (our tree cross-built) and
# tests/check-debian-kernels.sh (Debian's own kernels). Sourced by both
# (bash, after vm/lib.sh); do not run it.
#   matrix_commit                   the repository's commit ("+changes" if dirty)
#   matrix_row NAME CONFIG "RELEASE MACHINE" SUITES COUNTS RC BOOT SECONDS COMMIT
#   matrix_table ROW_FILE...        those rows into the table

MATRIX_CSV=$REPO_DIR/docs/matrix/results.csv
MATRIX_HEADER="kernel,release,machine,page size,byte order,suites,results,as expected,boot (s),run (s),date,commit"

matrix_commit() {
	local c
	c=$(git -C "$REPO_DIR" rev-parse --short HEAD 2>/dev/null || echo unknown)
	[ -z "$(git -C "$REPO_DIR" status --porcelain 2>/dev/null)" ] || c="$c+changes"
	echo "$c"
}

# matrix_row: one kernel's line. The page size and byte order are the
# kernel configuration's (CONFIG_PAGE_SHIFT, 12 where it has none, as
# before 6.9; CONFIG_CPU_BIG_ENDIAN); the release and machine are the
# guest's uname -r -m ("? ?" when the guest never said); COUNTS is the
# verdict's last line, RC its exit status.
matrix_row() {
	local name=$1 config=$2 release machine suites=$4 counts=$5 rc=$6 boot=$7 secs=$8 commit=$9
	local shift_ order=little
	read -r release machine <<<"$3"
	shift_=$(sed -n 's/^CONFIG_PAGE_SHIFT=//p' "$config")
	! grep -q '^CONFIG_CPU_BIG_ENDIAN=y' "$config" || order=big
	printf '%s,%s,%s,%s,%s,%s,"%s",%s,%s,%s,%s,%s\n' "$name" "${release:-?}" "${machine:-?}" \
		"$((1 << ${shift_:-12}))" "$order" "$suites" "$counts" \
		"$([ "$rc" = 0 ] && echo yes || echo no)" "${boot:-?}" "$secs" "$(date -u +%Y-%m-%d)" "$commit"
}

# matrix_table ROW_FILE...: each file one row (matrix_row's); the table's
# row of that kernel replaced, or added; the other kernels' rows kept.
# Rows sorted by kernel name.
matrix_table() {
	local tmp f
	mkdir -p "$(dirname "$MATRIX_CSV")"
	tmp=$(mktemp "$MATRIX_CSV.XXXXXX")
	{
		cat "$@"
		[ ! -f "$MATRIX_CSV" ] || tail -n +2 "$MATRIX_CSV" | while IFS= read -r line; do
			for f in "$@"; do
				[ "${line%%,*}" != "$(cut -d, -f1 "$f")" ] || continue 2
			done
			echo "$line"
		done
	} | LC_ALL=C sort -t, -k1,1 >"$tmp.rows"
	{ echo "$MATRIX_HEADER"; cat "$tmp.rows"; } >"$tmp"
	rm -f "$tmp.rows"
	chmod 644 "$tmp"
	mv "$tmp" "$MATRIX_CSV"
}
