# SPDX-License-Identifier: MIT
# The kernel patch series (kernel-patches/, or SERIES_DIR): every patch
# passes checkpatch.pl --strict, applies in order with git am and with
# patch -p1 to the pristine Debian files it touches, the cached tree is that
# result, and the documentation example it corrects builds.
set -euo pipefail
dir=$B/host/$SUITE
rm -rf "$dir" && mkdir -p "$dir"
series_dir=$(cd "${SERIES_DIR:-kernel-patches}" && pwd)
pristine=$(vm/kernel.sh --print-var PRISTINE_DIR)

pass() { echo "PASS: $SUITE/$1"; }
fail() { echo "FAIL: $SUITE/$1: $2"; }

mapfile -t patches < <(SERIES_DIR=$series_dir vm/kernel.sh --series)
if [ ${#patches[@]} -eq 0 ]; then
	fail series-not-empty "$series_dir/series lists no patch"
	exit 0
fi
unlisted=$(cd "$series_dir" && for p in *.patch; do
	printf '%s\n' "${patches[@]}" | grep -qxF "$p" || echo "$p"
done)
if [ -z "$unlisted" ]; then pass series-lists-every-patch; else fail series-lists-every-patch "not listed: $unlisted"; fi

# The files the series touches, as the pristine tree has them (new files
# are absent there).
mapfile -t files < <(cd "$series_dir" && sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "${patches[@]}" | sort -u)
for d in am patch; do
	mkdir -p "$dir/$d"
	for f in "${files[@]}"; do
		[ ! -f "$pristine/$f" ] || install -D -m 0644 "$pristine/$f" "$dir/$d/$f"
	done
done
git_am() { git -C "$dir/am" -c user.name=tmg -c user.email=tmg@localhost "$@"; }
git_am init -q
git_am add -A -f
git_am commit -q -m "pristine linux-source-6.12 files"

for p in "${patches[@]}"; do
	if out=$(cd "$TREE_DIR" && scripts/checkpatch.pl --strict --quiet "$series_dir/$p" 2>&1) && [ -z "$out" ]; then
		pass "checkpatch/$p"
	else
		fail "checkpatch/$p" "$(head -n 3 <<<"$out" | tr '\n' ' ')"
	fi
	if out=$(git_am am -q "$series_dir/$p" 2>&1); then
		pass "git-am/$p"
	else
		git_am am --abort >/dev/null 2>&1 || true
		fail "git-am/$p" "$(head -n 2 <<<"$out" | tr '\n' ' ')"
	fi
	if out=$(patch -d "$dir/patch" -p1 --forward --batch --quiet <"$series_dir/$p" 2>&1); then
		pass "patch-p1/$p"
	else
		fail "patch-p1/$p" "$(head -n 2 <<<"$out" | tr '\n' ' ')"
	fi
done

# Both ways give the same files, and the cached tree (built by vm/kernel.sh)
# has exactly them.
differ=()
for f in "${files[@]}"; do
	cmp -s "$dir/am/$f" "$dir/patch/$f" || differ+=("$f")
done
if [ ${#differ[@]} -eq 0 ]; then pass git-am-equals-patch; else fail git-am-equals-patch "${differ[*]}"; fi
differ=()
for f in "${files[@]}"; do
	cmp -s "$dir/am/$f" "$TREE_DIR/$f" || differ+=("$f")
done
if [ ${#differ[@]} -eq 0 ]; then pass cached-tree-is-patched; else fail cached-tree-is-patched "differs: ${differ[*]}"; fi

# The example of Documentation/trace/ring-buffer-map.rst builds cleanly.
doc=$TREE_DIR/Documentation/trace/ring-buffer-map.rst
awk '/^Example$/ { ex = 1 } ex && /^\.\. code-block:: c/ { on = 1; next }
	on && /^        / { sub(/^        /, ""); print; next } on && /^$/ { print; next } on { exit }' \
	"$doc" >"$dir/doc_example.c"
if grep -q 'int main' "$dir/doc_example.c" &&
	out=$(gcc -std=gnu11 -Wall -Wextra -Werror -isystem "$HEADERS_DIR/include" \
		-o "$dir/doc_example" "$dir/doc_example.c" 2>&1); then
	pass doc-example-builds
else
	fail doc-example-builds "$(head -n 3 <<<"${out:-no example found in $doc}" | tr '\n' ' ')"
fi
