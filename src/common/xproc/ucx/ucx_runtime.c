/*
 * ucx_runtime.c - the process's UCX context and the transport's settings.
 *
 * One UCP context serves the exporting and the importing side.  It is
 * created with the first export or import that needs UCX and destroyed with
 * the last one, so a program that releases its objects leaves nothing of
 * UCX behind (and leak checkers see nothing).
 *
 * softdoca's liveness promise (an access fails within the bound instead of
 * hanging) does not depend on UCX's timers: the accesses keep their own
 * deadline (ucx_rma.c).  UCX's keepalive is still made shorter than its
 * default, where the user has not set it, so that an exporter notices dead
 * importers and releases their connections soon.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sd_log.h"
#include "ucx_priv.h"

#define SD_UCX_TIMEOUT_DEFAULT_MS 1000u
#define SD_UCX_TIMEOUT_MIN_MS 10u
#define SD_UCX_TIMEOUT_MAX_MS 600000u

static struct {
	pthread_mutex_t lock;
	uint32_t pid; /* process the context belongs to */
	unsigned refs;
	ucp_context_h ctx;
} sd_ucx_rt = {.lock = PTHREAD_MUTEX_INITIALIZER};

static pthread_once_t sd_ucx_timeout_once = PTHREAD_ONCE_INIT;
static uint32_t sd_ucx_timeout_value = SD_UCX_TIMEOUT_DEFAULT_MS;

/*
 * A number of milliseconds from `min` to `max` in the variable `name`, or
 * `dflt` when unset or empty; anything else is one WARNING and `dflt`.
 */
static uint32_t sd_ucx_env_ms(const char *name, unsigned long min, unsigned long max, uint32_t dflt)
{
	const char *text = getenv(name);
	char *end;
	unsigned long v;

	if (text == NULL || text[0] == '\0')
		return dflt;
	v = strtoul(text, &end, 10);
	if (*end != '\0' || text[0] == '-' || v < min || v > max) {
		SD_LOG_WARN("%s=%s is not a number of milliseconds from %lu to %lu; using %u", name, text, min, max,
			    dflt);
		return dflt;
	}
	return (uint32_t)v;
}

static void sd_ucx_timeout_read(void)
{
	sd_ucx_timeout_value = sd_ucx_env_ms("SOFTDOCA_PEER_TIMEOUT_MS", SD_UCX_TIMEOUT_MIN_MS, SD_UCX_TIMEOUT_MAX_MS,
					     SD_UCX_TIMEOUT_DEFAULT_MS);
}

uint32_t sd_ucx_timeout_ms(void)
{
	(void)pthread_once(&sd_ucx_timeout_once, sd_ucx_timeout_read);
	return sd_ucx_timeout_value;
}

uint64_t sd_ucx_timeout_ns(void)
{
	return (uint64_t)sd_ucx_timeout_ms() * 1000000ull;
}

/*
 * The serving thread's spin.  Waking from the UCX worker's event
 * descriptor costs the first access of a burst 1 to 6 ms (docs/ucx.md);
 * a program with idle gaps shorter than the spin never pays it, for a
 * core kept busy meanwhile.
 */
#define SD_UCX_SPIN_DEFAULT_MS 2u
#define SD_UCX_SPIN_MAX_MS 600000u

static pthread_once_t sd_ucx_spin_once = PTHREAD_ONCE_INIT;
static uint32_t sd_ucx_spin_value = SD_UCX_SPIN_DEFAULT_MS;

static void sd_ucx_spin_read(void)
{
	sd_ucx_spin_value = sd_ucx_env_ms("SOFTDOCA_PEER_SERVE_SPIN_MS", 0, SD_UCX_SPIN_MAX_MS, SD_UCX_SPIN_DEFAULT_MS);
}

uint64_t sd_ucx_serve_spin_ns(void)
{
	(void)pthread_once(&sd_ucx_spin_once, sd_ucx_spin_read);
	return (uint64_t)sd_ucx_spin_value * 1000000ull;
}

void sd_ucx_net_text(const struct sd_xp_net *net, char *out, size_t size)
{
	char ip[INET6_ADDRSTRLEN] = "?";

	if (net->family == SD_XP_NET_IPV4) {
		inet_ntop(AF_INET, net->addr, ip, sizeof(ip));
		snprintf(out, size, "%s:%u", ip, net->port);
	} else if (net->family == SD_XP_NET_IPV6) {
		inet_ntop(AF_INET6, net->addr, ip, sizeof(ip));
		snprintf(out, size, "[%s]:%u", ip, net->port);
	} else {
		snprintf(out, size, "(no endpoint)");
	}
}

socklen_t sd_ucx_net_to_sockaddr(const struct sd_xp_net *net, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (net->family == SD_XP_NET_IPV4) {
		struct sockaddr_in *in = (struct sockaddr_in *)ss;

		in->sin_family = AF_INET;
		in->sin_port = htons(net->port);
		memcpy(&in->sin_addr, net->addr, 4);
		return sizeof(*in);
	}
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;

	in6->sin6_family = AF_INET6;
	in6->sin6_port = htons(net->port);
	memcpy(&in6->sin6_addr, net->addr, 16);
	return sizeof(*in6);
}

bool sd_ucx_net_from_sockaddr(const struct sockaddr *sa, struct sd_xp_net *net)
{
	memset(net, 0, sizeof(*net));
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;

		net->family = SD_XP_NET_IPV4;
		net->port = ntohs(in->sin_port);
		memcpy(net->addr, &in->sin_addr, 4);
		return true;
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;

		net->family = SD_XP_NET_IPV6;
		net->port = ntohs(in6->sin6_port);
		memcpy(net->addr, &in6->sin6_addr, 16);
		return true;
	}
	return false;
}

ucs_status_t sd_ucx_wait(ucp_worker_h worker, ucs_status_ptr_t req, uint64_t limit_ns)
{
	uint64_t deadline = sd_mono_ns() + limit_ns;
	ucs_status_t st;
	unsigned spins = 0;

	if (req == NULL)
		return UCS_OK;
	if (UCS_PTR_IS_ERR(req))
		return UCS_PTR_STATUS(req);
	while ((st = ucp_request_check_status(req)) == UCS_INPROGRESS) {
		ucp_worker_progress(worker);
		if ((++spins & 15u) == 0 && sd_mono_ns() > deadline)
			return UCS_ERR_TIMED_OUT;
	}
	ucp_request_free(req);
	return st;
}

bool sd_ucx_ep_close_force(ucp_worker_h worker, ucp_ep_h ep, uint64_t limit_ns)
{
	ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS, .flags = UCP_EP_CLOSE_FLAG_FORCE};

	return sd_ucx_wait(worker, ucp_ep_close_nbx(ep, &p), limit_ns) != UCS_ERR_TIMED_OUT;
}

void sd_ucx_hand_out_queued_requests(ucp_worker_h worker)
{
	/* A request's handler may run on a pass that reports no progress: no early exit. */
	for (int i = 0; i < 32; i++)
		(void)ucp_worker_progress(worker);
}

/* Set UCX_<name> in `config` unless the user chose it in the environment. */
static void sd_ucx_default(ucp_config_t *config, const char *name, const char *value)
{
	char env[64];

	snprintf(env, sizeof(env), "UCX_%s", name);
	if (getenv(env) != NULL)
		return;
	if (ucp_config_modify(config, name, value) != UCS_OK)
		SD_LOG_DBG("UCX does not take %s=%s; keeping its default", env, value);
}

static ucp_context_h sd_ucx_context_create(const char *func)
{
	ucp_params_t params = {
		.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED | UCP_PARAM_FIELD_NAME,
		/*
		 * No RMA or atomics: every access is a softdoca message the exporter
		 * checks (ucx_rma.c says why).  Without the features, UCX's own
		 * handlers of remote puts, gets and atomics are not installed, so a
		 * peer cannot reach this process's memory past those checks.
		 */
		.features = UCP_FEATURE_AM | UCP_FEATURE_WAKEUP,
		.mt_workers_shared = 1, /* the exporting thread and the importers' threads each own a worker */
		.name = "softdoca",
	};
	ucp_config_t *config;
	ucp_context_h ctx;
	ucs_status_t st = ucp_config_read(NULL, NULL, &config);

	if (st != UCS_OK) {
		SD_LOG_ERR_AS(func, "cannot read the UCX configuration: %s", ucs_status_string(st));
		return NULL;
	}
	sd_ucx_default(config, "KEEPALIVE_INTERVAL", "1s");
	/*
	 * Copy every send into UCX's own buffers.  A zero-copy send still in
	 * flight when its connection fails trips an assertion in UCX's TCP
	 * transport (1.13: uct_iface.h, comp->count > 0) that aborts the
	 * process: an importer dying with read answers queued took the
	 * exporter with it.  Copying costs one memcpy per send.
	 */
	sd_ucx_default(config, "ZCOPY_THRESH", "inf");
	st = ucp_init(&params, config, &ctx);
	ucp_config_release(config);
	if (st != UCS_OK) {
		SD_LOG_ERR_AS(func, "cannot initialize UCX: %s (check UCX_TLS and UCX_NET_DEVICES)", ucs_status_string(st));
		return NULL;
	}
	return ctx;
}

ucp_context_h sd_ucx_context_get(const char *func)
{
	uint32_t me = (uint32_t)getpid();
	ucp_context_h ctx;

	pthread_mutex_lock(&sd_ucx_rt.lock);
	if (sd_ucx_rt.pid != me) {
		/* A fork child: the parent's UCX state is not usable here; start afresh. */
		sd_ucx_rt.pid = me;
		sd_ucx_rt.refs = 0;
		sd_ucx_rt.ctx = NULL;
	}
	if (sd_ucx_rt.ctx == NULL)
		sd_ucx_rt.ctx = sd_ucx_context_create(func);
	ctx = sd_ucx_rt.ctx;
	if (ctx != NULL)
		sd_ucx_rt.refs++;
	pthread_mutex_unlock(&sd_ucx_rt.lock);
	return ctx;
}

void sd_ucx_context_put(void)
{
	pthread_mutex_lock(&sd_ucx_rt.lock);
	if (sd_ucx_rt.pid == (uint32_t)getpid() && sd_ucx_rt.refs > 0 && --sd_ucx_rt.refs == 0) {
		ucp_cleanup(sd_ucx_rt.ctx);
		sd_ucx_rt.ctx = NULL;
	}
	pthread_mutex_unlock(&sd_ucx_rt.lock);
}
