#!/bin/bash
# softdoca-bench --mem remote: the source lives in a companion process that
# exports it; DMA imports it, process_vm_readv reads it, every byte verified.
# Where the cross-process engine is missing the bench says so with status 3.
. "$(dirname "$0")/lib.sh"
BENCH=$1

"$BENCH" --mem remote --verify --sizes 64,64K --tasks 300 >"$TMP/remote.out" 2>"$TMP/remote.err"
rc=$?
case $rc in
0)
	has remote out "source exported by pid [0-9]+ on 0000:"
	has remote out "^64 B +dma +1 "
	has remote out "^64 KiB +dma +1 "
	has remote out "^64 KiB +pvr +1 "
	hasnt remote out "FAILED"
	hasnt remote out "^Targets"
	;;
3)
	has remote err "needs the cross-process engine"
	;;
*)
	fail "exit status $rc"
	cat "$TMP/remote.out" "$TMP/remote.err" >&2
	;;
esac
# A topology where nothing can export: the remote mode is not available here (3), and says why.
printf '[device 03:00.0]\nside = dpu\nmmap_export_pci = 0\n' >"$TMP/noexport.ini"
run noexport 3 env SOFTDOCA_TOPOLOGY="$TMP/noexport.ini" "$BENCH" --mem remote --tasks 10
has noexport err "needs a device that exports memory over PCI"
hasnt noexport out "jobs/s"
# No companion is left behind.
sleep 0.2
pgrep -P $$ softdoca-bench >/dev/null && fail "a companion process is still running"
finish
