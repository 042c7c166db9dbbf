/*
 * rdma_wake.h - waking a progress engine that sleeps on its notification
 * handle (event mode) when something happens to one of its RDMA contexts
 * that no thread of this process would otherwise report: a message or a
 * verdict written by a peer in another process, a message or an answer
 * from a peer in another namespace (UCX), a connection-manager socket with
 * news, an RNR, handshake or liveness deadline passing.
 *
 * Nothing here runs while the program polls: the words in the shared rings
 * are set, and the watcher thread is armed, only when the application arms
 * its PE (doca_pe_request_notification) and the context has nothing to
 * report.  A peer that finds our word set clears it and writes one byte to
 * our wake pipe: one system call per sleep, never one per task.
 */
#ifndef SD_RDMA_WAKE_H
#define SD_RDMA_WAKE_H

#include <stdbool.h>

#include "rdma_priv.h"

/*
 * The write end of the context's wake pipe, made on first use, which a new
 * inbox names in its header so that a peer of another process can open
 * it; -1 (logged once) when the pipe cannot be made.
 */
int sd_rdma_wake_fd(struct doca_rdma *rdma);

/*
 * The PE is armed and the context has nothing to report: ask the peers to
 * wake us, arm the watcher (CM sockets, deadlines), and look once more.
 * True when work turned up meanwhile (the PE must not sleep).
 */
bool sd_rdma_wake_arm(struct doca_rdma *rdma);

/*
 * `word` of the ring shared with the peer of `conn` says the peer sleeps:
 * clear it and write to the peer's wake pipe.  Call after the store the
 * peer waits for (a published slot, a verdict, a closed flag).
 */
void sd_rdma_wake_peer(struct doca_rdma_connection *conn, _Atomic uint32_t *word);

/* A connection goes: close what it opened of its peer's pipe. */
void sd_rdma_wake_conn_close(struct doca_rdma_connection *conn);

/* The context reached IDLE or is destroyed: stop the watcher, close the pipe. */
void sd_rdma_wake_release(struct doca_rdma *rdma);

#endif /* SD_RDMA_WAKE_H */
