# netns_lib.sh - what the two-namespace tests share (sourced).
#
# Environment (set by tests/netns/meson.build):
#   ROOT        the source tree
#   XPROC_PEER  tests/xproc/xproc_peer (the exporting side)
#   NETNS_DMA   tests/netns/netns_dma (the importing side)
#   SD_UCX_MODULE  the built UCX transport, or "none"
#
# A test that cannot run here (not root, no namespaces, no UCX) exits 77,
# which meson counts as skipped, never as passed.

. "$ROOT/tools/netns-pair.sh"

WORK=""

nl_skip() {
	echo "SKIP: $*"
	exit 77
}

nl_fail() {
	echo "FAIL: $*"
	exit 1
}

nl_cleanup() {
	exec 7>&- 2>/dev/null
	netns_pair_down
	[ -n "$WORK" ] && rm -rf "$WORK"
	return 0
}

# nl_setup TAG - check capabilities, create the pair and a scratch folder.
nl_setup() {
	if [ "${SD_UCX_MODULE:-none}" = none ] || [ ! -f "$SD_UCX_MODULE" ]; then
		nl_skip "softdoca was built without the UCX transport (-Ducx)"
	fi
	netns_pair_usable || nl_skip "$NETNS_WHY"
	netns_pair_up "$1" || nl_fail "$NETNS_WHY"
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/softdoca-netns.XXXXXX") || nl_fail "no scratch folder"
	trap nl_cleanup EXIT
	trap 'nl_cleanup; exit 130' INT TERM
}

# nl_export NS PEER_ADDR PCI SIZE SEED [PERM] - start xproc_peer exporting in NS,
# told that the other side runs at PEER_ADDR.  Sets EXP_PID (its unshare),
# EXP_ADDR, EXP_LEN; commands go to fd 7, replies to $WORK/exp.out.
nl_export() {
	local ns=$1 peer=$2 pci=$3 size=$4 seed=$5 perm=${6:-rw}
	mkfifo "$WORK/exp.in"
	: >"$WORK/exp.out"
	# exec all the way down: $! is then unshare itself, whose death kills the exporter.
	(exec env SOFTDOCA_PEER="$peer" ip netns exec "$ns" unshare --pid --fork --mount-proc --kill-child \
		"$XPROC_PEER" export --mem heap --perm "$perm" --dev "$pci" --size "$size" --seed "$seed" \
		--desc "$WORK/desc" <"$WORK/exp.in" >"$WORK/exp.out" 2>"$WORK/exp.err") &
	EXP_PID=$!
	exec 7>"$WORK/exp.in"
	local i
	for i in $(seq 1 200); do
		grep -q '^ready ' "$WORK/exp.out" && break
		nl_replies | grep -q failed && break
		sleep 0.05
	done
	read -r word EXP_ADDR EXP_LEN _ < <(grep "^ready " "$WORK/exp.out") || true
	[ "${word:-}" = ready ] || nl_fail "exporter did not start: $(cat "$WORK/exp.out" "$WORK/exp.err")"
}

# nl_cmd CMD - one command to the exporter; prints its reply line.
nl_cmd() {
	local before after i
	before=$(nl_replies | wc -l)
	echo "$1" >&7
	for i in $(seq 1 200); do
		after=$(nl_replies | wc -l)
		[ "$after" -gt "$before" ] && break
		sleep 0.05
	done
	nl_replies | sed -n "$((before + 1))p"
}

# The exporter's replies: its stdout without UCX's own log lines, which UCX
# writes to stdout too (a "failed to connect" WARN of a path UCX tried and
# dropped would otherwise be read as the reply to a command).
nl_replies() {
	grep -v '^\[[0-9.]*\] *\[[^]]*\] .* UCX  [A-Z]' "$WORK/exp.out"
}

# nl_import NS ARGS... - run netns_dma in NS on the descriptor; its output in $OUT.
nl_import() {
	local ns=$1
	shift
	OUT=$(timeout 60 env SOFTDOCA_SDK_LOG=warning "${IMPORT_ENV[@]}" ip netns exec "$ns" unshare --pid --fork --mount-proc --kill-child \
		"$NETNS_DMA" --desc "$WORK/desc" --addr "$EXP_ADDR" --len "$EXP_LEN" "$@" 2>"$WORK/imp.err")
	local rc=$?
	echo "importer: $OUT (exit $rc)"
	return $rc
}

IMPORT_ENV=()

# nl_await_running OUT ERR - wait (up to 20 s) until a side running the
# "stream" operation printed "running" into OUT; fail with OUT and ERR if not.
nl_await_running() {
	for _ in $(seq 1 400); do
		grep -q running "$1" && return 0
		sleep 0.05
	done
	nl_fail "the stream never ran: $(cat "$1" "$2")"
}

# nl_stream_failed_within TEXT ERROR BOUND_MS - the stream's outcome line in
# TEXT says its task failed with ERROR, within BOUND_MS of the last success.
nl_stream_failed_within() {
	local line after
	line=$(grep -E '^(failed|nofail)' <<<"$1")
	case "$line" in
	"failed $2 after_ms="*) ;;
	*) nl_fail "expected a task failing with $2, got: ${line:-nothing (hung?)}" ;;
	esac
	after=${line#*after_ms=}
	[ "$after" -le "$3" ] || nl_fail "the failure took ${after} ms (bound $3 ms)"
}
