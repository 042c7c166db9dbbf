# netns-pair.sh - two network namespaces joined by a veth pair, for running
# a host program and a DPU program as if in two containers.  Source it:
#
#   . tools/netns-pair.sh
#   netns_pair_usable || { echo "cannot: $NETNS_WHY"; exit 77; }
#   netns_pair_up demo          # sets NS_HOST NS_DPU ADDR_HOST ADDR_DPU DEV_HOST DEV_DPU
#   netns_run "$NS_DPU" env SOFTDOCA_PEER="$ADDR_HOST" ./dpu_program &
#   netns_run "$NS_HOST" env SOFTDOCA_PEER="$ADDR_DPU" ./host_program
#   netns_pair_down             # also runs at exit, on failure or interruption
#
# Needs root and iproute2.  Every address lives inside the two namespaces
# (10.214.0.1/30 on the host side, 10.214.0.2/30 on the DPU side, plus each
# namespace's loopback); nothing is added to the machine's own network
# namespace.  netns_run also gives the program a PID namespace of its own
# (unshare --pid --fork --mount-proc), so the two sides do not see each
# other's processes, and kills it when its unshare is killed.  Names carry
# the creating shell's pid; pairs left behind by a shell that died are
# removed by the next netns_pair_up.

NETNS_PREFIX=sdpair
NETNS_WHY=""
NS_HOST=""
NS_DPU=""
ADDR_HOST=10.214.0.1
ADDR_DPU=10.214.0.2
DEV_HOST=sdh0
DEV_DPU=sdd0

# netns_pair_usable - true when this shell can create namespace pairs;
# otherwise NETNS_WHY says why.
netns_pair_usable() {
	if [ "$(id -u)" -ne 0 ]; then
		NETNS_WHY="not root (network namespaces need CAP_SYS_ADMIN)"
		return 1
	fi
	if ! command -v ip >/dev/null 2>&1 || ! command -v unshare >/dev/null 2>&1; then
		NETNS_WHY="ip (iproute2) or unshare (util-linux) is missing"
		return 1
	fi
	local probe="$NETNS_PREFIX-probe-$$"
	if ! ip netns add "$probe" 2>/dev/null; then
		NETNS_WHY="ip netns add is refused here (a container without CAP_SYS_ADMIN?)"
		return 1
	fi
	local ok=0
	ip netns exec "$probe" unshare --pid --fork --mount-proc true 2>/dev/null || ok=1
	ip netns del "$probe" 2>/dev/null
	if [ "$ok" -ne 0 ]; then
		NETNS_WHY="unshare --pid --mount-proc is refused here"
		return 1
	fi
	return 0
}

# Remove pairs whose creating shell is gone.
netns_pair_sweep() {
	local ns pid
	for ns in $(ip netns list 2>/dev/null | awk '{ print $1 }'); do
		case "$ns" in
		"$NETNS_PREFIX"-*-*-host | "$NETNS_PREFIX"-*-*-dpu) ;;
		*) continue ;;
		esac
		pid=${ns%-*}
		pid=${pid##*-}
		[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null && netns_del "$ns"
	done
}

# netns_del NS - kill what runs in NS (only our own programs run there), delete it.
netns_del() {
	local pids
	pids=$(ip netns pids "$1" 2>/dev/null)
	[ -n "$pids" ] && kill -KILL $pids 2>/dev/null
	ip netns del "$1" 2>/dev/null
	return 0
}

netns_pair_down() {
	[ -n "$NS_HOST" ] && netns_del "$NS_HOST"
	[ -n "$NS_DPU" ] && netns_del "$NS_DPU"
	NS_HOST=""
	NS_DPU=""
}

# netns_pair_up TAG - create the pair; false (and NETNS_WHY) on failure.
netns_pair_up() {
	local tag=${1:-pair}
	netns_pair_sweep
	NS_HOST="$NETNS_PREFIX-$tag-$$-host"
	NS_DPU="$NETNS_PREFIX-$tag-$$-dpu"
	trap netns_pair_down EXIT
	trap 'netns_pair_down; exit 130' INT TERM
	if ! ip netns add "$NS_HOST" || ! ip netns add "$NS_DPU" ||
		! ip -n "$NS_HOST" link add "$DEV_HOST" type veth peer name "$DEV_DPU" netns "$NS_DPU" ||
		! ip -n "$NS_HOST" addr add "$ADDR_HOST/30" dev "$DEV_HOST" ||
		! ip -n "$NS_DPU" addr add "$ADDR_DPU/30" dev "$DEV_DPU" ||
		! ip -n "$NS_HOST" link set lo up || ! ip -n "$NS_DPU" link set lo up ||
		! ip -n "$NS_HOST" link set "$DEV_HOST" up || ! ip -n "$NS_DPU" link set "$DEV_DPU" up; then
		NETNS_WHY="could not set up namespaces $NS_HOST and $NS_DPU"
		netns_pair_down
		return 1
	fi
	netns_link_wait || {
		NETNS_WHY="the veth pair of $NS_HOST and $NS_DPU did not come up"
		netns_pair_down
		return 1
	}
	return 0
}

# Wait (up to 5 s) until both ends are operationally up: the kernel reports a
# new link's carrier with a delay of up to a second, and UCX ignores an
# interface that is not running yet.
netns_link_wait() {
	local i
	for i in $(seq 1 100); do
		if ip -n "$NS_HOST" -o link show dev "$DEV_HOST" | grep -q 'state UP' &&
			ip -n "$NS_DPU" -o link show dev "$DEV_DPU" | grep -q 'state UP'; then
			return 0
		fi
		sleep 0.05
	done
	return 1
}

# netns_run NS CMD... - run CMD in NS, in a PID namespace of its own.
netns_run() {
	local ns=$1
	shift
	ip netns exec "$ns" unshare --pid --fork --mount-proc --kill-child "$@"
}

# netns_link DOWN|UP - cut or restore the link (from the DPU side).
netns_link() {
	case "$1" in
	down | DOWN) ip -n "$NS_DPU" link set "$DEV_DPU" down ;;
	*) ip -n "$NS_DPU" link set "$DEV_DPU" up && netns_link_wait ;;
	esac
}
