/* SPDX-License-Identifier: MIT */
/*
 * tracemerge: the CPUs of one ring buffer as one stream in time order, as
 * trace_pipe gives them, read through the mapping (tracemap.h). One poll()
 * set for all CPUs; each loss comes in the stream where it happened (before
 * the events of the sub-buffer that reported it).
 * Copy tracemerge.c and tracemerge.h together with the tracemap files.
 *
 * The watermark: an event is returned only when every CPU either has a
 * later event ready or was found empty at least watermark_ms after the
 * event was written (known from above: when it was read or, with a trace
 * clock in nanoseconds, its time stamp moved to CLOCK_MONOTONIC by the
 * difference between the two clocks, read about once a second from
 * per_cpu/cpuN/stats, or by the smallest gap between time stamp and
 * reading seen lately). A backlog goes out as fast as it is read, one
 * found at the first look too; an idle CPU is looked at (one GET_READER)
 * about four times per watermark while events flow. An event that another
 * CPU commits more than watermark_ms after taking its time stamp can come
 * out of order (a virtual CPU that the host stops between the two, say);
 * tracemap_merge_late() counts those. tracemap_merge_drain() stops the waiting: what the
 * buffers hold is returned in order without looking at idle CPUs again
 * (for --nonblock and for the last read before exit).
 */
#ifndef TRACEMERGE_H
#define TRACEMERGE_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "tracemap.h"

#define TRACEMAP_MERGE_WATERMARK_MS 10 /* the default watermark */
#define TRACEMAP_MERGE_MAX_CPUS 4096 /* the most CPUs a merge takes */

/* One CPU of the merge. The fields are private to tracemerge.c. */
struct tracemap_merge_cpu {
	struct tracemap tm;
	struct tracemap_event ev; /* the next event, when have_ev */
	/* a loss to return before it, when have_loss */
	struct tracemap_reader loss;
	uint64_t loss_ts, last_ts;
	uint64_t seen_at; /* CLOCK_MONOTONIC ns when the head was read */
	uint64_t checked_at; /* ... when the CPU was last found empty */
	/*
	 * The smallest read time minus time stamp of its events, this second
	 * and the last (gap[0], gap[1]; INT64_MAX: none): a trace clock in ns
	 * against CLOCK_MONOTONIC, from gap_since on.
	 */
	int64_t gap[2];
	uint64_t gap_since;
	bool have_ev, have_loss, empty;
};

/**
 * struct tracemap_merge_item - what tracemap_merge_next() returns
 * @idx: index of the CPU in the merge: tracemap_merge_map(m, idx)
 * @cpu: its CPU number
 * @is_loss: a loss (@loss) or an event (@ev)
 * @ts: the event's, or the loss's: the time stamp of the sub-buffer that
 *	reported it, or else the CPU's last event's
 * @ev: the event, when !@is_loss
 * @loss: loss, source, count as tracemap reported
 */
struct tracemap_merge_item {
	int idx;
	int cpu;
	bool is_loss;
	uint64_t ts;
	struct tracemap_event ev;
	struct tracemap_reader loss;
};

/**
 * struct tracemap_merge_late - events returned after one with a later stamp
 * @count: how many
 * @max_behind: the most one's time stamp was behind the latest stamp
 *	returned before it, in the trace clock's units (ns when @ns)
 * @max_hidden_ns: the longest one's CPU was found empty after its time
 *	stamp, in CLOCK_MONOTONIC ns (at least, up to the drift between the
 *	clocks; 0: never, or not known): the event became readable later
 *	than that after its stamp was taken
 * @ns: the trace clock counts nanoseconds (local, global, mono...)
 * @clock_changed: the trace clock jumped by more than a second against
 *	CLOCK_MONOTONIC while reading: trace_clock was set, which resets the
 *	buffers (seen only when the merge read it again, about once a second)
 */
struct tracemap_merge_late {
	uint64_t count;
	uint64_t max_behind;
	uint64_t max_hidden_ns;
	bool ns;
	bool clock_changed;
};

/* N CPUs of one buffer. The fields are private to tracemerge.c. */
struct tracemap_merge {
	struct tracemap_merge_cpu *cpus;
	struct pollfd *pfds;
	int n;
	int offline; /* CPUs skipped at open as offline (message: the last) */
	int watermark_ms;
	bool draining;
	bool ns_clock; /* trace_clock counts nanoseconds (local, global, mono...) */
	/*
	 * CLOCK_MONOTONIC minus the trace clock, at most (the "now ts" of
	 * the stats, read at clock_at ns; clock_off_known when it could be).
	 */
	bool clock_off_known;
	int64_t clock_off;
	uint64_t clock_at;
	uint64_t out_ts; /* the latest time stamp returned, when out_any */
	bool out_any;
	struct tracemap_merge_late late;
	char err[512];
};

/**
 * tracemap_merge_open() - open the CPUs of one buffer as one stream
 * @m: the merge to set up
 * @tracefs: the tracefs mount (NULL: tracemap_tracefs())
 * @instance: NULL for the top-level buffer, else instances/<instance>
 * @cpus: the CPUs cpus[0..n-1], or NULL: every online CPU of the buffer
 * @n: the number of @cpus (ignored when @cpus is NULL)
 * @flags: the tracemap_open() flags (TRACEMAP_NONBLOCK is always added:
 *	the merge waits in poll())
 *
 * With @cpus NULL, offline CPUs are skipped and counted in
 * tracemap_merge_offline(); tracemap_merge_error() then names the last
 * one.
 *
 * Return: the number of CPUs opened, or -errno (the message in
 * tracemap_merge_error()): -EINVAL when @cpus is given and @n is not 1
 * to TRACEMAP_MERGE_MAX_CPUS, -ENOMEM, or what tracemap_open() returned
 * for a CPU.
 */
int tracemap_merge_open(struct tracemap_merge *m, const char *tracefs,
			const char *instance, const int *cpus, int n,
			int flags);
/**
 * tracemap_merge_set_watermark() - set the watermark
 * @m: the merge
 * @ms: the watermark in ms (default TRACEMAP_MERGE_WATERMARK_MS); 0 (or a
 *	negative value) waits not at all
 */
void tracemap_merge_set_watermark(struct tracemap_merge *m, int ms);
/**
 * tracemap_merge_set_hook() - tracemap_set_hook() on every CPU of the merge
 * @m: the merge, open
 * @hook: the hook (tracemap_dat_hook(), say), or NULL for none
 * @arg: its first argument
 */
void tracemap_merge_set_hook(struct tracemap_merge *m, tracemap_hook hook,
			     void *arg);
/**
 * tracemap_merge_next() - the next event or loss in time order
 * @m: the merge
 * @it: filled with the event or loss
 * @timeout_ms: how long to wait for one; -1: wait until something comes
 *
 * Return: 1 and *@it filled; 0 when nothing came within @timeout_ms (after
 * tracemap_merge_drain(): 0 as soon as the buffers are empty); -errno on
 * an error (-EINTR: a signal interrupted the wait).
 */
int tracemap_merge_next(struct tracemap_merge *m,
			struct tracemap_merge_item *it, int timeout_ms);
/**
 * tracemap_merge_drain() - stop waiting
 * @m: the merge
 *
 * From now on, return what the buffers hold in order, without waiting.
 */
void tracemap_merge_drain(struct tracemap_merge *m);
/**
 * tracemap_merge_map() - the reader of one CPU of the merge
 * @m: the merge
 * @idx: the CPU's index (0..tracemap_merge_count()-1)
 *
 * Return: the reader, or NULL when @idx is out of range.
 */
struct tracemap *tracemap_merge_map(struct tracemap_merge *m, int idx);
/**
 * tracemap_merge_count() - the number of CPUs in the merge
 * @m: the merge
 *
 * Return: the number of CPUs opened (0 when closed).
 */
int tracemap_merge_count(const struct tracemap_merge *m);
/**
 * tracemap_merge_offline() - CPUs skipped as offline
 * @m: the merge
 *
 * Return: the CPUs that tracemap_merge_open() skipped as offline (with cpus
 * NULL).
 */
int tracemap_merge_offline(const struct tracemap_merge *m);
/**
 * tracemap_merge_late() - events that came out of time order
 * @m: the merge
 *
 * An event that became readable more than the watermark after its CPU took
 * its time stamp (a slow commit, or an event nested in one) can be
 * returned after an event of another CPU with a later stamp: the merge
 * cannot take back what it returned, so it counts it. Setting trace_clock
 * during the stream resets the buffers: stamps can go back then too.
 *
 * Return: the counts since tracemap_merge_open() (struct
 * tracemap_merge_late); all zero when the stream was in order.
 */
const struct tracemap_merge_late *
tracemap_merge_late(const struct tracemap_merge *m);
/**
 * tracemap_merge_error() - the text of the last failure
 * @m: the merge
 *
 * Return: the text of the last failure; after a tracemap_merge_open() that
 * skipped offline CPUs, the message of the last one.
 */
const char *tracemap_merge_error(const struct tracemap_merge *m);
/**
 * tracemap_merge_close() - close every CPU of the merge and free it
 * @m: the merge
 */
void tracemap_merge_close(struct tracemap_merge *m);

#endif /* TRACEMERGE_H */
