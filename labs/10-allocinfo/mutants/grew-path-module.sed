# SPDX-License-Identifier: MIT
# The module taken from the folder of the site's source file, not from
# its [module]: leak_sites_many's source is leak_sites/leak_sites_many.c
# (blind).
# want: step-2-grew: leak_sites is the folder of the site's source file
/TODO 2:/,/END TODO 2/s/module = substr(\$0, RSTART + 1, RLENGTH - 2)/split($5, p, "\/"); module = p[1]/
