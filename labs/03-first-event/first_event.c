// SPDX-License-Identifier: MIT
/*
 * Lab 03: find the reader sub-buffer from its ID and decode its first event
 * by hand.
 *   ./first_event CPU
 * Output: "name value" lines: reader.id, offset (of the reader sub-buffer in
 * the mapping), time_stamp, commit, type_len, time_delta, length (of the
 * whole event), next_time_delta (of the record after it, when the data goes
 * on), common_type, common_pid, buf (an ftrace/print text, without its
 * newline).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "lab.h"

int main(int argc, char **argv)
{
	struct lab_map m;
	size_t offset = 0;
	uint64_t time_stamp = 0;
	uint32_t commit = 0, type_len = 0, time_delta = 0, length = 0;
	uint32_t next_time_delta = 0;
	const char *subbuf = NULL, *payload = NULL, *next = NULL;

	if (argc != 2) {
		fprintf(stderr, "usage: first_event CPU\n");
		return 2;
	}
	lab_map(&m, atoi(argv[1]), O_NONBLOCK);
	if (ioctl(m.fd, TRACE_MMAP_IOCTL_GET_READER) < 0)
		lab_die("TRACE_MMAP_IOCTL_GET_READER");
	const struct trace_buffer_meta *meta = m.meta;

	printf("reader.id %u\n", meta->reader.id);

	/* TODO 1: the reader sub-buffer: its offset in the mapping and its address */
	/* WHY 1: sub-buffer ID i starts at meta_page_size + i * subbuf_size: the meta-page comes first and, since 6.12, is as large as a sub-buffer. */
	offset = meta->meta_page_size +
		 (size_t)meta->reader.id * meta->subbuf_size;
	subbuf = (const char *)meta + offset;
	/* END TODO 1 */
	printf("offset %zu\n", offset);

	/* TODO 2: its header: the u64 time_stamp, and the data bytes from the commit word */
	/* WHY 2: the header is a u64 time stamp and a commit word whose low bits are the data length; its high bits are flags (missed events), so they are masked off. */
	memcpy(&time_stamp, subbuf, sizeof(time_stamp));
	commit = (uint32_t)(*(const uint64_t *)(subbuf + 8));
	commit &= ~(LAB_MISSED_EVENTS | LAB_MISSED_STORED);
	/* END TODO 2 */
	printf("time_stamp %llu\n", (unsigned long long)time_stamp);
	printf("commit %u\n", commit);
	if (!subbuf || commit == 0) {
		fprintf(stderr,
			"first_event: the reader sub-buffer is empty\n");
		return 1;
	}

	/* TODO 3: the first event's header at data (byte 16): type_len, time_delta, length, payload; then the time_delta of the record after it (next), if commit goes on */
	/* WHY 3: the event header's low 5 bits are type_len, the rest time_delta; type_len 1..28 is the length in 4-byte words, 0 means the next word, array[0], holds the payload length + 4 (the event is 4 + array[0] bytes, the payload after that word). The first event's time is the sub-buffer's time_stamp (time_delta 0); the next record starts length bytes on, and its time_delta counts from the event before it. */
	const uint32_t *event = (const uint32_t *)(subbuf + LAB_SUBBUF_HEADER);

	type_len = event[0] & 0x1f;
	time_delta = event[0] >> 5;
	if (type_len == 0) {
		length = 4 + event[1];
		payload = (const char *)&event[2];
	} else if (type_len <= 28) {
		length = 4 + type_len * 4;
		payload = (const char *)&event[1];
	}
	if (length && length < commit) {
		next = (const char *)event + length;
		next_time_delta = *(const uint32_t *)next >> 5;
	}
	/* END TODO 3 */
	printf("type_len %u\n", type_len);
	printf("time_delta %u\n", time_delta);
	printf("length %u\n", length);
	if (next)
		printf("next_time_delta %u\n", next_time_delta);
	if (!payload) {
		fprintf(stderr,
			"first_event: the first event carries no data\n");
		return 1;
	}

	/* TODO 4: the payload: common_type (u16 at 0), common_pid (int at 4), buf (at 16) */
	/* WHY 4: every event's payload starts with struct trace_entry (common_type, then common_pid at 4), and ftrace/print's text starts after the ip field, at 16. */
	uint16_t common_type;
	int32_t common_pid;

	memcpy(&common_type, payload, sizeof(common_type));
	memcpy(&common_pid, payload + 4, sizeof(common_pid));
	printf("common_type %u\n", common_type);
	printf("common_pid %d\n", common_pid);
	printf("buf %.*s\n", (int)strcspn(payload + 16, "\n"), payload + 16);
	/* END TODO 4 */
	lab_unmap(&m);
	return 0;
}
