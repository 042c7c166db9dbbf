# bench/allowed-cpus.sh - sourced by the bench scripts: the CPUs this
# process may use, in order, into the array `cpus` (from the kernel's
# Cpus_allowed_list, e.g. "0-3,8").
cpus=()
IFS=, read -ra _cpu_ranges <<<"$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)"
for _r in "${_cpu_ranges[@]}"; do
	for ((_c = ${_r%-*}; _c <= ${_r#*-}; _c++)); do cpus+=("$_c"); done
done
unset _cpu_ranges _r _c
