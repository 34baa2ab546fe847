/*
 * statein.h - reading state lines.
 *
 * A state line is {"t":T,"items":{NAME:VALUE,...},...}; a VALUE is a
 * number, an object of numbers or an array of numbers. A frame is one line
 * taken apart: its items, their fields and the other top-level members, in
 * the order the line gives them. Names point into the reader's line, so a
 * frame is valid until the next read.
 */
#ifndef PHYS_STATEIN_H
#define PHYS_STATEIN_H

#include <stdbool.h>
#include <stddef.h>

#include "base.h"

enum phys_ist_kind { IST_SCALAR, IST_OBJECT, IST_ARRAY };

/* A member of an object item, an element of an array, or a scalar's value. */
struct phys_ist_field {
	const char *name;	/* not NUL-terminated; empty for a scalar */
	size_t nlen;
	const char *num;	/* number text not converted yet, or NULL */
	double v;		/* NaN for a JSON null */
};

struct phys_ist_item {
	const char *name;	/* not NUL-terminated */
	size_t nlen;
	enum phys_ist_kind kind;
	size_t first, n;	/* its fields: fields[first .. first + n) */
};

enum phys_ist_top_kind { IST_TOP_T, IST_TOP_ITEMS, IST_TOP_OTHER };
struct phys_ist_top {
	enum phys_ist_top_kind kind;
	const char *text;	/* IST_TOP_OTHER: compact "key":value */
	size_t len;
};

struct phys_ist_frame {
	double t;
	long line;
	struct phys_ist_item *items;
	size_t nitems, capitems;
	struct phys_ist_field *fields;
	size_t nfields, capfields;
	struct phys_ist_top *top;
	size_t ntop, captop;
};

/* Value of a field, converting its text on first use. */
double phys_ist_value(struct phys_ist_field *f);

struct phys_ist_reader;

/* A reader of path ("-": stdin), or NULL and phys_error(). */
struct phys_ist_reader *phys_ist_open(const char *path);
/* 1 and the frame filled in, 0 at the end, -1 and phys_error() on bad
 * input. */
int phys_ist_read(struct phys_ist_reader *r);
struct phys_ist_frame *phys_ist_frame(struct phys_ist_reader *r);
/* The input's name for messages. */
const char *phys_ist_name(const struct phys_ist_reader *r);
void phys_ist_close(struct phys_ist_reader *r);	/* NULL is fine */

/* A JSON string from s[0..n), which need not be NUL-terminated. */
void phys_ist_put_jstr(struct phys_buf *b, const char *s, size_t n);

/* A number as text for messages, valid until the end of the statement. */
struct phys_ist_numtxt {
	char s[40];
};
struct phys_ist_numtxt phys_ist_numtxt(double v);

#endif
