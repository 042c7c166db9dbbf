#!/usr/bin/env bash
# with_tcp_peer.sh PROGRAM [ARGS...] - run a Comch test over TCP: both
# sides in this process (or its children) meet on the loopback address, at
# a port nobody else uses right now (so parallel runs never share one).
set -euo pipefail
# The port comes from below the kernel's ephemeral range: a port the kernel
# handed out (bind to port 0) can be given again, before our server binds it,
# as the local port of any outgoing connection of a test running beside us.
port=$(python3 - <<'PY'
import random, socket
low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
for _ in range(200):
    p = random.randrange(10000, max(low, 10001))
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", p))
    except OSError:
        continue
    finally:
        s.close()
    print(p)
    break
PY
)
[ -n "$port" ] || { echo "with_tcp_peer.sh: no free port below the ephemeral range" >&2; exit 1; }
export SOFTDOCA_PEER=127.0.0.1:$port
echo "Comch over TCP: SOFTDOCA_PEER=$SOFTDOCA_PEER"
exec "$@"
