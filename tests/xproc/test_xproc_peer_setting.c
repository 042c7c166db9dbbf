/*
 * SOFTDOCA_PEER=ADDR[:PORT] and the topology file's `peer` key: where the
 * other side of the PCI link runs.  Every form of the value (IPv4, IPv6 in
 * brackets or bare, a host name, with or without a port; port 13622 by
 * default), every malformed one refused with a reason, the variable
 * winning over the file, a malformed key refusing the whole file, and the
 * local address chosen toward a peer.  The topology is read once per
 * process, so the file cases run in forked children.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doca_dev.h>

#include "sd_peer.h"
#include "sd_test.h"

static int peer_of(const char *value, struct sd_peer *p, char *why, size_t why_len)
{
	if (value != NULL)
		setenv("SOFTDOCA_PEER", value, 1);
	else
		unsetenv("SOFTDOCA_PEER");
	return priv_doca_peer_get(p, why, why_len);
}

static void every_form_of_the_value_is_read(void)
{
	static const struct {
		const char *text, *host;
		unsigned port;
	} good[] = {
		{"10.1.2.3", "10.1.2.3", SD_PEER_DEFAULT_PORT},
		{"10.1.2.3:7000", "10.1.2.3", 7000},
		{"[fd00::1]:65535", "fd00::1", 65535},
		{"[fd00::1]", "fd00::1", SD_PEER_DEFAULT_PORT},
		{"fd00::1", "fd00::1", SD_PEER_DEFAULT_PORT},
		{"dpu-container", "dpu-container", SD_PEER_DEFAULT_PORT},
		{"dpu.example:1", "dpu.example", 1},
	};
	struct sd_peer p;
	char why[256];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		CHECK(peer_of(good[i].text, &p, why, sizeof(why)) == 1);
		CHECK(strcmp(p.host, good[i].host) == 0);
		CHECK_EQ_U64(p.port, good[i].port);
		CHECK(strcmp(p.source, "SOFTDOCA_PEER") == 0);
	}
	CHECK_EQ_U64(SD_PEER_DEFAULT_PORT, 13622);
}

static void malformed_values_are_refused_with_a_reason(void)
{
	static const char *const bad[] = {"10.1.2.3:0",  "10.1.2.3:65536", "10.1.2.3:x", ":7000",      "[fd00::1",
					  "[fd00::1]x",  "[fd00::1]:",     "a b",        "10.1.2.3:-1", "host/x"};
	struct sd_peer p;
	char why[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		CHECK(peer_of(bad[i], &p, why, sizeof(why)) == -1);
		CHECK(strstr(why, "SOFTDOCA_PEER=") != NULL && strstr(why, bad[i]) != NULL);
	}
}

static void unset_or_empty_means_no_peer(void)
{
	struct sd_peer p;
	char why[64];

	CHECK(peer_of(NULL, &p, why, sizeof(why)) == 0);
	CHECK(peer_of("", &p, why, sizeof(why)) == 0);
}

/* Run `fn` in a child whose topology file holds `text`; true when the child's checks passed. */
static bool in_child_with_file(const char *text, void (*fn)(void))
{
	char path[] = "/tmp/sd_peer_topo_XXXXXX";
	int fd = mkstemp(path);
	pid_t pid;
	int status = 0;

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		return false;
	close(fd);
	pid = fork();
	if (pid == 0) {
		setenv("SOFTDOCA_TOPOLOGY", path, 1);
		fn();
		_exit(sd_test_case_failed ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	unlink(path);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static const char file_with_peer[] = "peer = 10.9.9.9:4444\n"
				     "[device 0000:03:00.0]\n"
				     "side = dpu\n"
				     "[rep 0000:b1:00.0]\n"
				     "[device 0000:b1:00.0]\n"
				     "side = host\n";

static void child_reads_the_file_key(void)
{
	struct sd_peer p;
	char why[256];

	CHECK(peer_of(NULL, &p, why, sizeof(why)) == 1);
	CHECK(strcmp(p.host, "10.9.9.9") == 0 && p.port == 4444);
	CHECK(strstr(p.source, "topology") != NULL);
	/* The variable wins over the file. */
	CHECK(peer_of("10.8.8.8", &p, why, sizeof(why)) == 1);
	CHECK(strcmp(p.host, "10.8.8.8") == 0 && p.port == SD_PEER_DEFAULT_PORT);
}

static void the_topology_key_is_the_fallback(void)
{
	CHECK(in_child_with_file(file_with_peer, child_reads_the_file_key));
}

static void child_sees_a_refused_file(void)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	struct sd_peer p;
	char why[64];

	CHECK_ERR(doca_devinfo_create_list(&list, &n), DOCA_ERROR_NOT_FOUND);
	CHECK(peer_of(NULL, &p, why, sizeof(why)) == 0); /* a refused file configures nothing */
}

static void a_malformed_key_refuses_the_file(void)
{
	CHECK(in_child_with_file("peer = 10.9.9.9:99999\n[device 0000:b1:00.0]\nside = host\n",
				 child_sees_a_refused_file));
	CHECK(in_child_with_file("peer = a\npeer = b\n[device 0000:b1:00.0]\nside = host\n", child_sees_a_refused_file));
}

static void the_local_address_is_the_one_facing_the_peer(void)
{
	struct sd_peer p = {.port = 9};
	struct sockaddr_storage pa, la;
	socklen_t pl, ll;
	char why[256], text[64] = "";

	snprintf(p.host, sizeof(p.host), "127.0.0.1");
	p.source = "test";
	REQUIRE(priv_doca_peer_resolve(&p, &pa, &pl, why, sizeof(why)) == 0);
	REQUIRE(priv_doca_peer_local_addr(&pa, pl, &la, &ll) == 0);
	REQUIRE(la.ss_family == AF_INET);
	inet_ntop(AF_INET, &((struct sockaddr_in *)&la)->sin_addr, text, sizeof(text));
	CHECK(strcmp(text, "127.0.0.1") == 0);
	CHECK(((struct sockaddr_in *)&la)->sin_port == 0);
	snprintf(p.host, sizeof(p.host), "no-such-host.invalid");
	CHECK(priv_doca_peer_resolve(&p, &pa, &pl, why, sizeof(why)) != 0);
	CHECK(strstr(why, "no-such-host.invalid") != NULL && strstr(why, "does not resolve") != NULL);
}

int main(void)
{
	unsetenv("SOFTDOCA_TOPOLOGY");
	/* First: the children must not inherit a topology this process already read. */
	SD_RUN(the_topology_key_is_the_fallback);
	SD_RUN(a_malformed_key_refuses_the_file);
	SD_RUN(every_form_of_the_value_is_read);
	SD_RUN(malformed_values_are_refused_with_a_reason);
	SD_RUN(unset_or_empty_means_no_peer);
	SD_RUN(the_local_address_is_the_one_facing_the_peer);
	return sd_test_done();
}
