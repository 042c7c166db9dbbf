/*
 * cuda_mem.c - mmap memory as the GPU sees it.
 *
 * When an mmap that lists a GPU device starts, its range is classified:
 *  - GPU memory (a cudaMalloc pointer): nothing to do, the copy engines
 *    reach it directly; the mmap is marked so the CPU never touches it;
 *  - host memory the driver already knows (cudaMallocHost, or pinned by the
 *    program or by another mmap): used as it is, and left alone at stop;
 *  - ordinary pageable host memory: pinned here (cuMemHostRegister) so the
 *    copy engines can reach it asynchronously, and unpinned at stop; where
 *    the driver refuses to pin, left pageable with a WARNING.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda_priv.h"
#include "sd_dev.h"
#include "sd_log.h"

/* What mmap stop has to undo: a range this file pinned. */
struct sd_cuda_pin {
	void *addr;
	sd_cu_device dev;
};

/* The driver's view of `addr`: SD_CU_MEMORYTYPE_*, or 0 when it does not know it. */
static unsigned sd_cuda_memory_type(const struct sd_cuda_api *api, const void *addr)
{
	unsigned type = 0;

	if (api->pointer_attribute(&type, SD_CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (sd_cu_ptr)(uintptr_t)addr) !=
	    SD_CU_SUCCESS)
		return 0;
	return type;
}

/*
 * Pin pageable host memory; *pin stays NULL when someone else already did.
 * When the driver refuses to pin (sandboxes, a pinned-memory limit), the
 * mmap still starts: the driver stages pageable memory itself, correct but
 * slower, and one WARNING says so.
 */
static doca_error_t sd_cuda_pin(const struct sd_cuda_api *api, sd_cu_device dev, void *addr, size_t len,
				struct sd_cuda_pin **pin)
{
	sd_cu_result res = api->host_register(addr, len, SD_CU_MEMHOSTREGISTER_PORTABLE);

	if (res == SD_CU_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
		return DOCA_SUCCESS;
	if (res != SD_CU_SUCCESS) {
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_WARNING, __FILE__, __LINE__, "doca_mmap_start",
				     "GPU %d cannot pin the %zu host bytes at %p (%s); its copies of this memory "
				     "go through the driver's staging buffers, which is slower",
				     dev, len, addr, sd_cuda_error_text(res));
		return DOCA_SUCCESS;
	}
	*pin = malloc(sizeof(**pin));
	if (*pin == NULL) {
		(void)api->host_unregister(addr);
		return DOCA_ERROR_NO_MEMORY;
	}
	(*pin)->addr = addr;
	(*pin)->dev = dev;
	return DOCA_SUCCESS;
}

doca_error_t sd_cuda_mem_attach(const struct sd_device *node, void *addr, size_t len, enum sd_mem_kind *kind,
				void **reg, char *why, size_t why_len)
{
	const struct sd_cuda_api *api = sd_cuda_load(why, why_len);
	struct sd_cuda_pin *pin = NULL;
	doca_error_t err = DOCA_SUCCESS;
	unsigned first, last;

	*reg = NULL;
	*kind = SD_MEM_HOST;
	if (api == NULL)
		return DOCA_ERROR_NOT_SUPPORTED;
	if (!sd_cuda_enter(node->engine_unit, why, why_len))
		return DOCA_ERROR_DRIVER;
	first = sd_cuda_memory_type(api, addr);
	last = sd_cuda_memory_type(api, (const uint8_t *)addr + len - 1);
	if (first == SD_CU_MEMORYTYPE_DEVICE || last == SD_CU_MEMORYTYPE_DEVICE) {
		if (first != last) {
			snprintf(why, why_len, "the range %p+%zu is only partly GPU memory", addr, len);
			err = DOCA_ERROR_INVALID_VALUE;
		}
		*kind = SD_MEM_GPU;
	} else if (first == 0 || last == 0) {
		err = sd_cuda_pin(api, node->engine_unit, addr, len, &pin);
		if (err != DOCA_SUCCESS)
			snprintf(why, why_len, "out of memory");
	}
	sd_cuda_leave();
	*reg = pin;
	return err;
}

void sd_cuda_mem_detach(void *reg)
{
	struct sd_cuda_pin *pin = reg;

	if (pin == NULL)
		return;
	if (sd_cuda_enter(pin->dev, NULL, 0)) {
		(void)sd_cuda_load(NULL, 0)->host_unregister(pin->addr);
		sd_cuda_leave();
	}
	free(pin);
}
