/* buf.h - growable buffers, JSON text and the exact number writer. */
#ifndef PHYS_BASE_BUF_H
#define PHYS_BASE_BUF_H

#include <stddef.h>

/* Shortest text that reads back to exactly v ("%.15g" .. "%.17g"). */
int phys_fmt_double(char *buf, size_t size, double v);

/* A growable byte buffer; always NUL-terminated. */
struct phys_buf {
	char *s;
	size_t len, cap;
};
void phys_buf_reserve(struct phys_buf *b, size_t extra);
void phys_buf_putc(struct phys_buf *b, char c);
void phys_buf_puts(struct phys_buf *b, const char *s);
void phys_buf_putn(struct phys_buf *b, const char *s, size_t n);
void phys_buf_printf(struct phys_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void phys_buf_double(struct phys_buf *b, double v);	/* JSON number */
void phys_buf_json_string(struct phys_buf *b, const char *s);
/* {"k0":x0,"k1":x1,...} with numbers as phys_buf_double writes them; the keys
 * are plain names, written as they are. */
void phys_buf_json_numbers(struct phys_buf *b, const char *const *keys,
    const double *x, int n);
void phys_buf_clear(struct phys_buf *b);
void phys_buf_free(struct phys_buf *b);

#endif
