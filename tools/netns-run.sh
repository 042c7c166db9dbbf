#!/usr/bin/env bash
# netns-run.sh NS CMD [ARGS...] - run CMD in network namespace NS and in a
# PID namespace of its own, as if in a container, and make it behave like
# an ordinary child of this script: its exit status is this script's, a
# SIGTERM/SIGINT/SIGHUP sent here ends it, and it dies when this script is
# SIGKILLed.  (unshare --fork ignores SIGTERM, and CMD, as PID 1 of its
# namespace, ignores every signal it has no handler for; timeout(1) and
# kill -9 of the script would otherwise leave it running.)  Needs root.
set -u
ns=${1:?usage: netns-run.sh NS CMD [ARGS...]}
shift
# stdin is given explicitly: a background job would otherwise read /dev/null.
setpriv --pdeathsig KILL ip netns exec "$ns" unshare --pid --fork --mount-proc --kill-child "$@" <&0 &
pid=$!
trap 'kill -KILL "$pid" 2>/dev/null' TERM INT HUP
wait "$pid"
rc=$?
if kill -0 "$pid" 2>/dev/null; then # a trapped signal cut the wait short
	wait "$pid"
	rc=$?
fi
exit "$rc"
