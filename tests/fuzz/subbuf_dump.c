// SPDX-License-Identifier: MIT
/*
 * For capture-seeds.sh: the sub-buffers of raw captures (the bytes read()
 * of trace_pipe_raw returned, SIZE bytes a sub-buffer), decoded by the
 * library, so that the script knows nothing of the format itself:
 *   subbuf_dump SIZE FILE...
 * prints for each sub-buffer "subbuf FILE OFFSET END" (END: the bytes in
 * use, tracemap_subbuf_end()), then "event TYPE HEX" for each of its
 * events (HEX: the payload). Exit 1 on a file that cannot be read or a
 * sub-buffer that does not decode.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracemap.h"

static int dump(const char *file, size_t size, unsigned char *buf)
{
	FILE *f = fopen(file, "rb");
	long off = 0;
	int ret = 0;

	if (!f) {
		fprintf(stderr, "subbuf_dump: %s: %s\n", file, strerror(errno));
		return 1;
	}
	while (fread(buf, 1, size, f) == size) {
		struct tracemap_subbuf sb;
		struct tracemap_event ev;
		int r = tracemap_subbuf_load(&sb, NULL, buf, size, false);

		while (!r && (r = tracemap_subbuf_next(&sb, &ev)) > 0) {
			const unsigned char *p = ev.data;

			printf("event %d ", tracemap_event_type(&ev));
			for (uint32_t i = 0; i < ev.size; i++)
				printf("%02x", p[i]);
			printf("\n");
		}
		if (r < 0) {
			fprintf(stderr,
				"subbuf_dump: %s: the sub-buffer at byte %ld does not decode (%s)\n",
				file, off, strerror(-r));
			ret = 1;
			break;
		}
		printf("subbuf %s %ld %u\n", file, off,
		       tracemap_subbuf_end(&sb));
		off += (long)size;
	}
	fclose(f);
	return ret;
}

int main(int argc, char **argv)
{
	long size = argc > 2 ? strtol(argv[1], NULL, 10) : 0;
	unsigned char *buf;
	int ret = 0;

	if (size < 64 || size > (1L << 24)) {
		fprintf(stderr, "usage: subbuf_dump SIZE FILE...\n");
		return 2;
	}
	buf = malloc((size_t)size);
	if (!buf)
		return 1;
	for (int i = 2; i < argc; i++)
		ret |= dump(argv[i], (size_t)size, buf);
	free(buf);
	return ret;
}
