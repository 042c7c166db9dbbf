#!/bin/bash
# doca_caps: DOCA's flags and DOCA's layout (library sections without a
# colon, no softdoca-only keys, "installed" in the library list); any other
# flag is refused by name.
. "$(dirname "$0")/lib.sh"
DOCA_CAPS=$1
unset SOFTDOCA_TOPOLOGY

run all 0 "$DOCA_CAPS"
[ "$(grep -c '^PCI: ' "$TMP/all.out")" = 2 ] || fail "expected two devices"
dpu=$(block all "PCI: 0000:03:00.0")
kv "$dpu" ibdev_name mlx5_0
kv "$dpu" max_buf_size 2147483648
kv "$dpu" task_memcpy supported
printf '%s\n' "$dpu" | grep -q $'^\tdma$' || fail "no 'dma' section header"
printf '%s\n' "$dpu" | grep -q $'^\tmmap$' || fail "no 'mmap' section header"
printf '%s\n' "$dpu" | grep -q $'^\tRepresentor PCI: 0000:b1:00.0$' || fail "representor not listed"
hasnt all out ':$'
hasnt all out $'^\t+(side|kind|representors) '
hasnt all out "not present"
[ -s "$TMP/all.err" ] && fail "stderr not empty: $(head -3 "$TMP/all.err")"

run libs 0 "$DOCA_CAPS" --list-libs
has libs out '^common +installed$'
has libs out '^dma +installed$'
hasnt libs out "Libraries:|present|/"

run devs 0 "$DOCA_CAPS" --list-devs --pci-addr b1:00.0
has devs out "^PCI: 0000:b1:00.0$"
hasnt devs out "^PCI: 0000:03:00.0$"
hasnt devs out "task_memcpy"

run reps 0 "$DOCA_CAPS" --list-rep-devs -p 03:00.0
has reps out $'^\tRepresentor PCI: 0000:b1:00.0$'
hasnt reps out "ibdev_name"

for flag in -d -l -r --check --json --list-loggers; do
	run "refuse$flag" 1 "$DOCA_CAPS" "$flag"
	has "refuse$flag" err "^doca_caps: flag '$flag' is not one that softdoca's doca_caps emulates$"
	has "refuse$flag" err "takes --list-devs, --list-rep-devs, --list-libs"
	hasnt "refuse$flag" out "PCI:"
done
run badpci 1 "$DOCA_CAPS" --pci-addr 3:00
has badpci err "'3:00' is not a PCI address"
run nodev 2 "$DOCA_CAPS" -p 05:00.0
has nodev err "^doca_caps: no device with PCI address 05:00.0$"

run version 0 "$DOCA_CAPS" --version
# one version everywhere: the source tree's VERSION file (docs/versions.md)
v=$(sed 's/\./\\./g' "$(dirname "$0")/../../VERSION")
has version out "^DOCA SDK     Version \(Compilation\): $v$"
has version out "^DOCA Runtime Version \(Runtime\):     $v$"
run help 0 "$DOCA_CAPS" -h
has help out "^Usage: doca_caps"
has help out "man doca_caps"
hasnt help out "README"
finish
