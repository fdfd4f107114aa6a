# The sub-buffer time stamp, event time deltas, PIDs and the kernel address
# of the trace_marker writer change from run to run. So do the padding bytes
# inside events: the kernel does not clear them, and they keep whatever an
# earlier event left in the page (zero only on a fresh buffer).
s/^0000000 [0-9a-f]{8} [0-9a-f]{8} /0000000 <TS-LO> <TS-HI> /
s/^0000016 00000007 00000005 [0-9a-f]{8} [0-9a-f]{8}$/0000016 00000007 00000005 <PID> <IP-LO>/
s/^0000032 [0-9a-f]{8} 6c6c6568 [0-9a-f]{4}0a6f [0-9a-f]{8}$/0000032 <IP-HI> 6c6c6568 <PAD>0a6f <PAD>/
s/^0000048 [0-9a-f]{8} 00000005 [0-9a-f]{8} [0-9a-f]{8}$/0000048 <HDR> 00000005 <PID> <IP-LO>/
s/^0000064 [0-9a-f]{8} /0000064 <IP-HI> /
s/^0000080 [0-9a-f]{6}00 [0-9a-f]{8} 0000007c 00000005$/0000080 <PAD>00 <HDR> 0000007c 00000005/
s/^0000096 [0-9a-f]{8} [0-9a-f]{8} [0-9a-f]{8} 78787878$/0000096 <PID> <IP-LO> <IP-HI> 78787878/
s/^0000208 [0-9a-f]{4}000a /0000208 <PAD>000a /
