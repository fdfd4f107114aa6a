#!/bin/sh
# SPDX-License-Identifier: MIT
# The mseal chapter's claims that mseal_demo's table does not show
# (MADV_REMOVE), from tests/vm/docs_claims_mseal.c.
. "$(dirname "$0")/guest-lib.sh"
docs_claims_mseal 2>&1 | tap_results
