# SPDX-License-Identifier: MIT
# The first site of the diff taken, module or not: the check grows a
# vmlinux site (tmpfs pages) more than the leak between the snapshots.
# want: step-2-grew: of the sites with a \[module\], alloc_leak's grew most
/TODO 2:/,/END TODO 2/s/awk 'NR > 1 \&\& match(\$0, \/\\\[\[^\]\]\*\\\]\/) {/awk 'NR == 2 { match($0, \/\\[[^]]*\\]\/)/
