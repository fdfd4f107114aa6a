# SPDX-License-Identifier: MIT
# The kernel patch series (kernel-patches/, or SERIES_DIR): every patch
# passes checkpatch.pl --strict; the patches apply one by one, in order,
# with git am (and with patch -p1, to the same files) to a scratch git
# repository holding the pristine Debian files the series touches; after
# each patch, what the series touches builds (see "Builds alone" below);
# the cached tree is the result; the cover letter describes the series.
. tests/host/lib.sh
dir=$(cd "$WORK_DIR" && pwd)
series_dir=$(cd "${SERIES_DIR:-kernel-patches}" && pwd)
pristine=$(vm/kernel.sh --print-var PRISTINE_DIR)
build=$(vm/kernel.sh --print-var BUILD_DIR)
cover=0000-cover-letter.patch

mapfile -t patches < <(SERIES_DIR=$series_dir vm/kernel.sh --series)
if [ ${#patches[@]} -eq 0 ]; then
	fail series-not-empty "$series_dir/series lists no patch"
	exit 0
fi
unlisted=$(cd "$series_dir" && for p in *.patch; do
	[ "$p" = $cover ] || grep -qxF "$p" <<<"$(printf '%s\n' "${patches[@]}")" || echo "$p"
done)
expect_eq series-lists-every-patch "" "$unlisted"


# Tags a maintainer asks for: Signed-off-by on each patch; the fix goes to
# stable with the commit it fixes.
for p in "${patches[@]}"; do
	check "signed-off/$p" grep -q '^Signed-off-by: ' "$series_dir/$p"
done
check fix-has-fixes-and-stable bash -c 'grep -q "^Fixes: [0-9a-f]\{12\} (\"" "$1" && grep -q "^Cc: stable@vger.kernel.org" "$1"' _ "$series_dir/${patches[0]}"

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

# Builds alone: after patch k, with the files the series touches as patches
# 1..k leave them (the scratch repository) and every other file as in the
# pristine tree (which no patch touches), each touched file is built:
#   kernel C file   compiled with the exact command kbuild used for its
#                   object (.o.cmd of the cached build), the scratch
#                   include/ searched first;
#   uapi header     kernel-doc -Wall warns of nothing it did not warn of
#                   in the pristine header, and it compiles in user space;
#   selftest C file compiled and linked (-Wall -Werror) against the
#                   installed uapi headers, the scratch uapi first;
#   .rst            its example program compiles (-Wall -Wextra -Werror).
# This proves every object, program and example of the series compiles at
# each step; it does not link the kernel (the series adds no symbol used
# across files) nor render the docs with Sphinx.
kbuild_compile() {
	local f=$1 obj=${1%.c}.o cmd
	cmd=$(sed -n "1s|^savedcmd_$obj := ||p" "$build/$(dirname "$f")/.$(basename "$obj").cmd")
	[ -n "$cmd" ] || { echo "no kbuild command for $obj in $build"; return 1; }
	cmd=${cmd%%;*}
	cmd=${cmd//-Wp,-MMD,$(dirname "$obj")\/.$(basename "$obj").d/}
	cmd=${cmd/-nostdinc/-nostdinc -I$dir/am/include -I$dir/am/include/uapi}
	cmd=${cmd/-o $obj /-o $dir/obj.o }
	cmd=${cmd/$TREE_DIR\/$f/$dir/am/$f}
	(cd "$build" && eval "$cmd")
}
user_cc() {
	gcc -std=gnu11 -D_GNU_SOURCE -isystem "$dir/am/include/uapi" -isystem "$HEADERS_DIR/include" "$@"
}
# kernel_doc FILE: its kernel-doc warnings, without file names and lines
kernel_doc() { "$TREE_DIR/scripts/kernel-doc" -none -Wall "$1" 2>&1 | sed 's/^[^ ]*: warning: //'; }
uapi_check() {
	local new
	new=$(comm -13 <(kernel_doc "$pristine/$1" | sort) <(kernel_doc "$dir/am/$1" | sort))
	[ -z "$new" ] || { echo "new kernel-doc warnings: $new"; return 1; }
	printf '#include <%s>\nint main(void) { return 0; }\n' "${1#include/uapi/}" >"$dir/uapi.c"
	user_cc -Wall -Wextra -Werror -o "$dir/uapi" "$dir/uapi.c"
}
rst_example() {
	awk '/^Example$/ { ex = 1 } ex && /^\.\. code-block:: c/ { on = 1; next }
		on && /^        / { sub(/^        /, ""); print; next } on && /^$/ { print; next } on { exit }' \
		"$dir/am/$1" >"$dir/example.c"
	grep -q 'int main' "$dir/example.c" || { echo "no example program in $1"; return 1; }
	user_cc -Wall -Wextra -Werror -o "$dir/example" "$dir/example.c"
}
build_touched() {
	local f
	for f in "${files[@]}"; do
		[ -f "$dir/am/$f" ] || continue
		case $f in
		tools/testing/selftests/*.c)
			check "builds-alone/$1/$f" user_cc -O2 -Wall -Werror -static \
				-I"$TREE_DIR/$(dirname "$f")" -o "$dir/selftest" "$dir/am/$f" ;;
		*.c) check "builds-alone/$1/$f" kbuild_compile "$f" ;;
		include/uapi/*.h) check "builds-alone/$1/$f" uapi_check "$f" ;;
		Documentation/*.rst) grep -q '^Example$' "$dir/am/$f" && check "builds-alone/$1/$f" rst_example "$f" ;;
		esac
	done
}

# checkpatch cannot look the Fixes: ids up in Debian's tree (not a git
# repository), so UNKNOWN_COMMIT_ID is left out; the ids were checked
# against the upstream history when the tags were written. So is
# FILE_PATH_CHANGES ("does MAINTAINERS need updating?"), which every patch
# adding a file gets unless it also edits MAINTAINERS: the series updates
# MAINTAINERS in a patch of its own, as maintainers ask.
for p in "${patches[@]}"; do
	if out=$(cd "$TREE_DIR" && scripts/checkpatch.pl --strict --quiet --ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES "$series_dir/$p" 2>&1) && [ -z "$out" ]; then
		pass "checkpatch/$p"
	else
		fail "checkpatch/$p" "$(head -n 3 <<<"$out" | tr '\n' ' ')"
	fi
	if out=$(git_am am -q "$series_dir/$p" 2>&1); then
		pass "git-am/$p"
		build_touched "$p"
	else
		git_am am --abort >/dev/null 2>&1 || true
		fail "git-am/$p" "$(head -n 2 <<<"$out" | tr '\n' ' ')"
	fi
	check "patch-p1/$p" patch -d "$dir/patch" -p1 --forward --batch --quiet -i "$series_dir/$p"
done

# The cover letter (git format-patch --cover-letter --base): [PATCH 0/N],
# no template text left, every patch's subject, and the base commit.
check_cover() {
	local c=$series_dir/$cover p subject
	[ -f "$c" ] || { echo "no $cover"; return 1; }
	grep -q "^Subject: \[PATCH 0/${#patches[@]}\] " "$c" || { echo "no 'Subject: [PATCH 0/${#patches[@]}]'"; return 1; }
	! grep -q '\*\*\*' "$c" || { echo "template text left: $(grep -m1 '\*\*\*' "$c")"; return 1; }
	grep -q '^base-commit: [0-9a-f]\{40\}$' "$c" || { echo "no base-commit line"; return 1; }
	while IFS= read -r subject; do
		grep -qxF "  $subject" "$c" || { echo "'$subject' is not in its list"; return 1; }
	done < <(git_am log --reverse --format=%s "HEAD~${#patches[@]}..HEAD")
}
check cover-letter check_cover

# Both ways give the same files, and the cached tree (built by vm/kernel.sh)
# has exactly them.
differ=()
for f in "${files[@]}"; do
	cmp -s "$dir/am/$f" "$dir/patch/$f" || differ+=("$f")
done
expect_eq git-am-equals-patch "" "${differ[*]}"
differ=()
for f in "${files[@]}"; do
	cmp -s "$dir/am/$f" "$TREE_DIR/$f" || differ+=("$f")
done
expect_eq cached-tree-is-patched "" "${differ[*]}"
