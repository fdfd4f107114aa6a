# SPDX-License-Identifier: MIT
# entries printed as entries - overrun - read, the events waiting (blind w10).
# want: step-2-fields: entries is every event written
/TODO 2:/,/END TODO 2/s/(unsigned long long)meta->entries);/(unsigned long long)(meta->entries - meta->overrun - meta->read));/
