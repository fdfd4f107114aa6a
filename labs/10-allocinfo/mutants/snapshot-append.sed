# SPDX-License-Identifier: MIT
# The snapshot appended to FILE (>>): a FILE that existed then holds two
# tables, every site twice (blind).
# want: step-1-snapshot: .* existed and now holds 2 tables: overwrite FILE
/TODO 1:/,/END TODO 1/s|cat /proc/allocinfo >"\$2"|cat /proc/allocinfo >>"$2"|
