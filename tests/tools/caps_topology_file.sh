#!/bin/bash
# softdoca-caps shows what a SOFTDOCA_TOPOLOGY file describes (docs/topology.md),
# and explains a file that is refused.
. "$(dirname "$0")/lib.sh"
CAPS=$1

cat >"$TMP/topo.ini" <<'INI'
[device 03:00.0]
side = dpu
dma_max_buf_size = 1M
dma_max_list_len = 4

[rep b1:00.0]
[rep b1:00.2]
func_type = vf
[rep b1:00.3]
func_type = vf
hotplug = yes
kind = emulated

[device b1:00.0]
side = host

[device 0000:82:00.0]
side = host
profile = cx7
ipv4 = 192.168.100.7
INI
export SOFTDOCA_TOPOLOGY=$TMP/topo.ini
run all 0 "$CAPS"
[ "$(grep -c '^PCI: ' "$TMP/all.out")" = 3 ] || fail "expected three devices"
dpu=$(block all "PCI: 0000:03:00.0")
cx7=$(block all "PCI: 0000:82:00.0")
kv "$dpu" max_buf_size 1048576
kv "$dpu" max_buf_list_len 4
kv "$dpu" representors 3
kv "$dpu" rep_filter_emulated supported
printf '%s\n' "$dpu" | grep -q $'^\tRepresentor PCI: 0000:b1:00.3$' || fail "representor b1:00.3 missing"
rep3=$(printf '%s\n' "$dpu" | awk '/Representor PCI: 0000:b1:00.3/ {on = 1; next} /Representor PCI/ {on = 0} on')
kv "$rep3" pci_func_type VF
kv "$rep3" is_hotplug yes
kv "$rep3" kind emulated
kv "$rep3" iface_name pf0vf1
kv "$cx7" ipv4_addr 192.168.100.7
kv "$cx7" side host
kv "$cx7" export_pci unsupported
kv "$cx7" create_from_export_pci unsupported
kv "$cx7" task_memcpy supported

run filter 0 "$CAPS" -p 82:00.0
[ "$(grep -c '^PCI: ' "$TMP/filter.out")" = 1 ] || fail "--pci-addr 82:00.0 should show one device"

printf '[device 03:00.0]\nside = dpu\ncolour = red\n' >"$TMP/bad.ini"
export SOFTDOCA_TOPOLOGY=$TMP/bad.ini
run refused 2 "$CAPS"
has refused err "cannot list the devices: DOCA_ERROR_NOT_FOUND"
has refused err "bad\.ini.*line 3: unknown key 'colour'"
hasnt refused out "^PCI:"
finish
