# SPDX-License-Identifier: MIT
# The second marker may come after a time extend (8 more bytes) when the
# guest is slow: its reader.read and commit vary.
/^second /s/reader\.read [0-9]+ commit [0-9]+/reader.read <N> commit <N>/
