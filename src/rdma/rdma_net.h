/*
 * rdma_net.h - sends, sends with immediate and the immediate of a write
 * with immediate to a peer in another namespace or on another machine,
 * as UCX active messages between the two contexts' message nodes
 * (sd_msgnet.h).  rdma_net.c runs it, rdma_net_wire.c reads and writes
 * its messages.
 *
 * Each context that offers a network endpoint opens one node at its first
 * export; the node's port travels in the connection blob.  A connection to
 * a peer elsewhere opens one link to the peer's node and introduces itself
 * (HELLO: the peer's connection id and token, its send window); the peer
 * binds the link to that connection (OK).  From then on:
 *
 *   sender --MSG(seq, opcode, immediate, write length, bytes)--> receiver
 *   sender <--ANS(first seq, count, status)--------------------- receiver
 *   sender --BATCH(first seq, n, n records)----------------------> receiver
 *   sender <--HOLD (the receiver holds messages, no receive yet)-- receiver
 *   either --CLOSE--> the other (disconnect, stop)
 *
 * The receiver owns every decision about a message: it fills the oldest
 * posted receive with it, or holds it until one is posted, or fails it when
 * the sender's RNR budget (carried in the message) runs out, and says so in
 * an answer.  Answers name their sequence numbers, so each send completes
 * exactly once whatever order answers take.  The sender never has more
 * messages unanswered than its window, which the receiver's hold queue is
 * sized for at HELLO; nothing is allocated per message on either side.
 *
 * A BATCH carries several consecutive small messages in one active message
 * (one system call instead of one per message): the sends a program
 * submits from its completion callbacks leave together at the end of the
 * progress pass.  Each record is an 8-byte prefix (u32 payload length, u32
 * zero), a MSG header and the payload; the receiver treats each record as
 * the MSG it holds, one by one, in order.
 */
#ifndef SD_RDMA_NET_H
#define SD_RDMA_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

#define SD_RDMA_NET_MAGIC 0x4d4e4453u /* "SDNM" */
#define SD_RDMA_NET_VERSION 2u /* 2: BATCH */
#define SD_RDMA_NET_HDR_LEN 56u
#define SD_RDMA_NET_MAX_WINDOW 4096u /* messages a sender may have unanswered on one connection */
#define SD_RDMA_NET_MAX_RNR_MS 2000u /* the longest RNR budget (retry count 7) */
#define SD_RDMA_NET_MAX_RUN 65536u   /* sequence numbers one answer may cover */
#define SD_RDMA_NET_SMALL 256u        /* the longest payload a BATCH record carries */
#define SD_RDMA_NET_MAX_BATCH 64u     /* records in one BATCH */
#define SD_RDMA_NET_REC_PREFIX 8u
#define SD_RDMA_NET_REC_HDR (SD_RDMA_NET_REC_PREFIX + SD_RDMA_NET_HDR_LEN) /* a record before its payload */

enum sd_rdma_net_type {
	SD_RDMA_NET_HELLO = 1, /* link -> peer's connection `conn_id`, proving its token */
	SD_RDMA_NET_OK,        /* bound; `word` is the window the receiver accepted */
	SD_RDMA_NET_DENY,      /* no such connection or token, or bound already */
	SD_RDMA_NET_MSG,       /* a send, a send with immediate, or the immediate of a write */
	SD_RDMA_NET_ANS,       /* the outcome of `count` messages from `seq` on */
	SD_RDMA_NET_HOLD,      /* the receiver holds messages for want of a receive: it is alive */
	SD_RDMA_NET_CLOSE,     /* the sender of this ended the connection */
	SD_RDMA_NET_BATCH,     /* `count` MSG records from `seq` on, in the payload */
	SD_RDMA_NET_TYPE_END,
};

/*
 * A message header, decoded.  Layout (little-endian, SD_RDMA_NET_HDR_LEN):
 *    0 u32 magic "SDNM"  4 u8 version  5 u8 type  6 u16 zero
 *    8 u32 connection id of the end it is for
 *   12 u32 word: MSG opcode, ANS status (a doca_error_t), HELLO/OK window, else 0
 *   16 u64 seq: MSG sequence number, ANS and BATCH first one, HELLO/OK/DENY
 *               nonce, else 0
 *   24 u64 count: MSG write length, ANS and BATCH number of messages, HELLO
 *               sender's connection id, else 0
 *   32 u32 immediate (MSG with immediate, big-endian as given), else 0
 *   36 u32 RNR budget in ms (MSG), else 0
 *   40 u8[16] token (HELLO), else zero
 */
struct sd_rdma_net_hdr {
	uint8_t type;
	uint32_t conn_id;
	uint32_t word;
	uint64_t seq;
	uint64_t count;
	uint32_t imm;
	uint32_t rnr_ms;
	uint8_t token[16];
};

void sd_rdma_net_encode(const struct sd_rdma_net_hdr *h, uint8_t out[SD_RDMA_NET_HDR_LEN]);
/*
 * Check and decode what a peer sent: the header and the length of the
 * payload that came with it.  NULL when every field keeps the rules, else
 * the broken one.
 */
const char *sd_rdma_net_decode(const void *buf, size_t len, size_t payload_len, struct sd_rdma_net_hdr *h);

/* Write a BATCH record's prefix and MSG header for a payload of `payload_len` bytes. */
void sd_rdma_net_encode_record(const struct sd_rdma_net_hdr *h, uint32_t payload_len,
			       uint8_t out[SD_RDMA_NET_REC_HDR]);
/*
 * Check and decode the BATCH record at the start of the `left` bytes at
 * `p`: its MSG header into `h`, where its payload starts and how long it
 * is, and how many bytes the whole record takes.  NULL when it keeps the
 * rules (a MSG, a payload of at most SD_RDMA_NET_SMALL bytes that fits in
 * `left`), else the broken one.
 */
const char *sd_rdma_net_decode_record(const uint8_t *p, size_t left, struct sd_rdma_net_hdr *h,
				      const uint8_t **payload, size_t *payload_len, size_t *used);

#endif /* SD_RDMA_NET_H */
