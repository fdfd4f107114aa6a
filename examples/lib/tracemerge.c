// SPDX-License-Identifier: MIT
/*
 * tracemerge: N CPUs of one ring buffer merged by time. See tracemerge.h.
 * Each CPU has at most one head: a loss, or else its next event. The
 * smallest head is returned once every CPU without a head was found empty
 * watermark ms after that head was written. When it was written is known
 * from above: no later than it was read, and, where the trace clock counts
 * nanoseconds, no later than its time stamp plus the difference between
 * CLOCK_MONOTONIC and the trace clock (the stats' "now ts", read about once
 * a second), nor than its time stamp plus the smallest gap between reading
 * an event and its time stamp seen lately. So a CPU's backlog goes out as
 * fast as it is read, with an idle CPU looked at up to four times per
 * watermark, not once per event. (The gaps alone fail when every event read so far
 * was late: a backlog found at the first look was then held to the pace it
 * was written at, as far behind the writer as it started.)
 */
#include "tracemerge.h"
#include "tracemap_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Set the handle's error text; returns code (a negative errno). */
#define fail(h, code, ...) \
	tracemap_error_set((h)->err, sizeof((h)->err), code, __VA_ARGS__)

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void tracemap_merge_close(struct tracemap_merge *m)
{
	for (int i = 0; i < m->n; i++)
		tracemap_close(&m->cpus[i].tm);
	free(m->cpus);
	free(m->pfds);
	m->cpus = NULL;
	m->pfds = NULL;
	m->n = 0;
}

static int open_one(struct tracemap_merge *m, const char *tracefs,
		    const char *instance, int cpu, int flags)
{
	struct tracemap_merge_cpu *c = &m->cpus[m->n];
	int r = tracemap_open(&c->tm, tracefs, instance, cpu,
			      flags | TRACEMAP_NONBLOCK);

	if (r)
		return fail(m, r, "%s", tracemap_error(&c->tm));
	m->pfds[m->n].fd = tracemap_fd(&c->tm);
	m->pfds[m->n].events = POLLIN;
	m->n++;
	return 0;
}

/* Whether the buffer's trace_clock counts nanoseconds (not counter, x86-tsc, uptime). */
static bool ns_clock(const char *tracefs, const char *instance)
{
	static const char *const ns[] = { "[local]", "[global]",   "[perf]",
					  "[mono]",  "[mono_raw]", "[boot]",
					  "[tai]" };
	char path[600], line[256] = "";
	FILE *f;

	if (!tracefs)
		tracefs = tracemap_tracefs();
	if (!tracefs)
		return false;
	if (instance)
		snprintf(path, sizeof(path), "%s/instances/%s/trace_clock",
			 tracefs, instance);
	else
		snprintf(path, sizeof(path), "%s/trace_clock", tracefs);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		if (strstr(line, ns[i]))
			return true;
	return false;
}

int tracemap_merge_open(struct tracemap_merge *m, const char *tracefs,
			const char *instance, const int *cpus, int n, int flags)
{
	int cap = cpus ? n : TRACEMAP_MERGE_MAX_CPUS, r = 0;
	char offline_err[sizeof(m->err)];

	memset(m, 0, sizeof(*m));
	m->watermark_ms = TRACEMAP_MERGE_WATERMARK_MS;
	if (cap <= 0 || cap > TRACEMAP_MERGE_MAX_CPUS)
		return fail(m, -EINVAL, "%d CPUs: need 1 to %d", cap,
			    TRACEMAP_MERGE_MAX_CPUS);
	m->cpus = calloc((size_t)cap, sizeof(*m->cpus));
	m->pfds = calloc((size_t)cap, sizeof(*m->pfds));
	if (!m->cpus || !m->pfds) {
		tracemap_merge_close(m);
		return fail(m, -ENOMEM, "out of memory");
	}
	for (int i = 0; i < cap && !r; i++) {
		r = open_one(m, tracefs, instance, cpus ? cpus[i] : i, flags);
		if (!cpus && r == -ENXIO) {
			m->offline++;
			memcpy(offline_err, m->err, sizeof(offline_err));
			r = 0;
		} else if (!cpus && r == -ENODEV && m->n > 0) {
			r = 1; /* past the last CPU */
		}
	}
	if (r < 0) {
		char err[sizeof(m->err)];

		memcpy(err, m->err, sizeof(err));
		tracemap_merge_close(m);
		memcpy(m->err, err, sizeof(err));
		return r;
	}
	/* The probe past the last CPU is no failure: no text from it. */
	m->ns_clock = ns_clock(tracefs, instance);
	m->late.ns = m->ns_clock;
	for (int i = 0; i < m->n; i++)
		m->cpus[i].gap[0] = m->cpus[i].gap[1] = INT64_MAX;
	if (m->offline)
		memcpy(m->err, offline_err, sizeof(m->err));
	else
		m->err[0] = '\0';
	return m->n;
}

void tracemap_merge_set_watermark(struct tracemap_merge *m, int ms)
{
	m->watermark_ms = ms < 0 ? 0 : ms;
}

void tracemap_merge_set_hook(struct tracemap_merge *m, tracemap_hook hook,
			     void *arg)
{
	for (int i = 0; i < m->n; i++)
		tracemap_set_hook(&m->cpus[i].tm, hook, arg);
}

void tracemap_merge_drain(struct tracemap_merge *m)
{
	m->draining = true;
	for (int i = 0; i < m->n; i++)
		m->cpus[i].empty = false; /* look once more at each */
}

struct tracemap *tracemap_merge_map(struct tracemap_merge *m, int idx)
{
	return idx >= 0 && idx < m->n ? &m->cpus[idx].tm : NULL;
}

int tracemap_merge_count(const struct tracemap_merge *m)
{
	return m->n;
}

int tracemap_merge_offline(const struct tracemap_merge *m)
{
	return m->offline;
}

const struct tracemap_merge_late *
tracemap_merge_late(const struct tracemap_merge *m)
{
	return &m->late;
}

const char *tracemap_merge_error(const struct tracemap_merge *m)
{
	return m->err;
}

static bool has_head(const struct tracemap_merge_cpu *c)
{
	return c->have_ev || c->have_loss;
}

/* Keep the smallest read time minus time stamp, per second of reading. */
static void note_gap(struct tracemap_merge_cpu *c)
{
	int64_t gap = (int64_t)(c->seen_at - c->ev.ts);

	if (c->seen_at - c->gap_since >= 1000000000u) {
		c->gap[1] = c->gap[0];
		c->gap[0] = INT64_MAX;
		c->gap_since = c->seen_at;
	}
	if (gap < c->gap[0])
		c->gap[0] = gap;
}

/*
 * CLOCK_MONOTONIC minus the trace clock, about once a second: the stats'
 * "now ts" (rounded to the nearest microsecond, so up to 500 ns ahead)
 * against the time after the read, plus 500 ns, so that a time stamp plus
 * the difference is no earlier than the moment it was taken (while the two
 * clocks run at one rate, and the trace clock is in sync across CPUs).
 */
static void clock_off_update(struct tracemap_merge *m, uint64_t now)
{
	uint64_t trace;
	int64_t off;

	if (m->clock_at && now - m->clock_at < 1000000000u)
		return;
	m->clock_at = now;
	trace = tracemap_clock_ns(&m->cpus[0].tm);
	off = (int64_t)(now_ns() - trace) + 500;
	/* a second apart: trace_clock was set (which resets the buffers) */
	if (m->clock_off_known && trace &&
	    (off - m->clock_off > 1000000000 ||
	     m->clock_off - off > 1000000000))
		m->late.clock_changed = true;
	m->clock_off_known = trace != 0;
	m->clock_off = off;
}

/*
 * When the head of CPU i was written at the latest, in CLOCK_MONOTONIC ns:
 * when it was read; its time stamp plus the difference of the clocks; or
 * its time stamp plus the largest of the CPUs' recent smallest gaps (an
 * idle CPU's clock is taken to be the others'). The earliest of these.
 */
static uint64_t written_by(const struct tracemap_merge *m, int i)
{
	const struct tracemap_merge_cpu *c = &m->cpus[i];
	int64_t gap = INT64_MIN;
	uint64_t at = c->seen_at;

	if (!m->ns_clock || !c->have_ev)
		return at;
	if (m->clock_off_known && c->ev.ts + (uint64_t)m->clock_off < at)
		at = c->ev.ts + (uint64_t)m->clock_off;
	for (int j = 0; j < m->n; j++) {
		const struct tracemap_merge_cpu *o = &m->cpus[j];
		int64_t g = o->gap[0] < o->gap[1] ? o->gap[0] : o->gap[1];

		if (g != INT64_MAX && g > gap)
			gap = g;
	}
	if (gap != INT64_MIN && c->ev.ts + (uint64_t)gap < at)
		at = c->ev.ts + (uint64_t)gap;
	return at;
}

/* Give CPU i a head if it has none: its next event, or a loss. */
static int refill(struct tracemap_merge *m, int i)
{
	struct tracemap_merge_cpu *c = &m->cpus[i];
	struct tracemap_item it;
	uint64_t before;
	int r;

	if (has_head(c))
		return 0;
	before = now_ns(); /* found empty no earlier than this */
	r = tracemap_read(&c->tm, &it);
	if (r < 0)
		return fail(m, r, "%s", tracemap_error(&c->tm));
	if (r == 0) {
		c->empty = true;
		c->checked_at = before;
		return 0;
	}
	if (it.is_loss) {
		c->loss = it.loss;
		c->loss_ts = it.loss.new_subbuf ? it.loss.ts : c->last_ts;
		c->have_loss = true;
	} else {
		c->ev = it.ev;
		c->have_ev = true;
	}
	c->empty = false;
	c->seen_at = now_ns();
	if (c->have_ev) {
		note_gap(c);
		if (m->ns_clock)
			clock_off_update(m, c->seen_at);
	}
	return 0;
}

static uint64_t head_ts(const struct tracemap_merge_cpu *c)
{
	return c->have_loss ? c->loss_ts : c->ev.ts;
}

/* The CPU with the earliest head (a loss before an event of the same time). */
static int earliest(const struct tracemap_merge *m)
{
	int best = -1;

	for (int i = 0; i < m->n; i++) {
		const struct tracemap_merge_cpu *c = &m->cpus[i], *b;

		if (!has_head(c))
			continue;
		if (best < 0) {
			best = i;
			continue;
		}
		b = &m->cpus[best];
		if (head_ts(c) < head_ts(b) ||
		    (head_ts(c) == head_ts(b) && c->have_loss && !b->have_loss))
			best = i;
	}
	return best;
}

/* poll() the CPUs (only those without a head when idle_only). */
static int wait_fds(struct tracemap_merge *m, int ms, bool idle_only)
{
	for (int i = 0; i < m->n; i++)
		m->pfds[i].fd = (!idle_only || !has_head(&m->cpus[i])) ?
					tracemap_fd(&m->cpus[i].tm) :
					-1;
	if (poll(m->pfds, (nfds_t)m->n, ms) < 0)
		return fail(m, -errno, "poll: %s", strerror(errno));
	return 0;
}

/*
 * Count an event whose stamp is behind the latest returned. Its CPU was last
 * found empty at checked_at, before the event was read: when that is after
 * the stamp (moved onto CLOCK_MONOTONIC, no earlier than it was taken), the
 * event became readable at least that much after the stamp.
 */
static void note_late(struct tracemap_merge *m,
		      const struct tracemap_merge_cpu *c)
{
	struct tracemap_merge_late *l = &m->late;
	uint64_t behind = m->out_ts - c->ev.ts, stamp_at;

	l->count++;
	if (behind > l->max_behind)
		l->max_behind = behind;
	if (!m->ns_clock || !m->clock_off_known)
		return;
	stamp_at = c->ev.ts + (uint64_t)m->clock_off;
	if (c->checked_at > stamp_at &&
	    c->checked_at - stamp_at > l->max_hidden_ns)
		l->max_hidden_ns = c->checked_at - stamp_at;
}

static void take(struct tracemap_merge *m, int i,
		 struct tracemap_merge_item *it)
{
	struct tracemap_merge_cpu *c = &m->cpus[i];

	memset(it, 0, sizeof(*it));
	it->idx = i;
	it->cpu = tracemap_cpu(&c->tm);
	if (c->have_loss) {
		it->is_loss = true;
		it->ts = c->loss_ts;
		it->loss = c->loss;
		c->have_loss = false;
	} else {
		if (m->out_any && c->ev.ts < m->out_ts)
			note_late(m, c);
		else
			m->out_ts = c->ev.ts;
		m->out_any = true;
		it->ts = c->ev.ts;
		it->ev = c->ev;
		c->last_ts = c->ev.ts;
		c->have_ev = false;
	}
}

int tracemap_merge_next(struct tracemap_merge *m,
			struct tracemap_merge_item *it, int timeout_ms)
{
	uint64_t start = now_ns();
	bool waited = false;
	int r;

	for (;;) {
		uint64_t need, now;
		int best, idle_ms = -1;

		for (int i = 0; i < m->n; i++) {
			if (!has_head(&m->cpus[i]) &&
			    (!m->cpus[i].empty || waited)) {
				r = refill(m, i);
				if (r)
					return r;
			}
		}
		waited = false;
		best = earliest(m);
		now = now_ns();
		if (best < 0) {
			/* every CPU is empty */
			uint64_t spent = (now - start) / 1000000;

			if (m->draining ||
			    (timeout_ms >= 0 && spent >= (uint64_t)timeout_ms))
				return 0;
			r = wait_fds(m,
				     timeout_ms < 0 ? -1 :
						      timeout_ms - (int)spent,
				     false);
			if (r)
				return r;
			waited = true;
			continue;
		}
		if (m->draining) {
			take(m, best, it);
			return 1;
		}
		/*
		 * Every empty CPU must have been looked at watermark after the
		 * head was written; not more often than four times a
		 * watermark, so that a stream wakes an idle CPU in batches.
		 */
		need = written_by(m, best) +
		       (uint64_t)m->watermark_ms * 1000000;
		for (int i = 0; i < m->n; i++) {
			const struct tracemap_merge_cpu *c = &m->cpus[i];
			uint64_t wake = c->checked_at +
					(uint64_t)m->watermark_ms * 250000;

			if (!has_head(c) && c->checked_at < need) {
				wake = wake > need ? wake : need;
				idle_ms = now >= wake ?
						  0 :
						  (int)((wake - now + 999999) /
							1000000);
				break;
			}
		}
		if (idle_ms < 0) {
			take(m, best, it);
			return 1;
		}
		if (idle_ms > 0) {
			r = wait_fds(m, idle_ms, true);
			if (r)
				return r;
		}
		waited = true; /* look at the empty CPUs again */
	}
}
