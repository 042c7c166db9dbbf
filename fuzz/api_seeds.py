#!/usr/bin/env python3
"""api_seeds.py DIR - write the hand-made seed programs of fuzz_api into DIR.

Each seed is a program in fuzz_api's input language (see fuzz_api.c): an
opcode byte, then its argument bytes.  The opcodes are read from the enum
in fuzz_api.c, so the seeds follow when operations are added.  The seeds
walk the flows a DOCA program takes (a local copy, a copy from an
imported export, a stop with tasks in flight), from which the fuzzer's
mutations reach the error paths around them.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
src = open(os.path.join(HERE, "fuzz_api.c")).read()
body = src[src.index("enum fz_op {") + len("enum fz_op {"):src.index("FZ_NUM_OPS")]
OP = {name.strip()[len("FZ_OP_"):]: i for i, name in enumerate(n for n in body.replace("\n", " ").split(",") if n.strip())}

LOCAL_RW, PCI_RW = 1, 32


def u16(v):
    return [v & 0xff, v >> 8]


def op(name, *args):
    out = [OP[name]]
    for a in args:
        out += a if isinstance(a, list) else [a]
    return out


def buf(inv, mmap, slot, off, length, data_off, data_len):
    return op("BUF_GET", inv, mmap, slot, u16(off), u16(length), u16(data_off), u16(data_len))


def local_mmap(m, dev, off, length, perms):
    return (op("MMAP_CREATE", m) + op("MMAP_ADD_DEV", m, dev) + op("MMAP_MEMRANGE", m, u16(off), u16(length)) +
            op("MMAP_PERMISSIONS", m, u16(perms)) + op("MMAP_START", m))


def dma_ctx(dma, dev, pe, tasks):
    return (op("PE_CREATE", pe) + op("DMA_CREATE", dma, dev) + op("DMA_CONF", dma, tasks) +
            op("PE_CONNECT", pe, dma) + op("CTX_START", dma))


SETUP = op("DEV_OPEN", 0) + op("INV_CREATE", 0, 8) + op("INV_START", 0)

SEEDS = {
    # Copy 4 KiB inside one local mmap, resubmit from the callback, free at the end.
    "local-copy": SETUP + local_mmap(0, 0, 0, 32768, LOCAL_RW) + buf(0, 0, 0, 0, 4096, 0, 4096) +
    buf(0, 0, 1, 8192, 4096, 0, 0) + dma_ctx(0, 0, 0, 4) + op("TASK_ALLOC", 0, 0, 1, 0, 2) +
    op("TASK_SUBMIT", 0) + op("PROGRESS", 0, 4) + op("TASK_FREE", 0),
    # The host exports, the DPU imports and copies out of the import.
    "import-copy": SETUP + op("DEV_OPEN", 1) + op("MMAP_CREATE", 0) + op("MMAP_ADD_DEV", 0, 1) +
    op("MMAP_MEMRANGE", 0, u16(0), u16(16384)) + op("MMAP_PERMISSIONS", 0, u16(PCI_RW)) + op("MMAP_START", 0) +
    op("MMAP_EXPORT_IMPORT", 0, 1, 0, 1) + local_mmap(2, 0, 32768, 16384, LOCAL_RW) +
    buf(0, 1, 0, 0, 2048, 0, 2048) + buf(0, 2, 1, 32768, 4096, 0, 0) + dma_ctx(0, 0, 0, 2) +
    op("TASK_ALLOC", 0, 0, 1, 0, 1) + op("TASK_TRY_SUBMIT", 0) + op("PROGRESS", 0, 2),
    # Two tasks in flight, then a stop: they are flushed, the context drains to IDLE.
    "stop-in-flight": SETUP + local_mmap(0, 0, 0, 32768, LOCAL_RW) + buf(0, 0, 0, 0, 512, 0, 512) +
    buf(0, 0, 1, 4096, 1024, 0, 0) + buf(0, 0, 2, 8192, 1024, 0, 0) + dma_ctx(0, 0, 0, 4) +
    op("TASK_ALLOC", 0, 0, 1, 0, 0) + op("TASK_ALLOC", 0, 0, 2, 1, 0) + op("TASK_SUBMIT", 0) +
    op("TASK_SUBMIT", 1) + op("CTX_STOP", 0) + op("PROGRESS", 0, 8) + op("TASK_FREE", 0) + op("TASK_FREE", 1) +
    op("PROGRESS", 0, 2),
    # A list of two sources into one destination.
    "list-copy": SETUP + local_mmap(0, 0, 0, 32768, LOCAL_RW) + buf(0, 0, 0, 0, 300, 0, 300) +
    buf(0, 0, 1, 1024, 200, 0, 200) + op("BUF_LIST", 0, 1, 1) + buf(0, 0, 2, 8192, 1024, 0, 0) +
    dma_ctx(0, 0, 0, 2) + op("TASK_ALLOC", 0, 0, 2, 0, 0) + op("TASK_SUBMIT", 0) + op("PROGRESS", 0, 2),
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, prog in SEEDS.items():
        with open(os.path.join(out, "seed-" + name), "wb") as f:
            f.write(bytes(prog))


if __name__ == "__main__":
    main()
