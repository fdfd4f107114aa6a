# SPDX-License-Identifier: MIT
# Event formats: the ID taken from any line with "ID:" in it, not only the
# line that starts with "ID: ": a print fmt with "CPUID: %x" in it (x86's
# mce/mce_record) adds a second id line (a blind learner's mistake).
# want: step-3-event-format: with TRACEFS=.*print fmt has '[A-Z]*ID: %d' in it.*more than one id line
/TODO 3:/,/END TODO 3/s|s/^ID: \\(\[0-9\]\*\\)\$/id \\1/p|s/.*ID: *\\([0-9]*\\).*/id \\1/p|
