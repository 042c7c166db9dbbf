#!/bin/bash
# softdoca-caps against the built-in topology: both devices, every attribute,
# the representor and the library capabilities, in the documented key/value form.
. "$(dirname "$0")/lib.sh"
CAPS=$1
unset SOFTDOCA_TOPOLOGY

run all 0 "$CAPS"
[ "$(grep -c '^PCI: ' "$TMP/all.out")" = 2 ] || fail "expected two devices"
dpu=$(block all "PCI: 0000:03:00.0")
host=$(block all "PCI: 0000:b1:00.0")

kv "$dpu" ibdev_name mlx5_0
kv "$dpu" iface_name p0
kv "$dpu" mac_addr 02:00:00:00:00:01
kv "$dpu" ipv4_addr none
kv "$dpu" ipv6_addr none
kv "$dpu" vhca_id 0
kv "$dpu" active_rate "100 Gb/s"
kv "$dpu" side dpu
kv "$dpu" rep_filter_all supported
kv "$dpu" rep_filter_net supported
kv "$dpu" rep_filter_emulated unsupported
kv "$dpu" hotplug_manager unsupported
kv "$dpu" representors 1
printf '%s\n' "$dpu" | grep -q $'^\tRepresentor PCI: 0000:b1:00.0$' || fail "representor b1:00.0 not listed under 03:00.0"
kv "$dpu" vuid SD0000000001PF0
kv "$dpu" iface_name pf0hpf
kv "$dpu" pci_func_type PF
kv "$dpu" is_hotplug no
kv "$dpu" kind net
kv "$dpu" num_completion_vectors 1
kv "$dpu" task_memcpy supported
kv "$dpu" max_buf_size 2147483648
kv "$dpu" max_buf_list_len 64
kv "$dpu" max_num_tasks 65536
kv "$dpu" export_pci supported
kv "$dpu" create_from_export_pci supported
printf '%s\n' "$dpu" | grep -q $'^\tdma:$' || fail "no dma: section"
printf '%s\n' "$dpu" | grep -q $'^\tmmap:$' || fail "no mmap: section"

kv "$host" ibdev_name mlx5_1
kv "$host" iface_name enp177s0f0np0
kv "$host" mac_addr 02:00:00:00:00:02
kv "$host" vhca_id 1
kv "$host" side host
kv "$host" rep_filter_all unsupported
kv "$host" representors "none \(host-side device\)"
kv "$host" task_memcpy supported

# Comch: the capabilities when the library is there, one line saying so when not.
if grep -q $'^\tcomch: library not present$' "$TMP/all.out"; then
	run libs 0 "$CAPS" --list-libs
	has libs out $'^\tcomch +not present$'
else
	kv "$dpu" server supported
	kv "$dpu" client unsupported
	kv "$dpu" max_msg_size 4080
	kv "$host" server unsupported
	kv "$host" client supported
	kv "$host" max_send_tasks 8192
fi

run libs 0 "$CAPS" --list-libs
has libs out "^Libraries:$"
has libs out $'^\tcommon +present \\(.*libdoca_common\\.so'
has libs out $'^\tdma +present \\(.*libdoca_dma\\.so'
# Every library the same way: a full path, whether it was linked or opened at run time.
[ "$(grep -Ec $'^\t(common|dma|argp|comch) +(present \\(/[^)]*/libdoca_[a-z]+\\.so[.0-9]*\\)|not present)$' "$TMP/libs.out")" = 4 ] ||
	fail "library lines are not all 'present (<full path>)' or 'not present': $(cat "$TMP/libs.out")"
hasnt libs out "^PCI:"

run devs 0 "$CAPS" --list-devs
has devs out "^PCI: 0000:03:00.0$"
has devs out $'^\tibdev_name +mlx5_1$'
hasnt devs out "Representor PCI"
hasnt devs out "task_memcpy"

run reps 0 "$CAPS" --list-rep-devs
has reps out $'^\tRepresentor PCI: 0000:b1:00.0$'
hasnt reps out "ibdev_name"
hasnt reps out "task_memcpy"
# A successful run logs nothing.
[ -s "$TMP/all.err" ] && fail "stderr not empty: $(head -3 "$TMP/all.err")"
finish
