# SPDX-License-Identifier: MIT
# watch never calls GET_READER: the meta-page is not refreshed.
# want: step-3-when-it-changes: only GET_READER refreshes.*line 3: got 'after-get-reader entries 0
/TODO 3:/,/END TODO 3/{/TODO 3/!d}
