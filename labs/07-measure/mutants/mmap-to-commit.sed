# SPDX-License-Identifier: MIT
# Each call's sub-buffer is counted up to its commit, past reader.read
# (blind): the call that hands over what it counted ahead looks like
# nothing new, and the drain ends with an event left.
# want: step-2-mmap: third drain, of CPU [0-9]+ while the writer adds .*: it counted the [0-9]+ events GET_READER handed over, but stopped with [0-9]+ left in the buffer: .*or it counted past reader.read, up to the sub-buffer's commit
/TODO 2:/,/END TODO 2/{s/^\t\t      m.meta->reader.read);$/\t\t      lab_commit(lab_subbuf(\&m, id), m.meta->subbuf_size));/;s/^\t\tpos = m.meta->reader.read;$/\t\tpos = lab_commit(lab_subbuf(\&m, id), m.meta->subbuf_size);/}
