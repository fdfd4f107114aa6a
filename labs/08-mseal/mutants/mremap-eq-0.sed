# SPDX-License-Identifier: MIT
# mremap() rows test == 0 (blind): mremap() returns an address when it
# succeeds, so such a row can only say refused; right on the sealed p, wrong
# on other, whose shrink goes through.
# want: step-3-blocked: mremap shrink other \(not sealed\): the call went through .* not 0: test != MAP_FAILED
/TODO 3:/,/END TODO 3/{
/mremap(/,/MAP_FAILED/s/ != MAP_FAILED/ == 0/
}
