# SPDX-License-Identifier: MIT
# sl looked for in every VmFlags line of smaps (blind), not only in the entry
# that starts at the address asked about: p's seal shows for other too.
# want: step-2-smaps: smaps_sealed\(other\) said yes, but other is not sealed
/TODO 2:/,/END TODO 2/{
s/if (strchr(line, '-') \&\& !strncmp(line, start, strlen(start)))/if (strchr(line, '-'))/
s/else if (in \&\& !strncmp(line, "VmFlags:", 8))/else if (in \&\& !strncmp(line, "VmFlags:", 8) \&\& strstr(line, " sl"))/
}
