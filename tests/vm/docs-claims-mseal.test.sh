#!/bin/sh
# SPDX-License-Identifier: MIT
# The mseal chapter's claims that mseal_demo's table does not show
# (MADV_REMOVE), from tests/vm/docs_claims_mseal.c.
. "$(dirname "$0")/guest-lib.sh"
run_tap docs_claims_mseal docs_claims_mseal
