// SPDX-License-Identifier: MIT
/*
 * Lab 08: seal a mapping with mseal() (Linux 6.10) and watch each operation
 * it blocks fail.
 *   ./seal
 * Output, one "operation | result | errno" row each (examples/common/result_row.h):
 * the seal, whether smaps shows it (on p, and not on other, which is not
 * sealed), each operation tried on the sealed mapping and one on other,
 * whether the data survived, and madvise() on read-only and on writable
 * sealed memory.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mseal_compat.h"
#include "result_row.h"

static size_t page;

static char *map_anon(size_t pages, int prot)
{
	char *p = mmap(NULL, pages * page, prot, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (p == MAP_FAILED) {
		perror("seal: mmap");
		exit(1);
	}
	return p;
}

/* Does the VmFlags line of the /proc/self/smaps entry starting at p say sl? */
static bool smaps_sealed(const char *p)
{
	bool sealed = false;
	/* TODO 2: find the entry of /proc/self/smaps that starts at p; look for the word "sl" in its VmFlags line */
	/* WHY 2: each smaps entry opens with its address range, so p's entry is the one whose first line starts with p's address; sl in its VmFlags is where the seal shows from user space. */
	char line[512], start[32];
	bool in = false;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return false;
	snprintf(start, sizeof(start), "%lx-", (unsigned long)p);
	while (fgets(line, sizeof(line), f)) {
		if (strchr(line, '-') && !strncmp(line, start, strlen(start)))
			in = true;
		else if (in && !strncmp(line, "VmFlags:", 8))
			break;
	}
	fclose(f);
	sealed = in && (strstr(line, " sl ") || strstr(line, " sl\n"));
	/* END TODO 2 */
	/* SKEL: (void)p; */
	return sealed;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0); /* rows and errors in order */
	page = (size_t)sysconf(_SC_PAGESIZE);
	char *p = map_anon(2, PROT_READ | PROT_WRITE);
	char *other = map_anon(2, PROT_READ | PROT_WRITE);
	int rc = -1;

	strcpy(p, "sealed data");
	result_header();
	/* TODO 1: seal both pages of p (mseal_compat.h has sys_mseal) */
	/* WHY 1: mseal takes a page-aligned start, a length of whole pages and flags 0; sealing both pages is what makes a later change to any part of p refused. */
	rc = sys_mseal(p, 2 * page, 0);
	/* END TODO 1 */
	CALL_ROW("mseal both pages", rc == 0);
	result_row("-> smaps VmFlags has sl", smaps_sealed(p) ? "yes" : "no",
		   0);
	result_row("-> the same for other (not sealed)",
		   smaps_sealed(other) ? "yes" : "no", 0);

	/* TODO 3: try each operation on the sealed pages with CALL_ROW, in this order and with these rows: "mprotect PROT_READ"; "munmap of the second page"; "mremap shrink to one page"; "mremap move onto another mapping" (onto other, MREMAP_MAYMOVE | MREMAP_FIXED); "mmap MAP_FIXED over it"; then, for contrast, "mremap shrink other (not sealed)" to one page */
	/* WHY 3: each call that would change a sealed mapping's layout or protection is refused with EPERM before it does anything, so p's data and size stay as they were; the same shrink of other, which is not sealed, goes through, and mremap() then returns an address, not 0. */
	CALL_ROW("mprotect PROT_READ", mprotect(p, 2 * page, PROT_READ) == 0);
	CALL_ROW("munmap of the second page", munmap(p + page, page) == 0);
	CALL_ROW("mremap shrink to one page",
		 mremap(p, 2 * page, page, 0) != MAP_FAILED);
	CALL_ROW("mremap move onto another mapping",
		 mremap(p, 2 * page, 2 * page, MREMAP_MAYMOVE | MREMAP_FIXED,
			other) != MAP_FAILED);
	CALL_ROW("mmap MAP_FIXED over it",
		 mmap(p, page, PROT_READ,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
		      0) != MAP_FAILED);
	CALL_ROW("mremap shrink other (not sealed)",
		 mremap(other, 2 * page, page, 0) != MAP_FAILED);
	/* END TODO 3 */
	result_row("-> the data afterwards",
		   strcmp(p, "sealed data") ? "changed" : "kept", 0);

	/* Discarding pages is writing zeros: refused on read-only memory only. */
	char *ro = map_anon(1, PROT_READ | PROT_WRITE);
	char *rw = map_anon(1, PROT_READ | PROT_WRITE);

	strcpy(ro, "kept");
	/* TODO 4: make ro read-only, seal ro and rw, then try MADV_DONTNEED on each with CALL_ROW, as rows "madvise MADV_DONTNEED (read-only)" and "madvise MADV_DONTNEED (writable)" */
	/* WHY 4: discarding pages is like writing zeros, so a seal refuses it only on memory that was read-only when sealed; writable sealed memory may still be discarded. */
	if (mprotect(ro, page, PROT_READ) || sys_mseal(ro, page, 0) ||
	    sys_mseal(rw, page, 0)) {
		perror("seal: mprotect or mseal");
		return 1;
	}
	CALL_ROW("madvise MADV_DONTNEED (read-only)",
		 madvise(ro, page, MADV_DONTNEED) == 0);
	CALL_ROW("madvise MADV_DONTNEED (writable)",
		 madvise(rw, page, MADV_DONTNEED) == 0);
	/* END TODO 4 */
	/* SKEL: (void)rw; */
	result_row("-> the read-only data afterwards",
		   strcmp(ro, "kept") ? "lost" : "kept", 0);
	return 0;
}
