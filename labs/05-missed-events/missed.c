// SPDX-License-Identifier: MIT
/*
 * Lab 05: account for every event of a sequenced producer: those read, those
 * the ring buffer overwrote (overwrite mode) and those it refused
 * (producer/consumer mode).
 *   ./missed CPU
 * Drains CPU's buffer without blocking. The producer is the project's
 * seq_producer module: its seq_producer:seq_event events carry a u64 seq at
 * payload offset 8, numbered from 0. Output, one "name value" line each:
 * events (read), missed (as the sub-buffers report it), first_seq, last_seq,
 * gaps (numbers from 0 on never seen), overrun (meta-page), dropped (stats).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "lab.h"

static uint64_t events, missed, gaps;
static int64_t first_seq = -1, last_seq = -1;
static int seq_event_id; /* the type ID of seq_producer:seq_event */

/* A new reader sub-buffer: did the ring buffer lose events before it? */
static void account_subbuf(const char *subbuf, size_t size)
{
	/* TODO 1: add the missed count to missed (commit flags; the count is stored after the data) */
	/* WHY 1: the commit word's flag bits say events were lost before this sub-buffer, and with the 'stored' flag the count follows the data; the data length is the commit masked. */
	uint32_t word = (uint32_t)(*(const volatile uint64_t *)(subbuf + 8));

	if (word & LAB_MISSED_STORED) {
		unsigned long count;

		memcpy(&count,
		       subbuf + LAB_SUBBUF_HEADER + lab_commit(subbuf, size),
		       sizeof(count));
		missed += count;
	} else if (word & LAB_MISSED_EVENTS) {
		fprintf(stderr,
			"missed: events lost, count unknown (no room to store it)\n");
	}
	/* END TODO 1 */
	/* SKEL: (void)subbuf; (void)size; */
}

/* One event: count it, and if it is a seq_event, follow its sequence. */
static void account_event(const struct tracemap_event *ev)
{
	events++;
	/* TODO 2: for a seq_event, read seq; keep first_seq and last_seq; add the numbers skipped to gaps */
	/* WHY 2: seq numbers that jump say which events were lost wherever they were lost, so the gaps are added up across sub-buffers, not only at the first. */
	uint16_t type;
	uint64_t seq;

	memcpy(&type, ev->data, sizeof(type));
	if (type != seq_event_id)
		return;
	memcpy(&seq, (const char *)ev->data + 8, sizeof(seq));
	if (first_seq < 0)
		first_seq = (int64_t)seq;
	if ((int64_t)seq > last_seq + 1) /* the producer started at 0 */
		gaps += seq - (uint64_t)(last_seq + 1);
	last_seq = (int64_t)seq;
	/* END TODO 2 */
	/* SKEL: (void)ev; */
}

/* The "dropped events:" line of per_cpu/cpuN/stats. */
static uint64_t dropped_events(int cpu)
{
	uint64_t dropped = 0;
	/* TODO 3: read per_cpu/cpuCPU/stats and return its "dropped events" count */
	/* WHY 3: 'dropped events' in per_cpu/cpuN/stats counts what the buffer refused when overwrite is off, which the sub-buffers cannot show. */
	char path[128], line[128];

	snprintf(path, sizeof(path), LAB_TRACEFS "/per_cpu/cpu%d/stats", cpu);
	FILE *f = fopen(path, "r");

	if (!f)
		lab_die(path);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "dropped events: %" SCNu64, &dropped) == 1)
			break;
	fclose(f);
	/* END TODO 3 */
	/* SKEL: (void)cpu; */
	return dropped;
}

int main(int argc, char **argv)
{
	struct lab_map m;
	struct lab_events it;
	struct tracemap_event ev;
	int64_t id = -1;
	uint32_t pos = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: missed CPU\n");
		return 2;
	}
	int cpu = atoi(argv[1]);

	seq_event_id = lab_event_id("seq_producer/seq_event");
	lab_map(&m, cpu, O_NONBLOCK);
	for (;;) {
		if (ioctl(m.fd, TRACE_MMAP_IOCTL_GET_READER) < 0)
			lab_die("TRACE_MMAP_IOCTL_GET_READER");
		const struct trace_buffer_meta *meta = m.meta;
		const char *subbuf = lab_subbuf(&m, meta->reader.id);

		if (meta->reader.id != id) {
			id = meta->reader.id;
			pos = 0;
			account_subbuf(subbuf, meta->subbuf_size);
		} else if (pos == meta->reader.read) {
			break; /* nothing new: drained */
		}
		lab_events(&it, subbuf, meta->subbuf_size, pos,
			   meta->reader.read);
		while (lab_next_event(&it, &ev))
			account_event(&ev);
		pos = meta->reader.read;
	}
	printf("events %" PRIu64 "\nmissed %" PRIu64 "\n", events, missed);
	printf("first_seq %" PRId64 "\nlast_seq %" PRId64 "\ngaps %" PRIu64
	       "\n",
	       first_seq, last_seq, gaps);
	printf("overrun %llu\n", (unsigned long long)m.meta->overrun);
	printf("dropped %" PRIu64 "\n", dropped_events(cpu));
	lab_unmap(&m);
	return 0;
}
