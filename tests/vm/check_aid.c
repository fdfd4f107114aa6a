// SPDX-License-Identifier: MIT
/*
 * check_aid: what the lab checks (busybox sh) cannot do themselves.
 *   check_aid as-pid PID CMD [ARG...]
 *	run CMD as process PID (clone3() with set_tid: needs CAP_SYS_ADMIN
 *	and PID < /proc/sys/kernel/pid_max; no CONFIG_CHECKPOINT_RESTORE),
 *	wait for it and exit with its status; exit 3 when the kernel refuses
 *	that PID, with one line on stderr saying why.
 *   check_aid reader-head CPU
 *	map CPU's ring buffer (no GET_READER: the reader sub-buffer stays the
 *	one the last reader left) and print its header as the kernel wrote it:
 *	"time_stamp N" (the u64 at byte 0) and "commit_low N" (the low 32 bits
 *	of the commit word, the missed-event flags left in); then, as the
 *	library decodes the sub-buffer, "first_delta N" (the time_delta of
 *	the record at byte 16) and, when there is a second data event,
 *	"next_at N" (its offset in the data area) and "event_gap N" (its time
 *	stamp minus the first event's).
 *   check_aid fail-get-reader ERRNO CMD [ARG...]
 *	run CMD traced (ptrace), wait for it and exit with its status; each
 *	ioctl(fd, TRACE_MMAP_IOCTL_GET_READER) it makes is skipped and returns
 *	-1 with errno ERRNO (a number), as if the kernel had refused it. x86_64
 *	only (the registers it sets): elsewhere it exits 3, saying so.
 *   check_aid meta-lost CPU LOST CMD [ARG...]
 *	run CMD traced (ptrace), wait for it and exit with its status; each
 *	mmap() it makes of a trace_pipe_raw maps instead a copy of CPU's
 *	meta-page (meta_page_size bytes, in a memfd) whose reader.lost_events
 *	is LOST: a count the kernel can report (an unsigned long) but that a
 *	guest cannot produce in time above 2^32 - 1. x86_64 only, as above.
 *   check_aid records CPU
 *	read CPU's ring buffer through the mapping (non-blocking
 *	GET_READER until nothing new: it consumes) and print one line per
 *	reader sub-buffer, "ID: REC...", each record as written: "eT/LEN"
 *	a data event of type T, "d/LEN" a discarded event (padding with a
 *	time delta), "t/8" a time extend, "s/8" a time stamp; padding that
 *	ends the data is not printed. LEN counts the record's header. Each
 *	line ends with "read+N": what that GET_READER added to the
 *	meta-page's read. It stops after 4 * nr_subbufs GET_READER calls if
 *	data keeps coming.
 *   check_aid tail-records CPU
 *	print the number of data events in the sub-buffer the writer is on
 *	(the newest time stamp), read through the mapping; consumes nothing.
 *   check_aid tail-list CPU
 *	print that sub-buffer's records as records does ("ID: REC..."),
 *	without "read+N"; consumes nothing.
 *   check_aid offsets CPU
 *	map CPU's ring buffer whole and print "meta_page_size N" and
 *	"subbuf_size N"; then, for each page offset P from 1 to 2 *
 *	subbuf_size / page + 1, map subbuf_size bytes alone at that offset
 *	and print "pgoff P: same" (the kernel maps there the pages the whole
 *	mapping has at P pages, compared byte by byte), "pgoff P: differs",
 *	or "pgoff P: EINVAL" (any other errno by its name). What a 6.10 and
 *	a 6.12 layout tell apart: where the sub-buffers start.
 *   check_aid openat-null DFD
 *	openat(DFD, NULL, O_RDONLY): a call whose file name the kernel
 *	cannot read (lab 06's discarded event); exits 0 when it fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ring_buffer_format.h"
#include "trace_mmap_compat.h"
#include "tracefs_write.h"
#include "tracemap.h"

#ifndef SYS_clone3
#define SYS_clone3 435
#endif

static int usage(void)
{
	fprintf(stderr, "usage: check_aid as-pid PID CMD [ARG...]\n"
			"       check_aid reader-head CPU\n"
			"       check_aid fail-get-reader ERRNO CMD [ARG...]\n"
			"       check_aid meta-lost CPU LOST CMD [ARG...]\n"
			"       check_aid records CPU\n"
			"       check_aid tail-records CPU\n"
			"       check_aid tail-list CPU\n"
			"       check_aid offsets CPU\n"
			"       check_aid openat-null DFD\n");
	return 2;
}

/* CPU's ring buffer, mapped whole (no GET_READER). */
struct mapped {
	int fd;
	const struct trace_buffer_meta *meta;
	const char *base; /* the mapping: meta-page, then the sub-buffers */
	size_t len;
};

static int map_cpu(long cpu, struct mapped *m)
{
	char path[128];
	long page = sysconf(_SC_PAGESIZE);

	snprintf(path, sizeof(path), T "/per_cpu/cpu%ld/trace_pipe_raw", cpu);
	m->fd = open(path, O_RDONLY | O_NONBLOCK);
	if (m->fd < 0) {
		fprintf(stderr, "check_aid: open %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	m->meta = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, m->fd, 0);
	if (m->meta == MAP_FAILED) {
		fprintf(stderr, "check_aid: mmap %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	m->len = m->meta->meta_page_size +
		 (size_t)m->meta->nr_subbufs * m->meta->subbuf_size;
	munmap((void *)m->meta, (size_t)page);
	m->base = mmap(NULL, m->len, PROT_READ, MAP_SHARED, m->fd, 0);
	if (m->base == MAP_FAILED) {
		fprintf(stderr, "check_aid: mmap %zu bytes of %s: %s\n", m->len,
			path, strerror(errno));
		return -1;
	}
	m->meta = (const struct trace_buffer_meta *)(const void *)m->base;
	return 0;
}

/* Sub-buffer id of the mapping m. */
static const char *subbuf(const struct mapped *m, uint32_t id)
{
	return m->base + m->meta->meta_page_size +
	       (size_t)id * m->meta->subbuf_size;
}

static void unmap_cpu(struct mapped *m)
{
	munmap((void *)m->base, m->len);
	close(m->fd);
}

/* A decimal number from lo to hi, or -1. */
static long number(const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	return v;
}

static int as_pid(pid_t want, char **argv)
{
	struct clone_args args;
	pid_t tid = want, pid;
	int status;

	memset(&args, 0, sizeof(args));
	args.exit_signal = SIGCHLD;
	args.set_tid = (uint64_t)(uintptr_t)&tid;
	args.set_tid_size = 1;
	pid = (pid_t)syscall(SYS_clone3, &args, sizeof(args));
	if (pid < 0) {
		fprintf(stderr, "check_aid: clone3 with PID %d: %s\n", want,
			strerror(errno));
		return 3;
	}
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "check_aid: %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		fprintf(stderr, "check_aid: waitpid: %s\n", strerror(errno));
		return 1;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static int reader_head(long cpu)
{
	struct mapped m;

	if (map_cpu(cpu, &m))
		return 1;
	const struct trace_buffer_meta *meta = m.meta;
	const char *sb = subbuf(&m, meta->reader.id);
	uint64_t time_stamp, commit;

	memcpy(&time_stamp, sb, sizeof(time_stamp));
	memcpy(&commit, sb + 8, sizeof(commit));
	printf("time_stamp %llu\n", (unsigned long long)time_stamp);
	printf("commit_low %u\n", (unsigned int)(uint32_t)commit);

	struct tracemap_subbuf cur;
	struct tracemap_event first, next;
	uint32_t hdr;

	memcpy(&hdr, sb + RB_SUBBUF_HEADER_64, sizeof(hdr));
	printf("first_delta %u\n", rb_time_delta(hdr));
	if (!tracemap_subbuf_load(&cur, NULL, sb, meta->subbuf_size, false) &&
	    tracemap_subbuf_next(&cur, &first) == 1 &&
	    tracemap_subbuf_next(&cur, &next) == 1) {
		printf("next_at %u\n", next.offset);
		printf("event_gap %llu\n",
		       (unsigned long long)(next.ts - first.ts));
	}
	unmap_cpu(&m);
	return 0;
}

#ifdef __x86_64__
/* At a syscall-entry stop: skip the call (-1 for its number). */
static int skip_call(pid_t pid)
{
	struct user_regs_struct regs;

	if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) < 0)
		return -1;
	regs.orig_rax = (unsigned long long)-1;
	return ptrace(PTRACE_SETREGS, pid, NULL, &regs) < 0 ? -1 : 0;
}

/* At the syscall-exit stop of a skipped call: make it return -err. */
static int set_return(pid_t pid, int err)
{
	struct user_regs_struct regs;

	if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) < 0)
		return -1;
	regs.rax = (unsigned long long)-err;
	return ptrace(PTRACE_SETREGS, pid, NULL, &regs) < 0 ? -1 : 0;
}

/*
 * Run argv traced, calling stop() at each system call's entry and exit
 * stop; wait for it and return its exit status (128 + signal).
 */
static int traced(char **argv,
		  void (*stop)(pid_t pid,
			       const struct __ptrace_syscall_info *info))
{
	struct __ptrace_syscall_info info;
	int status, sig = 0;
	pid_t pid = fork();

	if (pid < 0) {
		fprintf(stderr, "check_aid: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0) {
			fprintf(stderr, "check_aid: PTRACE_TRACEME: %s\n",
				strerror(errno));
			_exit(127);
		}
		raise(SIGSTOP);
		execvp(argv[0], argv);
		fprintf(stderr, "check_aid: %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFSTOPPED(status) ||
	    ptrace(PTRACE_SETOPTIONS, pid, NULL,
		   PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC |
			   PTRACE_O_EXITKILL) < 0) {
		fprintf(stderr, "check_aid: tracing %s: %s\n", argv[0],
			strerror(errno));
		kill(pid, SIGKILL);
		return 1;
	}
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig) < 0 ||
		    waitpid(pid, &status, 0) < 0) {
			fprintf(stderr, "check_aid: tracing %s: %s\n", argv[0],
				strerror(errno));
			kill(pid, SIGKILL);
			return 1;
		}
		sig = 0;
		if (WIFEXITED(status))
			return WEXITSTATUS(status);
		if (WIFSIGNALED(status))
			return 128 + WTERMSIG(status);
		if (WSTOPSIG(status) != (SIGTRAP | 0x80)) {
			/* An event stop (exec) is not a signal to pass on. */
			if (!(status >> 16))
				sig = WSTOPSIG(status);
			continue;
		}
		if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(info),
			   &info) > 0)
			stop(pid, &info);
	}
}

static int get_reader_errno, get_reader_skipped;

/* Each GET_READER skipped at its entry, made to fail at its exit. */
static void fail_get_reader_stop(pid_t pid,
				 const struct __ptrace_syscall_info *info)
{
	if (info->op == PTRACE_SYSCALL_INFO_ENTRY) {
		get_reader_skipped = info->entry.nr == SYS_ioctl &&
				     (unsigned int)info->entry.args[1] ==
					     TRACE_MMAP_IOCTL_GET_READER &&
				     !skip_call(pid);
	} else if (info->op == PTRACE_SYSCALL_INFO_EXIT && get_reader_skipped) {
		set_return(pid, get_reader_errno);
		get_reader_skipped = 0;
	}
}

static int fail_get_reader(int err, char **argv)
{
	get_reader_errno = err;
	return traced(argv, fail_get_reader_stop);
}

static int meta_copy_fd;

/* At the entry of an mmap() of a trace_pipe_raw: map meta_copy_fd instead. */
static void meta_lost_stop(pid_t pid, const struct __ptrace_syscall_info *info)
{
	struct user_regs_struct regs;
	char link[64], to[256];
	ssize_t n;

	if (info->op != PTRACE_SYSCALL_INFO_ENTRY || info->entry.nr != SYS_mmap)
		return;
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)pid,
		 (int)info->entry.args[4]);
	n = readlink(link, to, sizeof(to) - 1);
	if (n < 0)
		return;
	to[n] = 0;
	if (!strstr(to, "/trace_pipe_raw") ||
	    ptrace(PTRACE_GETREGS, pid, NULL, &regs) < 0)
		return;
	regs.r8 = (unsigned long long)meta_copy_fd;
	ptrace(PTRACE_SETREGS, pid, NULL, &regs);
}

static int meta_lost(long cpu, unsigned long long lost, char **argv)
{
	struct mapped m;
	struct trace_buffer_meta meta;
	int fd;

	if (map_cpu(cpu, &m))
		return 1;
	fd = memfd_create("meta-lost", 0);
	memcpy(&meta, m.meta, sizeof(meta));
	meta.reader.lost_events = lost;
	if (fd < 0 ||
	    write(fd, m.base, m.meta->meta_page_size) !=
		    (ssize_t)m.meta->meta_page_size ||
	    pwrite(fd, &meta, sizeof(meta), 0) != (ssize_t)sizeof(meta)) {
		fprintf(stderr, "check_aid: a copy of the meta-page: %s\n",
			strerror(errno));
		return 1;
	}
	unmap_cpu(&m);
	meta_copy_fd = fd;
	return traced(argv, meta_lost_stop);
}
#else
static int fail_get_reader(int err, char **argv)
{
	(void)err;
	(void)argv;
	fprintf(stderr, "check_aid: fail-get-reader: x86_64 only\n");
	return 3;
}

static int meta_lost(long cpu, unsigned long long lost, char **argv)
{
	(void)cpu;
	(void)lost;
	(void)argv;
	fprintf(stderr, "check_aid: meta-lost: x86_64 only\n");
	return 3;
}
#endif

/* Print the records of data[pos, end) as "eT/LEN", "d/LEN", "t/8", "s/8". */
static uint32_t print_records(const char *data, uint32_t pos, uint32_t end)
{
	while (pos + 4 <= end) {
		uint32_t hdr, word1 = 0, type, len;
		uint16_t etype;

		memcpy(&hdr, data + pos, 4);
		if (pos + 8 <= end)
			memcpy(&word1, data + pos + 4, 4);
		type = rb_type_len(hdr);
		if (type == RB_TYPE_PADDING && rb_time_delta(hdr) == 0)
			return end; /* the rest is empty */
		if (type == RB_TYPE_PADDING) {
			len = 4 + word1;
			printf(" d/%u", len);
		} else if (type >= RB_TYPE_TIME_EXTEND) {
			len = 8;
			printf(" %c/8",
			       type == RB_TYPE_TIME_EXTEND ? 't' : 's');
		} else {
			uint32_t at = type ? pos + 4 : pos + 8;

			len = type ? 4 + 4 * type : 4 + word1;
			etype = 0;
			if (at + 2 <= end)
				memcpy(&etype, data + at, 2);
			printf(" e%u/%u", etype, len);
		}
		if (len < 4 || len > end - pos) {
			printf(" bad-length\n");
			return end;
		}
		pos += len;
	}
	return pos;
}

static int records(long cpu)
{
	struct tracemap_layout layout; /* data at 16, or 12 on a 32-bit kernel */
	struct mapped m;
	int err = tracemap_layout_load(&layout, T);

	if (err) {
		fprintf(stderr, "check_aid: %s/events/header_page: %s\n", T,
			strerror(-err));
		return 1;
	}
	if (map_cpu(cpu, &m))
		return 1;
	const struct trace_buffer_meta *meta = m.meta;
	uint32_t id = UINT32_MAX, pos = 0;

	/* At most 4 rounds a sub-buffer: a writer that never stops ends it. */
	for (uint32_t n = 0; n < 4 * meta->nr_subbufs; n++) {
		uint64_t read = meta->read;

		if (ioctl(m.fd, TRACE_MMAP_IOCTL_GET_READER) < 0) {
			fprintf(stderr, "check_aid: GET_READER: %s\n",
				strerror(errno));
			return 1;
		}
		if (meta->reader.id == id && meta->reader.read == pos)
			break;
		if (meta->reader.id != id) {
			id = meta->reader.id;
			pos = 0;
		}
		printf("%u:", id);
		pos = print_records(subbuf(&m, id) + layout.data_offset, pos,
				    meta->reader.read);
		printf(" read+%llu\n", (unsigned long long)(meta->read - read));
	}
	unmap_cpu(&m);
	return 0;
}

/*
 * Load the sub-buffer the writer is on into @cur: of those with data (a
 * reset clears every commit, not the time stamps), the one with the newest
 * time stamp (the writer stamps a sub-buffer at its first event); the
 * first one when none has data. Returns its ID, or -1 (said on stderr).
 */
static long load_writer_subbuf(const struct mapped *m,
			       const struct tracemap_layout *layout,
			       struct tracemap_subbuf *cur)
{
	uint32_t newest = 0;
	uint64_t best = 0;
	bool found = false;
	int err;

	for (uint32_t id = 0; id < m->meta->nr_subbufs; id++) {
		if (tracemap_subbuf_load(cur, layout, subbuf(m, id),
					 m->meta->subbuf_size, false) ||
		    !tracemap_subbuf_commit(cur) ||
		    (found && tracemap_subbuf_ts(cur) <= best))
			continue;
		newest = id;
		best = tracemap_subbuf_ts(cur);
		found = true;
	}
	err = tracemap_subbuf_load(cur, layout, subbuf(m, newest),
				   m->meta->subbuf_size, false);
	if (err) {
		fprintf(stderr, "check_aid: sub-buffer %u: %s\n", newest,
			strerror(-err));
		return -1;
	}
	return newest;
}

/*
 * Map CPU's buffer into @m and load the writer's sub-buffer into @cur, in
 * the layout events/header_page gives (@layout). Returns its ID, or -1.
 */
static long map_writer_subbuf(long cpu, struct mapped *m,
			      struct tracemap_layout *layout,
			      struct tracemap_subbuf *cur)
{
	int err = tracemap_layout_load(layout, T);
	long id;

	if (err) {
		fprintf(stderr, "check_aid: %s/events/header_page: %s\n", T,
			strerror(-err));
		return -1;
	}
	if (map_cpu(cpu, m))
		return -1;
	id = load_writer_subbuf(m, layout, cur);
	if (id < 0)
		unmap_cpu(m);
	return id;
}

/* The data events of the writer's sub-buffer, read without consuming. */
static int tail_records(long cpu)
{
	struct tracemap_layout layout;
	struct tracemap_subbuf cur;
	struct tracemap_event ev;
	struct mapped m;
	int n = 0;

	if (map_writer_subbuf(cpu, &m, &layout, &cur) < 0)
		return 1;
	while (tracemap_subbuf_next(&cur, &ev) == 1)
		n++;
	printf("%d\n", n);
	unmap_cpu(&m);
	return 0;
}

/* The records of the writer's sub-buffer, read without consuming. */
static int tail_list(long cpu)
{
	struct tracemap_layout layout;
	struct tracemap_subbuf cur;
	struct mapped m;
	long id = map_writer_subbuf(cpu, &m, &layout, &cur);

	if (id < 0)
		return 1;
	printf("%ld:", id);
	print_records(subbuf(&m, (uint32_t)id) + layout.data_offset, 0,
		      tracemap_subbuf_commit(&cur));
	printf("\n");
	unmap_cpu(&m);
	return 0;
}

static int offsets(long cpu)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct mapped m;
	size_t size, last;

	if (map_cpu(cpu, &m))
		return 1;
	size = m.meta->subbuf_size;
	printf("meta_page_size %u\n", m.meta->meta_page_size);
	printf("subbuf_size %zu\n", size);
	last = 2 * size / page + 1;
	for (size_t p = 1; p <= last; p++) {
		const char *one = mmap(NULL, size, PROT_READ, MAP_SHARED, m.fd,
				       (off_t)(p * page));

		if (one == MAP_FAILED) {
			printf("pgoff %zu: %s\n", p,
			       errno == EINVAL ? "EINVAL" : strerror(errno));
			continue;
		}
		printf("pgoff %zu: %s\n", p,
		       p * page + size <= m.len &&
				       !memcmp(one, m.base + p * page, size) ?
			       "same" :
			       "differs");
		munmap((void *)one, size);
	}
	unmap_cpu(&m);
	return 0;
}

/* The commands that take a CPU and nothing else. */
static const struct {
	const char *name;
	int (*run)(long cpu);
} cpu_commands[] = {
	{ .name = "reader-head", .run = reader_head },
	{ .name = "records", .run = records },
	{ .name = "tail-records", .run = tail_records },
	{ .name = "tail-list", .run = tail_list },
	{ .name = "offsets", .run = offsets },
};

int main(int argc, char **argv)
{
	long v;

	for (size_t i = 0;
	     argc == 3 && i < sizeof(cpu_commands) / sizeof(cpu_commands[0]);
	     i++) {
		if (strcmp(argv[1], cpu_commands[i].name))
			continue;
		v = number(argv[2], 0, 4095);
		if (v < 0) {
			fprintf(stderr, "check_aid: bad CPU '%s'\n", argv[2]);
			return 2;
		}
		return cpu_commands[i].run(v);
	}

	if (argc >= 4 && !strcmp(argv[1], "as-pid")) {
		v = number(argv[2], 2, 0x3fffffff);
		if (v < 0) {
			fprintf(stderr, "check_aid: bad PID '%s'\n", argv[2]);
			return 2;
		}
		return as_pid((pid_t)v, argv + 3);
	}
	if (argc >= 4 && !strcmp(argv[1], "fail-get-reader")) {
		v = number(argv[2], 1, 4095);
		if (v < 0) {
			fprintf(stderr, "check_aid: bad errno '%s'\n", argv[2]);
			return 2;
		}
		return fail_get_reader((int)v, argv + 3);
	}
	if (argc >= 5 && !strcmp(argv[1], "meta-lost")) {
		char *end;
		unsigned long long lost;

		v = number(argv[2], 0, 4095);
		errno = 0;
		lost = strtoull(argv[3], &end, 10);
		if (v < 0 || errno || end == argv[3] || *end) {
			fprintf(stderr,
				"check_aid: bad CPU '%s' or LOST '%s'\n",
				argv[2], argv[3]);
			return 2;
		}
		return meta_lost(v, lost, argv + 4);
	}
	if (argc == 3 && !strcmp(argv[1], "openat-null")) {
		v = number(argv[2], 0, 0x7fffffff);
		if (v < 0) {
			fprintf(stderr, "check_aid: bad DFD '%s'\n", argv[2]);
			return 2;
		}
		/* A name at address 0: the kernel only faults on it. */
		return syscall(SYS_openat, (int)v, NULL, O_RDONLY) < 0 ? 0 : 1;
	}
	return usage();
}
