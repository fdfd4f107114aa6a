#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# README.md's layout table against the tree: every folder it names exists,
# every folder of the top level, examples/ and tests/ has a row (a folder
# whose subfolders have rows counts as covered), and the library's row
# names exactly the files of examples/lib/.
. tests/host/lib.sh
table=$(sed -n '/^## Layout/,/^## /p' README.md | grep '^| `' || true)
[ -n "$table" ] || { fail table "README.md has no layout table under '## Layout'"; exit 0; }
# The folders of the first column, one per line, with their trailing /.
listed=$(cut -d'|' -f2 <<<"$table" | grep -o '`[^`]*/`' | tr -d '`' | sort -u)
missing=$(while read -r d; do [ -d "$d" ] || echo "$d"; done <<<"$listed")
expect_eq listed-folders-exist "" "$(echo $missing)"
# The tracked folders that must have a row (or a row below them).
tracked=$(git ls-files | awk -F/ 'NF > 1 && $1 !~ /^\./ {
	print $1 "/"
	if (NF > 2 && ($1 == "examples" || $1 == "tests")) print $1 "/" $2 "/"
}' | sort -u)
unlisted=$(while read -r d; do
	grep -qxF "$d" <<<"$listed" || grep -q "^$d" <<<"$listed" || echo "$d"
done <<<"$tracked")
expect_eq every-folder-listed "" "$(echo $unlisted)"
# The library's row: its backquoted file names (tracemap.[ch] is two).
row=$(grep '^| `examples/lib/`' <<<"$table" | cut -d'|' -f3)
named=$(grep -o '`[a-z_]*\(\.\[ch\]\|\.[ch]\)`' <<<"$row" | tr -d '`' |
	sed 's/\(.*\)\.\[ch\]$/\1.c\n\1.h/' | sort -u)
present=$(git ls-files examples/lib | xargs -r -n1 basename | sort -u)
expect_eq library-row-names-its-files "$(echo $present)" "$(echo $named)"
