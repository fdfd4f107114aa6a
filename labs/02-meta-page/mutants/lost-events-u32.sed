# SPDX-License-Identifier: MIT
# reader.lost_events printed through unsigned int (%u, as the __u32 fields
# around it): a count above 2^32 - 1 prints its low 32 bits (a blind
# learner's mistake).
# want: step-2-fields: on a copy of the meta-page whose reader.lost_events is [0-9]+ .*it printed [0-9]+, the count's low 32 bits
/TODO 2:/,/END TODO 2/{
s/reader\.lost_events %llu/reader.lost_events %u/
s/(unsigned long long)meta->reader\.lost_events/(unsigned int)meta->reader.lost_events/
}
