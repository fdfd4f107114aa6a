# SPDX-License-Identifier: MIT
# TODO 5 ends the new bytes just past the first call's reader.read: one
# event at most, right only when one event was written between the calls
# (blind).
# want: step-4-partial: with [0-9]* events written between the two calls, not one.*decode up to the second's
/TODO 5:/,/END TODO 5/s/end = m.meta->reader.read;/end = m.meta->reader.id == id ? first_read + 1 : m.meta->reader.read;/
