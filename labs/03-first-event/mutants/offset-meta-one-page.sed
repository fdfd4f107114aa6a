# SPDX-License-Identifier: MIT
# The 6.10 rule hard-coded: the meta-page taken as one 4096-byte page, not
# meta_page_size (6.12 pads it to a sub-buffer). Right with 4 KiB
# sub-buffers only (blind solution w01).
# want: step-1-address: the meta-page is meta_page_size bytes \(since 6.12 a whole sub-buffer\), not one 4096-byte page
s/offset = meta->meta_page_size +/offset = 4096 +/
