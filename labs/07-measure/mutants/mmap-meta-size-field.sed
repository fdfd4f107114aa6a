# SPDX-License-Identifier: MIT
# count() is given the meta-page's size, meta_page_size, for the
# sub-buffer's (blind): the two are equal in 6.12's layout only; in
# 6.10's (LAB_LAYOUT_610=1) the meta-page is one page and the library
# refuses a commit past it.
# want: step-2-mmap: drain of CPU [0-9]+, which held [0-9]+ events \(with LAB_LAYOUT_610=1: 6.10's layout\): it printed: a sub-buffer whose commit runs past its end: .*not meta_page_size
/TODO 2:/,/END TODO 2/s/count(lab_subbuf(&m, id), m.meta->subbuf_size, pos,/count(lab_subbuf(\&m, id), m.meta->meta_page_size, pos,/
