/* stop.c - standard output and stop signals: a line is never cut. */
#include "stop.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"

/*
 * Standard output goes through out_write below (a stdio stream of our
 * own in place of stdout), which knows at every moment whether what the
 * reader has received ends with a whole line, and whether a write under
 * way could leave it cut. A stop signal ends the program at once when
 * nothing could be cut: before anything was written, while blocked on
 * input or a lock, and while blocked writing whole lines to a pipe (a
 * write of PIPE_BUF bytes or less to a pipe is all or nothing). Anywhere
 * else it waits for the next line boundary, however many come.
 */

enum { OUT_IDLE, OUT_WHOLE, OUT_PART };

/* How long a reader that takes nothing may keep a stopping program: at a
 * line boundary (the lines still buffered are dropped), and in a line
 * (which is then cut: it cannot be finished). */
enum { STUCK_AT_BOUNDARY_MS = 1000, STUCK_IN_LINE_S = 2 };

static volatile sig_atomic_t caught_signal;	/* to raise again */
static volatile sig_atomic_t waiting;	/* blocked on input or a lock */
static volatile sig_atomic_t out_state = OUT_IDLE;	/* a write under way */
static volatile sig_atomic_t out_whole = 1;	/* the reader has whole lines */
static volatile sig_atomic_t stdout_ours;	/* stdout is out_write's */
static volatile sig_atomic_t stdout_closed;
static char *volatile pending_tmp;	/* a temporary file not yet renamed */
static const char *volatile last_words;	/* for the terminal, at a stop */
static volatile size_t last_words_len;
static void (*volatile stop_fn)(int, void *);	/* phys_stop_defer's */
static void *volatile stop_ctx;
static volatile sig_atomic_t stopping;	/* in stop_fn: more signals, and
					 * its own checks, wait for it */
static bool out_pipe;		/* writes of PIPE_BUF bytes are atomic */
static bool out_may_block;	/* not a regular file */

/* Async-signal-safe: remove the temporary file, then die by sig. */
static _Noreturn void
die_by_signal(int sig)
{
	sigset_t set;

	if (pending_tmp)
		unlink(pending_tmp);
	if (last_words)
		(void)!write(STDOUT_FILENO, last_words, last_words_len);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

/* Nothing written since the last whole line, nothing waiting in the
 * buffer: stopping now loses nothing. (The buffer's fill is read as it
 * is; a line being copied into it has not reached the reader.) */
static bool
idle_and_whole(void)
{
	return out_state == OUT_IDLE && out_whole &&
	    (!stdout_ours || stdout_closed || __fpending(stdout) == 0);
}

static void
on_signal(int sig)
{
	if (stopping)	/* GNU timeout sends two: the first is at work */
		return;
	caught_signal = sig;
	if (stop_fn && !waiting)	/* phys_signal_check runs it */
		return;
	if (waiting || out_state == OUT_WHOLE || idle_and_whole())
		die_by_signal(sig);
	/* A line longer than a pipe's atomic write, half through to a
	 * reader that takes nothing, is given a little time. */
	if (out_state == OUT_PART && out_may_block)
		alarm(STUCK_IN_LINE_S);
}

static void
on_alarm(int sig)
{
	if (caught_signal && out_state == OUT_PART)
		die_by_signal(caught_signal);
}

void
phys_signal_check(void)
{
	void (*fn)(int, void *) = stop_fn;
	int sig = caught_signal;

	if (!sig || stopping)
		return;
	if (fn) {	/* once: what it writes is not deferred */
		stopping = 1;
		stop_fn = NULL;
		fn(sig, stop_ctx);
	}
	if (!stdout_closed)
		fflush(stdout);
	die_by_signal(sig);
}

void
phys_stop_defer(void (*fn)(int sig, void *ctx), void *ctx)
{
	stop_fn = NULL;
	stop_ctx = ctx;
	stop_fn = fn;
}

void
phys_wait_begin(void)
{
	if (!stdout_closed)
		fflush(stdout);
	waiting = 1;
	phys_signal_check();	/* one that came before waiting began */
}

void
phys_wait_end(void)
{
	waiting = 0;
}

/* A program that was asked to stop says so by its exit status. */
static void
stop_at_exit(void)
{
	phys_signal_check();
}

static void
catch_stop_signals(void)
{
	static const int sigs[] = { SIGTERM, SIGHUP, SIGINT };
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof sigs / sizeof *sigs; i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	sigaddset(&sa.sa_mask, SIGALRM);
	for (i = 0; i < sizeof sigs / sizeof *sigs; i++)
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)	/* nohup, background jobs */
			sigaction(sigs[i], &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	atexit(stop_at_exit);
}

/* ---- standard output ---- */

/* The next write: on a pipe, whole lines of PIPE_BUF bytes at most
 * where there are such, so that a blocked write is never in a line. */
static size_t
piece(const char *p, size_t n)
{
	size_t k;

	if (!out_pipe || n <= 1)
		return n;
	k = n < PIPE_BUF ? n : PIPE_BUF;
	while (k > 1 && p[k - 1] != '\n')
		k--;
	return p[k - 1] == '\n' ? k : (n < PIPE_BUF ? n : PIPE_BUF);
}

/* Will the reader take more within ms? */
static bool
reader_takes(int ms)
{
	struct pollfd p = { STDOUT_FILENO, POLLOUT, 0 };
	int rc;

	if (!out_may_block)
		return true;
	do
		rc = poll(&p, 1, ms);
	while (rc < 0 && errno == EINTR);
	return rc != 0;
}

static ssize_t
out_write(void *cookie, const char *data, size_t n)
{
	size_t done = 0, k;
	ssize_t w;

	while (done < n) {
		k = piece(data + done, n - done);
		/* Stopping: the lines still to go are written while the
		 * reader takes them. */
		if (caught_signal && !reader_takes(out_whole ?
		    STUCK_AT_BOUNDARY_MS : 1000 * STUCK_IN_LINE_S))
			die_by_signal(caught_signal);
		out_state = out_pipe && k <= PIPE_BUF && out_whole &&
		    data[done + k - 1] == '\n' ? OUT_WHOLE : OUT_PART;
		w = write(STDOUT_FILENO, data + done, k);
		if (w > 0)
			out_whole = data[done + (size_t)w - 1] == '\n';
		out_state = OUT_IDLE;
		if (caught_signal)
			alarm(0);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return done > 0 ? (ssize_t)done : -1;
		done += (size_t)w;
	}
	return (ssize_t)n;
}

static int
out_close(void *cookie)
{
	return close(STDOUT_FILENO);
}

/* stdout becomes a stream of out_write's, buffered as stdio buffers a
 * terminal (by line) or anything else (by block). */
static void
own_stdout(void)
{
	static const cookie_io_functions_t io = { NULL, out_write, NULL,
		out_close };
	struct stat st;
	FILE *f;

	if (fstat(STDOUT_FILENO, &st) < 0)
		return;		/* closed: stdio reports it at exit */
	out_pipe = S_ISFIFO(st.st_mode);
	out_may_block = !S_ISREG(st.st_mode);
	fflush(stdout);
	if (!(f = fopencookie(NULL, "w", io)))
		return;
	setvbuf(f, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, 1 << 16);
	stdout = f;
	stdout_ours = 1;
}

int
phys_fileno(FILE *f)
{
	return f == stdout && stdout_ours ? STDOUT_FILENO : fileno(f);
}

void
phys_stdout_init(void)
{
	signal(SIGPIPE, SIG_DFL);
	own_stdout();
	catch_stop_signals();
}

int
phys_close_stdout(void)
{
	int bad = fflush(stdout) != 0 || ferror(stdout), err = errno;

	/* Flushed: a stop signal from here on loses nothing. */
	stdout_closed = 1;
	if (fclose(stdout) != 0 && !bad) {
		bad = 1;
		err = errno;
	}
	if (!bad || err == EPIPE)
		return PHYS_EXIT_OK;
	phys_warn("write error: %s", strerror(err));
	return PHYS_EXIT_FAIL;
}

void
phys_stop_removes(char *tmp)
{
	pending_tmp = tmp;
}

void
phys_stop_writes(const char *text, size_t len)
{
	last_words = NULL;
	last_words_len = len;
	last_words = text;
}
