/*
 * doca_dev.h on its own: it compiles as
 * the first and only DOCA include, with -Wall -Werror, and carries the
 * exact enum and size values programs rely on.  Deliberately no harness:
 * the harness would pull doca_error.h in first.
 */
#include <doca_dev.h>

#include <stdio.h>

#define EXPECT(cond)                                                                               \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond);                 \
			failed = 1;                                                                \
		}                                                                                  \
	} while (0)

int main(void)
{
	int failed = 0;
	/* the prototypes are usable through function pointers of the exact types */
	doca_error_t (*create)(struct doca_devinfo ***, uint32_t *) = doca_devinfo_create_list;
	doca_error_t (*rep_list)(struct doca_dev *, int, struct doca_devinfo_rep ***, uint32_t *) =
		doca_devinfo_rep_create_list;
	doca_error_t (*func_type)(const struct doca_devinfo_rep *, enum doca_pci_func_type *) =
		doca_devinfo_rep_get_pci_func_type;
	struct doca_devinfo *(*as_info)(const struct doca_dev *) = doca_dev_as_devinfo;

	EXPECT(create != NULL && rep_list != NULL && func_type != NULL && as_info != NULL);
	EXPECT(DOCA_DEVINFO_REP_FILTER_ALL == 0);
	EXPECT(DOCA_DEVINFO_REP_FILTER_NET == 2);
	EXPECT(DOCA_DEVINFO_REP_FILTER_EMULATED == 4);
	EXPECT(DOCA_DEVINFO_VUID_SIZE == 128);
	EXPECT(DOCA_DEVINFO_IPV4_ADDR_SIZE == 4);
	EXPECT(DOCA_DEVINFO_IPV6_ADDR_SIZE == 16);
	EXPECT(DOCA_DEVINFO_MAC_ADDR_SIZE == 6);
	EXPECT(DOCA_DEVINFO_IFACE_NAME_SIZE == 256);
	EXPECT(DOCA_DEVINFO_IBDEV_NAME_SIZE == 64);
	EXPECT(DOCA_DEVINFO_PCI_ADDR_SIZE == 13);
	EXPECT(DOCA_DEVINFO_PCI_BDF_SIZE == 8);
	EXPECT(DOCA_DEVINFO_REP_VUID_SIZE == 128);
	EXPECT(DOCA_DEVINFO_REP_PCI_ADDR_SIZE == 13);
	EXPECT(DOCA_DEVINFO_REP_PCI_BDF_SIZE == 8);
	EXPECT(doca_dev_close(NULL) == DOCA_SUCCESS);
	if (!failed)
		printf("ok   doca_dev.h stands alone\n");
	return failed;
}
