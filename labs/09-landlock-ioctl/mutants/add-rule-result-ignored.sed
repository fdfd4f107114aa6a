# SPDX-License-Identifier: MIT
# open(PATH) checked, landlock_add_rule()'s result ignored (blind): harmless
# while the rule is accepted; for a PATH the kernel refuses (a regular file,
# given directory rights: EINVAL) the process restricts itself with a
# ruleset that denies everything.
# want: step-5-add-rule-fails: with PATH /tmp/lab09-file[0-9]+, a regular file, .*landlock_add_rule\(\) returned EINVAL and ./sandbox still called landlock_restrict_self
/TODO 3:/,/END TODO 3/{s/^\tif (sys_landlock_add_rule(/\tsys_landlock_add_rule(/;s/^\t\t\t\t  0))$/\t\t\t\t  0);/;/die("landlock_add_rule for %s", path);/d}
