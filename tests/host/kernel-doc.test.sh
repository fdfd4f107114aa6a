#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The library's headers are its API reference, in kernel-doc: the kernel's
# scripts/kernel-doc (of $TREE_DIR) finds nothing to warn about in them
# with -Wall (a parameter, member or Return: section missing or misnamed),
# and every function a header declares has a kernel-doc comment.
. tests/host/lib.sh
kdoc=${TREE_DIR:-}/scripts/kernel-doc
[ -f "$kdoc" ] || { skip kernel-doc "$kdoc missing (TREE_DIR)"; exit 0; }
# declared FILE: the functions FILE declares at file scope, one a line,
# sorted: comments, preprocessor lines and brace bodies removed, the rest
# cut at each ';', the tracemap_ name before the first '(' of each
# declaration (a prototype may span lines); typedefs are not functions.
declared() {
	perl -0777 -ne '
		s{/\*.*?\*/}{ }gs; s{//[^\n]*}{}g; s{\\\n}{ }g; s{^\s*#.*$}{}mg;
		my ($depth, $flat) = (0, "");
		for my $c (split //) {
			if ($c eq "{") { $depth++ } elsif ($c eq "}") { $depth-- }
			elsif ($depth == 0) { $flat .= $c }
		}
		for (split /;/, $flat) {
			next if /\btypedef\b/;
			print "$1\n" if /\b(tracemap_\w*)\s*\(/;
		}' "$1" | sort -u
}
# documented FILE: the functions kernel-doc documents in FILE, sorted.
documented() {
	perl "$kdoc" -rst "$1" 2>/dev/null |
		perl -ne 'print "$1\n" if /^\.\. c:function:: .*?\b(\w+) \(/' | sort -u
}
for h in examples/lib/tracemap.h examples/lib/tracemerge.h \
	examples/lib/tracedat.h examples/lib/tracemap_internal.h; do
	name=$(basename "$h")
	expect_eq "no-warnings/$name" "" "$(perl "$kdoc" -none -Wall "$h" 2>&1)"
	decl=$(declared "$h")
	# A prototype the parser misses would pass unseen: each header has some.
	if [ -z "$decl" ]; then
		fail "declared/$name" "no function declaration found in $h"
		continue
	fi
	missing=$(comm -23 <(echo "$decl") <(documented "$h"))
	if [ -z "$missing" ]; then
		pass "all-documented/$name"
	else
		fail "all-documented/$name" "no kernel-doc comment for: $(echo $missing)"
	fi
done
