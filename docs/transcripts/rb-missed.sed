# On the counter clock, stats prints raw counter values, which depend on
# everything traced since boot.
s/^(oldest event ts|now ts):.*/\1: <COUNTER>/
