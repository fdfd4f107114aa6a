# SPDX-License-Identifier: MIT
# The unload lines matched on ' module NAME' alone: those of a module
# whose name starts with NAME (leak_sites_many), unloaded at the same
# time, are added in (blind).
# want: step-4-unload: that adds the [0-9]* bytes of leak_sites_many, unloaded at the same time
/TODO 4:/,/END TODO 4/s/-v mod=" module \$2 func:"/-v mod=" module $2"/
