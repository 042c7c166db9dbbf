/*
 * Each memory header compiles on its own with its documented includes
 * (every hdr_*.c file includes exactly one header), and the
 * inline get_by_addr / get_by_data helpers reach the exported symbol.
 */
#include "sd_test.h"

int hdr_mmap_only(void);
int hdr_buf_only(void);
int hdr_inventory_only(void);
int hdr_pool_only(void);
int hdr_array_only(void);

static void each_header_stands_alone(void)
{
	CHECK(hdr_mmap_only());
	CHECK(hdr_buf_only());
	CHECK(hdr_inventory_only());
	CHECK(hdr_pool_only());
	CHECK(hdr_array_only());
}

int main(void)
{
	SD_RUN(each_header_stands_alone);
	return sd_test_done();
}
