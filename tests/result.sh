#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One result helper of tests/results.sh from the command line, for make's
# recipes (which cannot source it), e.g.
#   tests/result.sh vm fail guest-run "the guest run failed (exit 3)"
#   tests/result.sh SUITE HELPER NAME [ARG...]
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: tests/result.sh SUITE HELPER NAME [ARG...]" >&2; exit 2; }
SUITE=$1
shift
. "$(dirname "$0")/results.sh"
case $1 in
pass | fail | skip | check | expect_eq | expect_ge | expect_match | run_checked) "$@" ;;
*) echo "tests/result.sh: no result helper '$1'" >&2; exit 2 ;;
esac
