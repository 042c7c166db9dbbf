#!/bin/bash
# softdoca-caps: usage errors exit 1 with a message; --help and -v exit 0.
. "$(dirname "$0")/lib.sh"
CAPS=$1

run unknown_long 1 "$CAPS" --bogus
has unknown_long err "unknown option '--bogus'"
hasnt unknown_long out "PCI:"
run unknown_short 1 "$CAPS" -x
has unknown_short err "unknown option"
run missing_arg 1 "$CAPS" --pci-addr
has missing_arg err "needs an argument"
run positional 1 "$CAPS" extra
has positional err "unexpected argument 'extra'"
for bad in 1:2 03:00 0000:03:00.8 03:20.0 00000:03:00.0 03:00.0x "" zz:00.0; do
	run "bad_pci_$bad" 1 "$CAPS" --pci-addr "$bad"
	has "bad_pci_$bad" err "is not a PCI address"
done
run no_such_device 2 "$CAPS" --pci-addr 05:00.0
has no_such_device err "no device with PCI address 05:00.0"

run help 0 "$CAPS" --help
has help out "^Usage: softdoca-caps"
has help out "--list-rep-devs"
run help_short 0 "$CAPS" -h
has help_short out "^Usage: softdoca-caps"
# An installed program points at its manual page and documentation, not at a README it does not ship with.
has help out "man softdoca-caps"
has help out "/share/doc/softdoca/docs/topology.md"
hasnt help out "README"

run version 0 "$CAPS" -v
# one version everywhere: the source tree's VERSION file (docs/versions.md)
v=$(sed 's/\./\\./g' "$(dirname "$0")/../../VERSION")
has version out "^softdoca-caps \(softdoca $v\)$"
has version out "^DOCA API level $v \(headers\), $v \(libdoca_common at run time\)$"
finish
