/*
 * plot.c - runs of state lines drawn by gnuplot: on the terminal as text,
 * or into an image file.
 */
#include "plot.h"
#include "items.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Units come from the item table: "box::link/pose.z" is in m. */
static const char *
ist_unit(const char *name)
{
	const char *dot = strrchr(name, '.'), *slash = strrchr(name, '/');
	char *item;
	const char *u;

	if (!dot || (slash && dot < slash))
		return phys_item_unit(name, NULL);
	item = xstrndup(name, (size_t)(dot - name));
	u = phys_item_unit(item, dot + 1);
	free(item);
	return u;
}

/* The y axis: the common tail of the fields and their units. */
static char *
ylabel(const struct ist_cols *const *cs, size_t nc)
{
	struct phys_buf u = { 0 };
	const char *tail = NULL, *t, *unit;
	bool same = true;
	size_t i, k;
	char *label;

	for (k = 0; k < nc; k++)
		for (i = 0; i < cs[k]->n; i++) {
			t = strrchr(cs[k]->v[i].name, '/');
			t = t ? t + 1 : cs[k]->v[i].name;
			if (tail && strcmp(tail, t) != 0)
				same = false;
			tail = t;
			unit = ist_unit(cs[k]->v[i].name);
			if (!unit || (u.s && (strcmp(u.s, unit) == 0 ||
			    strstr(u.s, unit))))
				continue;
			if (u.len)
				buf_puts(&u, ", ");
			buf_puts(&u, unit);
		}
	label = xasprintf("%s%s%s%s", same && tail ? tail : "value",
	    u.len ? " [" : "", u.len ? u.s : "", u.len ? "]" : "");
	buf_free(&u);
	return label;
}

struct table {
	struct ist_cols cols;
	const char *name;
	double *t, *v;
	size_t nrows, cap;
};

static void
table_add(struct table *tb, size_t n, double t, const double *v)
{
	if (tb->nrows == tb->cap) {
		tb->cap = tb->cap ? 2 * tb->cap : 1024;
		tb->t = xrealloc(tb->t, tb->cap * sizeof *tb->t);
		tb->v = xrealloc(tb->v, tb->cap * (n ? n : 1) * sizeof *tb->v);
	}
	tb->t[tb->nrows] = t;
	memcpy(tb->v + tb->nrows * n, v, n * sizeof *v);
	tb->nrows++;
}

static int
table_load(struct table *tb, const struct ist_opts *o, const char *path)
{
	struct ist_sampler sm = { &o->samp, 0, false, 0 };
	struct ist_src s;
	size_t skip, n;
	int rc;

	memset(tb, 0, sizeof *tb);
	tb->name = phys_display_name(path);
	if (ist_src_open(&s, path, NULL) < 0) {
		ist_src_close(&s);
		return -1;
	}
	while ((rc = ist_src_next(&s, &o->sel, 0)) > 0)
		if (ist_sample(&sm, s.t))
			table_add(tb, s.cols.n, s.t, s.v);
	ist_cols_copy(&tb->cols, &s.cols);
	ist_src_close(&s);
	if (rc < 0)
		return -1;
	if (tb->nrows == 0)
		return phys_failat(tb->name, 0, "no state lines to plot");
	n = tb->cols.n;
	if (o->samp.window > 0 && tb->nrows > (size_t)o->samp.window) {
		skip = tb->nrows - (size_t)o->samp.window;
		memmove(tb->t, tb->t + skip, (size_t)o->samp.window *
		    sizeof *tb->t);
		memmove(tb->v, tb->v + skip * n, (size_t)o->samp.window * n *
		    sizeof *tb->v);
		tb->nrows = (size_t)o->samp.window;
	}
	return 0;
}

static void
table_free(struct table *tb)
{
	ist_cols_free(&tb->cols);
	free(tb->t);
	free(tb->v);
}

/* A gnuplot single-quoted string: only the quote itself is special. */
static void
put_gpstr(struct phys_buf *b, const char *s)
{
	buf_putc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			buf_putc(b, '\'');
		buf_putc(b, *s == '\n' ? ' ' : *s);
	}
	buf_putc(b, '\'');
}

static void
put_gpnum(struct phys_buf *b, double v)
{
	if (isfinite(v))
		buf_double(b, v);
	else
		buf_puts(b, "NaN");	/* a gap in the line */
}

static bool
has_ext(const char *path, const char *ext)
{
	size_t n = strlen(path), k = strlen(ext);

	return n > k && strcasecmp(path + n - k, ext) == 0;
}

static void
terminal_size(int *w, int *h)
{
	struct winsize ws;
	const char *c = getenv("COLUMNS"), *l = getenv("LINES");
	long v;

	*w = 80;
	*h = 24;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
		*w = ws.ws_col;
		*h = ws.ws_row;
	} else {
		if (c && phys_parse_long(c, &v) && v > 20 && v < 1000)
			*w = (int)v;
		if (l && phys_parse_long(l, &v) && v > 5 && v < 1000)
			*h = (int)v;
	}
	if (*h > 6)
		(*h)--;		/* room for the prompt */
}

static void
put_terminal(struct phys_buf *b, const char *output, const char *tmp)
{
	int w, h;

	if (!output) {
		terminal_size(&w, &h);
		buf_printf(b, "set terminal dumb noenhanced nofeed size "
		    "%d,%d\n", w, h);
		return;
	}
	if (has_ext(output, ".svg"))
		buf_puts(b, "set terminal svg noenhanced size 1024,640\n");
	else
		buf_puts(b, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
		    "  set terminal pngcairo noenhanced size 1024,640\n"
		    "} else {\n"
		    "  set terminal png noenhanced size 1024,640\n"
		    "}\n");
	buf_puts(b, "set output ");
	put_gpstr(b, tmp);
	buf_putc(b, '\n');
}

static void
put_script(struct phys_buf *b, const struct table *tbs, size_t ntb,
    const char *output, const char *tmp)
{
	const struct ist_cols **cs = xcalloc(ntb, sizeof *cs);
	char *label, *title;
	size_t k, r, i;
	bool first = true;

	put_terminal(b, output, tmp);
	for (k = 0; k < ntb; k++)
		cs[k] = &tbs[k].cols;
	label = ylabel(cs, ntb);
	buf_puts(b, "set xlabel 'sim time [s]'\nset ylabel ");
	put_gpstr(b, label);
	buf_puts(b, "\nset grid\nset key below\n");
	free(label);
	free(cs);
	for (k = 0; k < ntb; k++) {
		buf_printf(b, "$run%zu << EOD\n", k + 1);
		for (r = 0; r < tbs[k].nrows; r++) {
			put_gpnum(b, tbs[k].t[r]);
			for (i = 0; i < tbs[k].cols.n; i++) {
				buf_putc(b, ' ');
				put_gpnum(b, tbs[k].v[r * tbs[k].cols.n + i]);
			}
			buf_putc(b, '\n');
		}
		buf_puts(b, "EOD\n");
	}
	buf_puts(b, "plot");
	for (k = 0; k < ntb; k++)
		for (i = 0; i < tbs[k].cols.n; i++) {
			title = ntb > 1 ? xasprintf("%s: %s", tbs[k].name,
			    tbs[k].cols.v[i].name) :
			    xstrdup(tbs[k].cols.v[i].name);
			buf_printf(b, "%s $run%zu using 1:%zu with lines "
			    "title ", first ? "" : ",", k + 1, i + 2);
			put_gpstr(b, title);
			free(title);
			first = false;
		}
	buf_puts(b, "\n");
	if (output)
		buf_puts(b, "unset output\n");
}

char *
ist_find_program(const char *prog)
{
	const char *path = getenv("PATH"), *p, *e;
	struct stat st;
	char *cand;

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0 ? xstrdup(prog) : NULL;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; p = e + 1) {
		e = strchrnul(p, ':');
		cand = e == p ? xasprintf("./%s", prog) :
		    xasprintf("%.*s/%s", (int)(e - p), p, prog);
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(cand, X_OK) == 0)
			return cand;
		free(cand);
		if (!*e)
			return NULL;
	}
}

static int
write_all(int fd, const char *s, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* gnuplot reads the script on its standard input. */
static int
run_gnuplot(const char *prog, const struct phys_buf *script)
{
	void (*old)(int);
	int fds[2], status, werr = 0, bad;
	pid_t pid;

	if (pipe(fds) < 0)
		return phys_fail("cannot run gnuplot: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) < 0) {
		close(fds[0]);
		close(fds[1]);
		return phys_fail("cannot run gnuplot: %s", strerror(errno));
	}
	if (pid == 0) {
		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		execl(prog, "gnuplot", (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	/* A gnuplot that stops early must not kill us with SIGPIPE. */
	old = signal(SIGPIPE, SIG_IGN);
	bad = write_all(fds[1], script->s, script->len);
	if (bad)
		werr = errno;
	close(fds[1]);
	signal(SIGPIPE, old);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return phys_fail("gnuplot: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return phys_fail("cannot run %s", prog);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return phys_fail("gnuplot failed (%s %d)", WIFEXITED(status) ?
		    "exit status" : "signal", WIFEXITED(status) ?
		    WEXITSTATUS(status) : WTERMSIG(status));
	if (bad)
		return phys_fail("cannot write to gnuplot: %s",
		    strerror(werr));
	return 0;
}

/* New images get the usual permissions, not mkstemp's 0600. */
static void
image_mode(struct phys_atomic *a, const char *path)
{
	struct stat st;
	mode_t mask;

	if (stat(path, &st) == 0)
		return;
	mask = umask(0);
	umask(mask);
	(void)fchmod(fileno(a->fp), 0666 & ~mask);
}

static int
plot_tables(const struct ist_opts *o, const char *prog,
    const struct table *tbs, size_t ntb)
{
	struct phys_buf script = { 0 };
	struct phys_atomic a;
	int rc;

	if (o->output) {
		if (phys_atomic_open(&a, o->output) < 0)
			return -1;
		image_mode(&a, o->output);
	}
	put_script(&script, tbs, ntb, o->output, o->output ? a.tmp : NULL);
	rc = run_gnuplot(prog, &script);
	buf_free(&script);
	if (!o->output)
		return rc;
	if (rc < 0) {
		phys_atomic_abort(&a);
		return -1;
	}
	return phys_atomic_commit(&a);
}

int
ist_plot(const struct ist_opts *o)
{
	struct table *tbs;
	char *prog;
	size_t k, n = 0;
	int rc = 0;

	if (!(prog = ist_find_program("gnuplot")))
		return phys_fail("gnuplot not found: install the Debian "
		    "package gnuplot-nox");
	tbs = xcalloc(o->ninputs, sizeof *tbs);
	for (k = 0; k < o->ninputs && rc == 0; k++, n++)
		rc = table_load(&tbs[k], o, o->inputs[k]);
	if (rc == 0)
		rc = plot_tables(o, prog, tbs, o->ninputs);
	for (k = 0; k < n; k++)
		table_free(&tbs[k]);
	free(tbs);
	free(prog);
	return rc;
}

