/*
 * rdma_cm_netns_side.c - one side of the connection-manager test across
 * two network namespaces (test_rdma_cm_netns.sh).
 *
 *   rdma_cm_netns_side server DIR   listen on the DPU device's topology
 *       address, leave the port and an RDMA descriptor of 4 KiB in DIR,
 *       then wait for one client, its write, and its disconnect; check
 *       that the text landed and that the client came from CLIENT_IP
 *   rdma_cm_netns_side client DIR SERVER_IP   connect to the server, write
 *       the text into its memory, read it back, disconnect
 * Exit status 0 when every step did what it should; the step that did not
 * is printed.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "rdma_test.h"

#define TEXT "across two network namespaces"
#define CLIENT_IP "10.214.0.1"
#define RW (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE)

static uint8_t mem[4096] __attribute__((aligned(64)));
static int established, disconnects, failures;
static struct doca_rdma_connection *conn;

static void on_request(struct doca_rdma_connection *c, union doca_data ctx_ud)
{
	(void)ctx_ud;
	(void)doca_rdma_connection_accept(c, NULL, 0);
}

static void on_established(struct doca_rdma_connection *c, union doca_data conn_ud, union doca_data ctx_ud)
{
	(void)conn_ud;
	(void)ctx_ud;
	conn = c;
	established++;
}

static void on_failure(struct doca_rdma_connection *c, union doca_data conn_ud, union doca_data ctx_ud)
{
	(void)c;
	(void)conn_ud;
	(void)ctx_ud;
	failures++;
}

static void on_disconnect(struct doca_rdma_connection *c, union doca_data conn_ud, union doca_data ctx_ud)
{
	(void)conn_ud;
	(void)ctx_ud;
	(void)doca_rdma_connection_disconnect(c);
	disconnects++;
}

static int fail(const char *step)
{
	fprintf(stderr, "rdma_cm_netns_side: %s\n", step);
	return 1;
}

/* Progress until *counter is non-zero (at most 10 s). */
static bool wait_for(struct rt_side *s, const int *counter)
{
	time_t end = time(NULL) + 10;

	while (*counter == 0 && time(NULL) < end)
		doca_pe_progress(s->pe);
	return *counter != 0;
}

static bool side_up(struct rt_side *s, const char *pci)
{
	return rt_configure(s, pci, RW) &&
	       doca_rdma_set_connection_state_callbacks(s->rdma, on_request, on_established, on_failure,
							on_disconnect) == DOCA_SUCCESS &&
	       doca_ctx_start(s->ctx) == DOCA_SUCCESS;
}

static bool put_file(const char *dir, const char *name, const void *p, size_t n)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s.tmp", dir, name);
	FILE *f = fopen(path, "wb");
	bool ok = f != NULL && fwrite(p, 1, n, f) == n;
	if (f != NULL)
		ok = fclose(f) == 0 && ok;
	char final[512];
	snprintf(final, sizeof(final), "%s/%s", dir, name);
	return ok && rename(path, final) == 0; /* the client never sees half a file */
}

static size_t get_file(const char *dir, const char *name, void *p, size_t cap)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return 0;
	size_t n = fread(p, 1, cap, f);
	fclose(f);
	return n;
}

static int server(const char *dir)
{
	struct rt_side s;
	const void *desc;
	size_t desc_len;
	uint16_t port = 0;
	struct doca_rdma_addr *peer = NULL;
	enum doca_rdma_addr_type type;
	const char *text;
	uint16_t peer_port;

	if (!side_up(&s, RT_DPU_PCI))
		return fail("server: the context did not start");
	srand((unsigned)getpid());
	for (int i = 0; i < 200 && port == 0; i++) {
		uint16_t p = (uint16_t)(12000 + rand() % 20000);
		if (doca_rdma_start_listen_to_port(s.rdma, p) == DOCA_SUCCESS)
			port = p;
	}
	/* The listener is bound to the device's address only: loopback of this namespace is refused. */
	struct sockaddr_in lo = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	int probe = socket(AF_INET, SOCK_STREAM, 0);
	if (port == 0 || probe < 0 || connect(probe, (struct sockaddr *)&lo, sizeof(lo)) == 0)
		return fail("server: the listener is reachable on loopback, not only on the device's address");
	close(probe);
	struct doca_mmap *m = rt_mmap(s.dev, mem, sizeof(mem), RW);
	if (port == 0 || m == NULL || doca_mmap_export_rdma(m, s.dev, &desc, &desc_len) != DOCA_SUCCESS)
		return fail("server: no port, mmap or descriptor");
	if (!put_file(dir, "desc", desc, desc_len) || !put_file(dir, "port", &port, sizeof(port)))
		return fail("server: cannot write the port and descriptor files");
	if (!wait_for(&s, &established))
		return fail("server: no client was established");
	if (doca_rdma_connection_get_addr(conn, &peer) != DOCA_SUCCESS ||
	    doca_rdma_addr_get_params(peer, &type, &text, &peer_port) != DOCA_SUCCESS || strcmp(text, CLIENT_IP) != 0)
		return fail("server: the client's address is not the host side's");
	if (!wait_for(&s, &disconnects))
		return fail("server: the client's disconnect never came");
	if (memcmp(mem, TEXT, sizeof(TEXT)) != 0)
		return fail("server: the client's write did not land");
	rt_stop(&s);
	doca_mmap_destroy(m);
	rt_destroy(&s);
	return 0;
}

static int client(const char *dir, const char *server_ip)
{
	struct rt_side s;
	static uint8_t desc[4096];
	uint16_t port = 0;
	size_t n;
	struct doca_rdma_addr *addr = NULL, *local = NULL;
	struct doca_mmap *rm = NULL;
	struct doca_buf *src = NULL, *dst = NULL;
	struct doca_rdma_task_write *w = NULL;
	union doca_data ud = {.u64 = 0};

	for (int i = 0; i < 1000 && get_file(dir, "port", &port, sizeof(port)) != sizeof(port); i++)
		usleep(10000);
	n = get_file(dir, "desc", desc, sizeof(desc));
	if (port == 0 || n == 0 || !side_up(&s, RT_HOST_PCI))
		return fail("client: no server files, or the context did not start");
	/* Nothing listens on this namespace's loopback: that attempt ends in the failure callback. */
	if (doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", port, &local) != DOCA_SUCCESS ||
	    doca_rdma_connect_to_addr(s.rdma, local, ud) != DOCA_SUCCESS || !wait_for(&s, &failures))
		return fail("client: connecting to loopback did not fail");
	if (doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, server_ip, port, &addr) != DOCA_SUCCESS ||
	    doca_rdma_connect_to_addr(s.rdma, addr, ud) != DOCA_SUCCESS || !wait_for(&s, &established))
		return fail("client: no connection to the server");
	struct doca_mmap *lm = rt_mmap(s.dev, mem, sizeof(mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	memcpy(mem, TEXT, sizeof(TEXT));
	void *remote = NULL;
	size_t remote_len = 0;
	if (lm == NULL || doca_mmap_create_from_export(NULL, desc, n, s.dev, &rm) != DOCA_SUCCESS ||
	    doca_mmap_get_memrange(rm, &remote, &remote_len) != DOCA_SUCCESS ||
	    doca_buf_inventory_buf_get_by_data(s.inv, lm, mem, sizeof(TEXT), &src) != DOCA_SUCCESS ||
	    doca_buf_inventory_buf_get_by_addr(s.inv, rm, remote, sizeof(TEXT), &dst) != DOCA_SUCCESS ||
	    doca_rdma_task_write_allocate_init(s.rdma, conn, src, dst, ud, &w) != DOCA_SUCCESS ||
	    doca_task_submit(doca_rdma_task_write_as_task(w)) != DOCA_SUCCESS || !rt_wait(&s, NULL, 1) ||
	    s.status != DOCA_SUCCESS)
		return fail("client: the write into the server's memory failed");
	if (doca_rdma_connection_disconnect(conn) != DOCA_SUCCESS)
		return fail("client: disconnect refused");
	doca_task_free(doca_rdma_task_write_as_task(w));
	doca_buf_dec_refcount(src, NULL);
	doca_buf_dec_refcount(dst, NULL);
	rt_stop(&s);
	doca_mmap_destroy(rm);
	doca_mmap_destroy(lm);
	doca_rdma_addr_destroy(addr);
	doca_rdma_addr_destroy(local);
	rt_destroy(&s);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "server") == 0)
		return server(argv[2]);
	if (argc == 4 && strcmp(argv[1], "client") == 0)
		return client(argv[2], argv[3]);
	fprintf(stderr, "usage: %s server DIR | client DIR SERVER_IP\n", argv[0]);
	return 2;
}
