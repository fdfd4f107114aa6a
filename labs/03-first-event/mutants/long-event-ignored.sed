# SPDX-License-Identifier: MIT
# Only type_len 1..28 handled: an event with a payload over 112 bytes
# (type_len 0) is taken for one without data (blind solution w09).
# want: step-3-event-header: type_len 0 \(a payload over 112 bytes, as here\): the length is in array\[0\]
s/if (type_len == 0) {/if (0) {/
s/} else if (type_len <= 28) {/} else if (type_len >= 1 \&\& type_len <= 28) {/
