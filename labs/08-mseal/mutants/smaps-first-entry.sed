# SPDX-License-Identifier: MIT
# The first VmFlags line of smaps is read, whichever mapping it belongs to.
# want: step-2-smaps: the VmFlags line of p's entry
/TODO 2:/,/END TODO 2/s/if (strchr(line, '-') && !strncmp(line, start, strlen(start)))/if (strchr(line, '-'))/
