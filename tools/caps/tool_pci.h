/*
 * tool_pci.h - PCI address syntax, checked before any DOCA call so that a
 * mistyped --pci-addr is a usage error (softdoca-caps and softdoca-bench).
 */
#ifndef TOOL_PCI_H_
#define TOOL_PCI_H_

#include <stdbool.h>

/* dddd:bb:dd.f or bb:dd.f, hex digits in either case, device <= 1f, function <= 7. */
bool tool_pci_addr_valid(const char *text);

#endif /* TOOL_PCI_H_ */
