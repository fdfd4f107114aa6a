// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for the text parsers and the payload formatter of
 * examples/lib/tracemap.c. The input is a file's text, then a NUL, then the
 * payload of one event (no NUL: all text, no payload):
 *  - the text as events/<system>/<event>/format (tracemap_format_parse()), and
 *    if it parses, the payload through every field reader
 *    (tracemap_field_value(), tracemap_field_bytes()) and the formatter
 *    (tracemap_format_payload(), into a small buffer and then one of the length
 *    it asked for), as "ftrace" (ftrace/print takes its own path) and as
 *    another system;
 *  - the text as events/header_page (tracemap_layout_parse()), and if it
 *    parses, the payload decoded as a sub-buffer of that layout, as
 *    trace_stream --offline decodes a capture with the header_page of its
 *    directory.
 * Built with clang -fsanitize=fuzzer,address,undefined by tests/fuzz/run.sh.
 * The payload is the tail of libFuzzer's buffer, which has exactly the
 * input's size, so AddressSanitizer reports a read past it. The corpus
 * (corpus/format/) holds the 6.12 guest's format files, each with the
 * payload of an event of its type from the same guest, and header_page.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracemap.h"

static void check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "format_fuzz: %s\n", what);
		abort();
	}
}

static bool inside(const void *p, size_t n, const unsigned char *buf,
		   size_t size)
{
	const unsigned char *q = p;

	return q >= buf && n <= size && q - buf <= (ptrdiff_t)(size - n);
}

/* The formatter's text: as long as it says, cut to fit like snprintf. */
static void format(const struct tracemap_format *f,
		   const struct tracemap_event *ev)
{
	char small[64], *big;
	int n, m;

	n = tracemap_format_payload(f, ev, small, sizeof(small));
	check(n >= 0, "format: negative length");
	check(strlen(small) == ((size_t)n < sizeof(small) ? (size_t)n :
							    sizeof(small) - 1),
	      "format: the text is not as long as returned (or cut)");
	if ((size_t)n < sizeof(small))
		return;
	big = malloc((size_t)n + 1);
	check(big != NULL, "out of memory");
	m = tracemap_format_payload(f, ev, big, (size_t)n + 1);
	check(m == n && strlen(big) == (size_t)n,
	      "format: a second call with room gives another length");
	check(!memcmp(big, small, sizeof(small) - 1),
	      "format: the cut text is not the start of the whole");
	free(big);
}

static void fields(const char *text, const unsigned char *payload, size_t size)
{
	struct tracemap_event ev = { .data = payload, .size = (uint32_t)size };
	struct tracemap_format f;
	int r;

	r = tracemap_format_parse(&f, "ftrace", text);
	check(r == 0 || r == -EBADMSG, "parse: unexpected return value");
	check(r || (f.id >= 0 && f.id <= TRACEMAP_ID_MAX),
	      "parse: ID out of range");
	if (r) {
		check(!f.fields && !f.nr_fields,
		      "parse: fields left on failure");
		return;
	}
	check(f.id >= 0 && f.name[0] && f.nr_fields >= 0 &&
		      (f.fields || !f.nr_fields),
	      "parse: accepted without ID, name or fields");
	check(tracemap_event_type(&ev) >= 0 || size < 2, "type: negative");
	for (int i = 0; i < f.nr_fields; i++) {
		const struct tracemap_field *fl = &f.fields[i];
		const void *data;
		uint32_t len;
		uint64_t u;

		check(fl->name[0] &&
			      strnlen(fl->name, sizeof(fl->name)) <
				      sizeof(fl->name) &&
			      strnlen(fl->type, sizeof(fl->type)) <
				      sizeof(fl->type),
		      "parse: a field without a name, or unterminated");
		check(tracemap_format_field(&f, fl->name) != NULL,
		      "field: not found by its own name");
		r = tracemap_field_value(fl, &ev, &u);
		check(r == 0 || r == -EINVAL || r == -EBADMSG,
		      "value: unexpected return value");
		check(r || (uint64_t)fl->offset + fl->size <= size,
		      "value: read outside the payload");
		r = tracemap_field_bytes(fl, &ev, &data, &len);
		check(r == 0 || r == -EINVAL || r == -EBADMSG,
		      "bytes: unexpected return value");
		check(r || inside(data, len, payload, size),
		      "bytes: outside the payload");
	}
	format(&f, &ev);
	if (!strcmp(f.name, "print")) {
		/* the generic path for an event of another system */
		strcpy(f.system, "other");
		format(&f, &ev);
	}
	free(f.fields);
}

static void layout(const char *text, const unsigned char *payload, size_t size)
{
	struct tracemap_subbuf sb;
	struct tracemap_layout l;
	struct tracemap_event ev;
	int r;

	if (tracemap_layout_parse(&l, text))
		return;
	check((l.commit_size == 4 || l.commit_size == 8) &&
		      l.data_offset >= l.commit_offset + l.commit_size,
	      "layout: accepted a commit word that does not fit");
	if (tracemap_subbuf_load(&sb, &l, payload, size, false))
		return;
	while ((r = tracemap_subbuf_next(&sb, &ev)) > 0)
		check(inside(ev.data, ev.size, payload, size),
		      "layout: event outside the sub-buffer");
	check(r == 0 || r == -EBADMSG, "layout: unexpected return value");
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	const unsigned char *nul = memchr(in, '\0', size);
	const unsigned char *payload = nul ? nul + 1 : in + size;
	size_t len = (size_t)(payload - in);
	char *copy = NULL;
	const char *text = (const char *)in;

	if (!nul) {
		/* all text: a terminated copy */
		copy = malloc(size + 1);
		check(copy != NULL, "out of memory");
		memcpy(copy, in, size);
		copy[size] = '\0';
		text = copy;
	}
	fields(text, payload, size - len);
	layout(text, payload, size - len);
	free(copy);
	return 0;
}
