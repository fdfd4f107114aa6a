# SPDX-License-Identifier: MIT
# The unload lines of this rmmod added up whatever module they name:
# another module's, logged at the same time, is added in (blind).
# want: step-4-unload: that adds the [0-9]* bytes another module \(lab10_other\) logged
/TODO 4:/,/END TODO 4/s/index(\$0, mod) && \/ allocated at module unload\//\/ allocated at module unload\//
