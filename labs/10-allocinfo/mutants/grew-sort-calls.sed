# SPDX-License-Identifier: MIT
# The site that grew most in calls taken (allocinfo -s calls), as if the
# site with the most kmalloc() calls leaked most: leak_sites' 512-byte
# site makes more calls than the leader, for fewer bytes (blind).
# want: step-2-grew: .* is the site with the most calls .*func:leak_small.*not the most bytes
/TODO 2:/,/END TODO 2/s/allocinfo -n 0 diff/allocinfo -s calls -n 0 diff/
