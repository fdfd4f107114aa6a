# SPDX-License-Identifier: MIT
# landlock_add_rule()'s result ignored, and the rule grants a right the
# ruleset does not handle (EINVAL): the sandbox denies everything.
# want: step-2-ioctl-denied: landlock_add_rule\(\) returned EINVAL and ./sandbox still called landlock_restrict_self
/TODO 3:/,/END TODO 3/{/die("landlock_add_rule for %s", path);/d;s/\.allowed_access = handled & ~LANDLOCK_ACCESS_FS_IOCTL_DEV,/.allowed_access = (handled \& ~LANDLOCK_ACCESS_FS_IOCTL_DEV) | (1ULL << 40),/;s/^\tif (sys_landlock_add_rule(/\t(void)sys_landlock_add_rule(/;s/^\t\t\t\t  0))$/\t\t\t\t  0);/}
