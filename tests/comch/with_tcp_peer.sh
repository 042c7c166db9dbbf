#!/usr/bin/env bash
# with_tcp_peer.sh PROGRAM [ARGS...] - run a Comch test over TCP: both
# sides in this process (or its children) meet on the loopback address, at
# a port nobody else uses right now (so parallel runs never share one).
set -euo pipefail
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export SOFTDOCA_PEER=127.0.0.1:$port
echo "Comch over TCP: SOFTDOCA_PEER=$SOFTDOCA_PEER"
exec "$@"
