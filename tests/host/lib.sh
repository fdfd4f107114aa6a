# SPDX-License-Identifier: MIT
# What the host tests share; tests/host/run.sh runs them from the repository
# root, each starting with
#   . tests/host/lib.sh
# which gives it
#   set -euo pipefail, the working directory at the repository root
#   SUITE       its name (run.sh sets it; else the script's name)
#   WORK_DIR    $OUT_DIR/host/$SUITE, emptied, for the test's files
#   pass, fail, skip, result, check, expect_eq, expect_ge, expect_match,
#   run_checked, tap_results, run_tap (tests/results.sh)
#   build_c, check_build (below: the project's compiler and flags)
#   EXAMPLES, build_examples (below: the examples as make examples builds them)
#   guest_initramfs (below: a guest of the test's own, for vm/run.sh)
# Scripts that are not tests (tests/fuzz/run.sh, tests/bench/decoder.sh)
# source it for build_c; WORK_DIR is made only for a *.test.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. tests/results.sh
OUT_DIR=${OUT_DIR:-_build}
SUITE=${SUITE:-$(basename "$0" .test.sh)}
case $0 in
*.test.sh)
	WORK_DIR=$OUT_DIR/host/$SUITE
	rm -rf "$WORK_DIR" && mkdir -p "$WORK_DIR"
	;;
esac

# build_c OUT [--lib] ARG...: compile ARG... (sources, extra flags, -l
# libraries) into the program OUT with the project's compiler and flags
# (examples/build.mk; CC, CFLAGS, UAPI and STATIC in the environment work as
# they do there), and with --lib linked with the library's archive, built
# first for these flags. The compiler's messages go to OUT.log; the exit
# status is the compiler's (1 when the library does not build).
build_c() {
	local out=$1 vars BUILD_CC BUILD_CFLAGS BUILD_LDFLAGS BUILD_LIB BUILD_DEPS lib=()
	shift
	vars=$(make -s --no-print-directory -f examples/build.mk print-sh 2>&1) || {
		printf 'the library does not build (examples/build.mk):\n%s\n' "$vars" >"$out.log"
		return 1
	}
	eval "$vars"
	if [ "${1:-}" = --lib ]; then
		lib=("${BUILD_LIB[@]}")
		shift
	fi
	"$BUILD_CC" "${BUILD_CFLAGS[@]}" -o "$out" "$@" "${lib[@]}" "${BUILD_LDFLAGS[@]}" >"$out.log" 2>&1
}

# check_build NAME OUT [--lib] ARG...: build_c, then PASS NAME, or FAIL NAME
# with the compiler's first lines; returns build_c's status, so a test that
# needs the program can end with: check_build ... || exit 0
check_build() {
	local name=$1
	shift
	if build_c "$@"; then
		pass "$name"
	else
		fail "$name" "$(head -n 3 "$1.log")"
		return 1
	fi
}

# The examples built for this machine, as "make examples" builds them, and
# shared by the tests: made once, then again only when a source changes.
EXAMPLES=$OUT_DIR/host/examples
# build_examples NAME [PROGRAM...]: make the examples (or these programs)
# in EXAMPLES; PASS NAME, or FAIL NAME with the first lines of make's
# messages and status 1.
build_examples() {
	local name=$1 log
	shift
	log=$WORK_DIR/examples.log
	if make -s -C examples O="$PWD/$EXAMPLES" "${@/#/$PWD/$EXAMPLES/}" >"$log" 2>&1; then
		pass "$name"
	else
		fail "$name" "$(head -n 3 "$log")"
		return 1
	fi
}

# guest_initramfs ROOT: set INITRAMFS to an initramfs of the base guest
# (busybox, vm/init, modules) plus the staging folder ROOT, for tests that
# boot a guest of their own with vm/run.sh; on failure FAIL initramfs and
# status 1, so a test can go on with: guest_initramfs "$root" || exit 0
guest_initramfs() {
	if ! INITRAMFS=$(vm/initramfs.sh "$1" 2>"$WORK_DIR/initramfs.log"); then
		fail initramfs "$(tail -n 2 "$WORK_DIR/initramfs.log")"
		return 1
	fi
}
