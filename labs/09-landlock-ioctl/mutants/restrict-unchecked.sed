# SPDX-License-Identifier: MIT
# landlock_restrict_self()'s result ignored (blind): "sandboxed | ok" even
# when the kernel refused the sandbox.
# want: step-6-restrict-fails: .*landlock_restrict_self\(\) returned E2BIG .*, but it printed 'sandboxed \| ok \|'
/TODO 3:/,/END TODO 3/s/^\trc = sys_landlock_restrict_self(ruleset, 0);/\tsys_landlock_restrict_self(ruleset, 0);\n\trc = 0;/
