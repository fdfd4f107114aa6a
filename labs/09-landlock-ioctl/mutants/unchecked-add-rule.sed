# SPDX-License-Identifier: MIT
# Neither open("/") nor landlock_add_rule() checked (blind): harmless while
# both work; when open() fails, the rule is refused and the process
# restricts itself with a ruleset that denies everything.
# want: step-5-add-rule-fails: with at most [0-9]+ file descriptors .*landlock_add_rule\(\) returned EBADF and ./sandbox still called landlock_restrict_self
/TODO 3:/,/END TODO 3/{/if (rule.parent_fd < 0)/d;/die("%s", path);/d;s/^\tif (sys_landlock_add_rule(/\tsys_landlock_add_rule(/;s/^\t\t\t\t  0))$/\t\t\t\t  0);/;/die("landlock_add_rule for %s", path);/d}
