# SPDX-License-Identifier: MIT
# PR_SET_NO_NEW_PRIVS never set: fine as root, EPERM for anyone else.
# want: step-2-ioctl-denied: landlock_restrict_self\(\) is EPERM .*PR_SET_NO_NEW_PRIVS
/TODO 3:/,/END TODO 3/{/if (prctl(PR_SET_NO_NEW_PRIVS/,/die("prctl/d}
