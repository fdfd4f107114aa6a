# Kernel allocation sites change their counters and order from run to run:
# keep only that such lines are there; alloc_leak lines stay exact.
/alloc_leak|^\$|bytes|allocinfo -|<size>/!s/^ *[-+]?[0-9].*$/<kernel site>/
