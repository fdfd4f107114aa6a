/* SPDX-License-Identifier: MIT */
/*
 * The uapi of the tracefs ring-buffer mapping (Linux 6.10+), for systems
 * whose headers predate it (Debian 12 ships 6.1 headers). Where the system
 * has <linux/trace_mmap.h>, that header is used instead. tests/host checks
 * these definitions against the real 6.12 header.
 */
#ifndef TRACE_MMAP_COMPAT_H
#define TRACE_MMAP_COMPAT_H

#include <linux/ioctl.h>
#include <linux/types.h>

#if !defined(TRACE_MMAP_FORCE_COMPAT) && defined(__has_include)
#if __has_include(<linux/trace_mmap.h>)
#include <linux/trace_mmap.h>
#define TRACE_MMAP_HAVE_SYSTEM_HEADER 1
#endif
#endif

#ifndef TRACE_MMAP_HAVE_SYSTEM_HEADER
/* The meta-page at offset 0 of a mapped per_cpu/cpuN/trace_pipe_raw. */
struct trace_buffer_meta {
	__u32 meta_page_size; /* bytes before sub-buffer 0 */
	__u32 meta_struct_len; /* sizeof this struct as the kernel knows it */
	__u32 subbuf_size; /* bytes per sub-buffer */
	__u32 nr_subbufs; /* sub-buffers mapped, the reader's included */
	struct {
		__u64 lost_events; /* events lost before the reader swap */
		__u32 id; /* sub-buffer ID of the reader page */
		__u32 read; /* bytes of it already consumed */
	} reader;
	__u64 flags; /* 0 */
	__u64 entries; /* events in the buffer */
	__u64 overrun; /* events overwritten */
	__u64 read; /* events consumed */
	__u64 Reserved1;
	__u64 Reserved2;
};

/* Swap in a new reader sub-buffer (shipped value; the 6.10 seeds used 'T', 1). */
#define TRACE_MMAP_IOCTL_GET_READER _IO('R', 0x20)
#endif

#endif /* TRACE_MMAP_COMPAT_H */
