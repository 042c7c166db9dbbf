/*
 * A message node closes while peers are half way into connecting to it.
 *
 * UCX accepts a peer's TCP connection at once, but hands the peer's
 * request to the listener only when the peer's first bytes arrive; with
 * UCX 1.13 a listener destroyed in between let UCX's network thread call
 * into freed memory when those bytes came (a crash now and then at
 * context stop).  Here raw peers connect to a fresh node, wait until
 * UCX has accepted them, then send the connection manager's header (a
 * request with no private data, which UCX refuses) at moments spread
 * around the node's close, round after round.  With the listener ended
 * by sd_ucx_listener_end the process survives every round; each close
 * stays bounded, and the closed node's port refuses new connections.
 *
 * Run with SOFTDOCA_XPROC_PATH=ucx (the node listens on the loopback);
 * skipped when UCX is not built in.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "sd_msgnet.h"
#include "sd_test.h"

#define ROUNDS 40
#define PEERS 6
#define SPREAD_US 1000u      /* the peers' bytes leave within this long after the close begins */
#define ACCEPT_WAIT_US 3000u /* time for UCX's thread to accept the peers before the close */
#define CLOSE_LIMIT_NS 1000000000ull

struct round_peers {
	int fd[PEERS];
	unsigned delay_us[PEERS];
	uint64_t start_ns;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool on_msg(void *arg, void *link, void *link_arg, const void *hdr, size_t hlen, void *data, size_t len)
{
	(void)arg, (void)link, (void)link_arg, (void)hdr, (void)hlen, (void)data, (void)len;
	return false;
}

static void on_fail(void *arg, void *link, void *link_arg)
{
	(void)arg, (void)link, (void)link_arg;
}

static int connect_loopback(uint16_t port)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * What a UCX client sends first over TCP: a length of private data (none
 * here) and a status, padded as UCX lays them out.
 */
static void *send_headers(void *arg)
{
	struct round_peers *r = arg;
	uint8_t hdr[16] = {0};

	for (int i = 0; i < PEERS; i++) {
		while (now_ns() < r->start_ns + (uint64_t)r->delay_us[i] * 1000u)
			;
		(void)send(r->fd[i], hdr, sizeof(hdr), MSG_NOSIGNAL);
	}
	return NULL;
}

static int by_delay(const void *a, const void *b)
{
	return (int)*(const unsigned *)a - (int)*(const unsigned *)b;
}

static void one_round(unsigned *seed)
{
	const struct sd_msgnet_cbs cbs = {.on_msg = on_msg, .on_fail = on_fail};
	const struct sd_msgnet_ops *ops = NULL;
	struct round_peers r;
	void *node = NULL;
	uint16_t port = 0;
	pthread_t sender;

	REQUIRE(priv_doca_msgnet_open(__func__, &cbs, NULL, &ops, &port, &node) == DOCA_SUCCESS);
	for (int i = 0; i < PEERS; i++) {
		r.fd[i] = connect_loopback(port);
		REQUIRE(r.fd[i] >= 0);
		r.delay_us[i] = (unsigned)rand_r(seed) % SPREAD_US;
	}
	qsort(r.delay_us, PEERS, sizeof(r.delay_us[0]), by_delay);
	usleep(ACCEPT_WAIT_US);
	r.start_ns = now_ns();
	REQUIRE(pthread_create(&sender, NULL, send_headers, &r) == 0);
	ops->close(node);
	uint64_t took = now_ns() - r.start_ns;
	pthread_join(sender, NULL);
	CHECK(took < CLOSE_LIMIT_NS);
	int late = connect_loopback(port);
	CHECK(late < 0 && errno == ECONNREFUSED);
	if (late >= 0)
		close(late);
	for (int i = 0; i < PEERS; i++)
		close(r.fd[i]);
}

static void node_closes_while_peers_are_half_connected(void)
{
	const struct sd_msgnet_cbs cbs = {.on_msg = on_msg, .on_fail = on_fail};
	const struct sd_msgnet_ops *ops = NULL;
	void *node = NULL;
	uint16_t port = 0;
	unsigned seed = 20;

	if (priv_doca_msgnet_open(__func__, &cbs, NULL, &ops, &port, &node) != DOCA_SUCCESS)
		sd_test_skip("no UCX message node here (built without UCX, or SOFTDOCA_XPROC_PATH is not ucx)");
	ops->close(node);
	for (int i = 0; i < ROUNDS && !sd_test_case_failed; i++)
		one_round(&seed);
}

int main(void)
{
	SD_RUN(node_closes_while_peers_are_half_connected);
	return sd_test_done();
}
