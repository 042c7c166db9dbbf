#!/bin/bash
# softdoca-caps --pci-addr: one device, whichever address form is given.
. "$(dirname "$0")/lib.sh"
CAPS=$1
unset SOFTDOCA_TOPOLOGY

for addr in b1:00.0 0000:b1:00.0 0000:B1:00.0 B1:0.0; do
	run "host_$addr" 0 "$CAPS" --pci-addr "$addr"
	[ "$(grep -c '^PCI: ' "$TMP/host_$addr.out")" = 1 ] || fail "$addr: expected one device"
	has "host_$addr" out "^PCI: 0000:b1:00.0$"
	hasnt "host_$addr" out "^PCI: 0000:03:00.0$"
done
run dpu_reps 0 "$CAPS" -r -p 03:00.0
has dpu_reps out "^PCI: 0000:03:00.0$"
has dpu_reps out "Representor PCI: 0000:b1:00.0"
hasnt dpu_reps out "^PCI: 0000:b1:00.0$"
run devs_host 0 "$CAPS" --list-devs --pci-addr b1:00.0
has devs_host out $'^\tside +host$'
hasnt devs_host out "dma:"
finish
