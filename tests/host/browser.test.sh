#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build the guide and open the home page and one chapter in headless
# Chromium: no console error, no failed load, every diagram an SVG that
# rendered. Screenshots stay in $OUT_DIR/host/browser/screenshots. A page broken on
# purpose must be reported, or the check itself is broken.
. tests/host/lib.sh
out=$WORK_DIR
mkdir -p "$out/screenshots"
CHAPTER=ringbuffer/layout

if ! command -v "${CHROMIUM:-chromium}" >/dev/null; then
	fail chromium "not installed (vm/deps.sh installs Debian's chromium)"
	exit 0
fi
# The guide as make html builds it, into $out/html.
if ! make -s --no-print-directory html OUT_DIR="$out" >"$out/sphinx.log" 2>&1; then
	fail build "sphinx-build failed; see $out/sphinx.log"
	exit 0
fi

check_page() { # NAME FILE: one result line for one page
	local name=$1 file=$2 line
	if line=$(python3 tests/host/browser-check.py "$out/screenshots" "$file" 2>&1); then
		case $line in
		"ok "*": 0 diagrams") fail "$name" "no diagram on the page" ;;
		"ok "*) pass "$name" ;;
		*) fail "$name" "$line" ;;
		esac
	else
		fail "$name" "${line:-browser-check.py failed}"
	fi
}
check_page home "$out/html/index.html"
check_page chapter "$out/html/$CHAPTER.html"
for page in index "$CHAPTER"; do
	shot=$out/screenshots/$(basename "$page").png
	if [ -s "$shot" ]; then
		pass "screenshot-$(basename "$page")"
	else
		fail "screenshot-$(basename "$page")" "no $shot"
	fi
done

# The negative control: a missing diagram and a console error.
cat >"$out/broken.html" <<'HTML'
<!DOCTYPE html><html><body>
<object data="missing.svg" type="image/svg+xml">no diagram</object>
<script>console.error("broken on purpose")</script>
</body></html>
HTML
if res=$(python3 tests/host/browser-check.py "$out/screenshots" "$out/broken.html" 2>&1); then
	fail detects-broken-page "a broken page passed: $res"
elif grep -q "missing.svg" <<<"$res" && grep -q "broken on purpose" <<<"$res"; then
	pass detects-broken-page
else
	fail detects-broken-page "$res"
fi
