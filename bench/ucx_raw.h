/*
 * ucx_raw.h - raw UCX on the same buffers as a softdoca measurement: the
 * baseline that ucx_bench (DMA over UCX) and rdma_bench (DOCA RDMA) put
 * their rows next to.
 *
 * The serving side maps a buffer with ucp_mem_map and answers a hello
 * active message with the buffer's address and packed remote key; the
 * other side connects, asks, and then reads and writes the buffer with
 * ucp_get_nbx / ucp_put_nbx (a put is followed by ucp_ep_flush_nbx: the
 * completion a DMA or RDMA write reports is "the bytes are there").  The
 * serving worker runs on a thread of its own, spinning while there is
 * traffic and sleeping on its event descriptor after 2 ms of silence (the
 * policy of softdoca's own UCX server, which ucx_bench's DMA rows go
 * through), or spinning while a caller asks it to (ucx_raw_spin: rdma_bench
 * makes it spin in its raw slices only, so that it takes no CPU from the
 * softdoca slices).
 *
 * Errors end the program with a message: these are benchmarks.
 */
#ifndef UCX_RAW_H
#define UCX_RAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Serve [buf, buf + len) on a listener at bind_ip (IPv4), port chosen by
 * the kernel.  With `spin` the serving thread never sleeps: where UCX
 * carries gets and puts through the server's progress (TCP), the raw rows
 * then show UCX at its best rather than its wake-up delay.
 */
void ucx_raw_serve(uint8_t *buf, size_t len, const char *bind_ip, bool spin);

/* The serving listener's port. */
uint16_t ucx_raw_port(void);

/* Stop the serving thread at its next wake-up (the process is about to end). */
void ucx_raw_quit(void);

/*
 * The local IPv4 address on the route toward `peer` ("ADDR" or
 * "ADDR:PORT", as SOFTDOCA_PEER), written into out; 127.0.0.1 when peer is
 * NULL.  Where the serving side listens so that the other side reaches it.
 */
void ucx_raw_bind_ip_toward(const char *peer, char *out, size_t len);

/* Write / read DIR/raw: "ADDR PORT BUFADDR LEN", the serving side's address. */
void ucx_raw_write_addr(const char *dir, const char *bind_ip, const uint8_t *buf, size_t len);
void ucx_raw_connect_from(const char *dir);

/* One get (put == false) or put + flush of n bytes at the start of the served buffer. */
void ucx_raw_op(bool put, uint8_t *local, size_t n);

/*
 * Send `n`-byte active messages from `local` to the server for about
 * `seconds`, keeping up to `inflight` of them unfinished (a message is
 * finished when UCX is done with its buffer; the server counts and drops
 * each).  Returns how many were sent, once the server has handled every
 * one of them (ucx_raw_am_fence): the time covers delivery, as a DOCA send
 * completes only when its receiver has the message.
 */
uint64_t ucx_raw_am_run(const uint8_t *local, size_t n, unsigned inflight, double seconds);

/* Wait until the server has handled every message sent before (a ping it answers after them). */
void ucx_raw_am_fence(void);

/* Make the server spin, or sleep when idle (its thread then leaves the CPU to the other method's slices). */
void ucx_raw_spin(bool spin);

#endif /* UCX_RAW_H */
