#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build the guide and open the home page and one chapter in headless
# Chromium: no console error, no failed load, every diagram an SVG that
# rendered. Screenshots stay in $B/host/browser/screenshots. A page broken on
# purpose must be reported, or the check itself is broken.
set -euo pipefail
cd "$(dirname "$0")/../.."
suite=${SUITE:-browser}
out=$B/host/browser
rm -rf "$out" && mkdir -p "$out/screenshots"
CHAPTER=ringbuffer/layout

if ! command -v "${CHROMIUM:-chromium}" >/dev/null; then
	echo "FAIL: $suite/chromium: not installed (vm/deps.sh installs Debian's chromium)"
	exit 0
fi
if ! /usr/bin/sphinx-build -c . -q -W --keep-going -n -b html docs "$out/html" >"$out/sphinx.log" 2>&1; then
	echo "FAIL: $suite/build: sphinx-build failed; see $out/sphinx.log"
	exit 0
fi

check_page() { # NAME FILE: one result line for one page
	local name=$1 file=$2 line
	if line=$(python3 tests/host/browser-check.py "$out/screenshots" "$file" 2>&1); then
		case $line in
		"ok "*": 0 diagrams") echo "FAIL: $suite/$name: no diagram on the page" ;;
		"ok "*) echo "PASS: $suite/$name" ;;
		*) echo "FAIL: $suite/$name: $line" ;;
		esac
	else
		echo "FAIL: $suite/$name: ${line:-browser-check.py failed}"
	fi
}
check_page home "$out/html/index.html"
check_page chapter "$out/html/$CHAPTER.html"
for page in index "$CHAPTER"; do
	shot=$out/screenshots/$(basename "$page").png
	if [ -s "$shot" ]; then
		echo "PASS: $suite/screenshot-$(basename "$page")"
	else
		echo "FAIL: $suite/screenshot-$(basename "$page"): no $shot"
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
	echo "FAIL: $suite/detects-broken-page: a broken page passed: $res"
elif grep -q "missing.svg" <<<"$res" && grep -q "broken on purpose" <<<"$res"; then
	echo "PASS: $suite/detects-broken-page"
else
	echo "FAIL: $suite/detects-broken-page: $res"
fi
