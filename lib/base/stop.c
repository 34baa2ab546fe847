/* stop.c - standard output and stop signals: a line is never cut. */
#include "stop.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
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
 * way could leave it cut; but for a terminal it writes whole lines only,
 * holding a line's beginning back until its end comes. A stop signal
 * ends the program at once when nothing could be cut: before anything
 * was written, while blocked on input or a lock, and while blocked
 * writing whole lines to a pipe (a write of PIPE_BUF bytes or less to a
 * pipe is all or nothing). Anywhere else it waits for the next line
 * boundary, however many come, but not for long: an engine step may
 * take minutes. The handler wakes a watchdog thread, which gives the
 * program STOP_DEADLINE_MS to stop by itself, then takes standard
 * output's stream (its lock: no write is then half done), writes the
 * whole lines it holds and stops the program by the signal. The same
 * thread notices a reader of a pipe that has gone while the program
 * computes, and stops it as a write would (SIGPIPE).
 */

enum { OUT_IDLE, OUT_WHOLE, OUT_PART };

/* How long a reader that takes nothing may keep a stopping program: at a
 * line boundary (the lines still buffered are dropped), and in a line
 * (which is then cut: it cannot be finished). */
enum { STUCK_AT_BOUNDARY_MS = 1000, STUCK_IN_LINE_S = 2 };
/* How long a stop signal may wait for the program's next line boundary,
 * and for a deferred stop's report (phys_stop_defer) once it has begun. */
enum { STOP_DEADLINE_MS = 500, STOP_REPORT_MS = 5000 };

static volatile sig_atomic_t caught_signal;	/* to raise again */
static volatile sig_atomic_t waiting;	/* blocked on input or a lock */
static volatile sig_atomic_t out_state = OUT_IDLE;	/* a write under way */
static volatile sig_atomic_t out_whole = 1;	/* the reader has whole lines */
static volatile sig_atomic_t stdout_ours;	/* stdout is out_write's */
static volatile sig_atomic_t stdout_closed;
static char *volatile pending_tmp;	/* a temporary file not yet renamed */
static char *volatile scratch;		/* a file kept while the program runs */
static const char *volatile last_words;	/* for the terminal, at a stop */
static volatile size_t last_words_len;
static void (*volatile stop_fn)(int, void *);	/* phys_stop_defer's */
static void *volatile stop_ctx;
static volatile sig_atomic_t stopping;	/* in stop_fn: more signals, and
					 * its own checks, wait for it */
static int claimed;		/* the stop is at work: the main thread's
				 * or the watchdog's, whichever came first */
static bool out_pipe;		/* writes of PIPE_BUF bytes are atomic */
static bool out_may_block;	/* not a regular file */
static bool out_lines;		/* hold a line's beginning back */
static char out_buf[1 << 16];	/* stdio's buffer for standard output */
static char held[1 << 16];	/* a line's beginning, held back */
static size_t held_len;
static volatile sig_atomic_t out_started;	/* a byte reached the reader */
static int wake_fd[2] = { -1, -1 };	/* the handler's word to watchdog */
static pid_t watchdog_pid;	/* the process the watchdog is in */

/* Async-signal-safe: remove the temporary file, then die by sig. */
static _Noreturn void
die_by_signal(int sig)
{
	sigset_t set;

	if (pending_tmp)
		unlink(pending_tmp);
	if (scratch)
		unlink(scratch);
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

/* Async-signal-safe: the watchdog thread starts counting. */
static void
wake_watchdog(char why)
{
	int e = errno;

	/* a child forked without exec (a sweep's worker, a mesh decoder)
	 * shares the pipe, but has no watchdog of its own */
	if (wake_fd[1] >= 0 && getpid() == watchdog_pid)
		(void)!write(wake_fd[1], &why, 1);
	errno = e;
}

static void
on_signal(int sig)
{
	if (stopping)	/* GNU timeout sends two: the first is at work */
		return;
	caught_signal = sig;
	if (stop_fn && !waiting) {	/* phys_signal_check runs it */
		wake_watchdog('s');
		return;
	}
	if (waiting || out_state == OUT_WHOLE || idle_and_whole())
		die_by_signal(sig);
	/* A line longer than a pipe's atomic write, half through to a
	 * reader that takes nothing, is given a little time. */
	if (out_state == OUT_PART && out_may_block)
		alarm(STUCK_IN_LINE_S);
	wake_watchdog('s');
}

static void
on_alarm(int sig)
{
	if (caught_signal && out_state == OUT_PART)
		die_by_signal(caught_signal);
}

/* The first caller (the main thread at a line boundary, or the
 * watchdog) is the one that stops the program. */
static bool
claim_stop(void)
{
	if (__atomic_exchange_n(&claimed, 1, __ATOMIC_SEQ_CST))
		return false;
	stopping = 1;
	return true;
}

/* Run phys_stop_defer's function, once: what it writes is not deferred. */
static void
run_stop_fn(int sig)
{
	void (*fn)(int, void *) = stop_fn;

	stop_fn = NULL;
	if (fn)
		fn(sig, stop_ctx);
}

void
phys_signal_check(void)
{
	int sig = caught_signal;

	if (!sig || !claim_stop())
		return;
	run_stop_fn(sig);
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

static ssize_t out_send(const char *data, size_t n);

/* A program that was asked to stop says so by its exit status; one that
 * exits without phys_close_stdout still writes a last line it held (an
 * exit flushes stdio's buffer, which leaves a line's beginning held). */
static void
stop_at_exit(void)
{
	size_t k;

	phys_signal_check();
	if (!stdout_ours || stdout_closed)
		return;
	fflush(stdout);
	if ((k = held_len) > 0) {
		held_len = 0;
		(void)out_send(held, k);
	}
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

/* data to the reader: what was written, or -1 if nothing was. */
static ssize_t
out_send(const char *data, size_t n)
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
		if (!out_started) {	/* the watchdog watches the reader */
			out_started = 1;
			wake_watchdog('w');
		}
		done += (size_t)w;
	}
	return (ssize_t)n;
}

/* The held beginning of a line out, and then data. */
static int
out_send_held(const char *data, size_t n)
{
	size_t k = held_len;

	if (k + n <= sizeof held) {	/* at once: the line is whole */
		memcpy(held + k, data, n);
		held_len = 0;
		return out_send(held, k + n) == (ssize_t)(k + n) ? 0 : -1;
	}
	held_len = 0;
	if (k && out_send(held, k) != (ssize_t)k)
		return -1;
	return out_send(data, n) == (ssize_t)n ? 0 : -1;
}

/*
 * stdio's flush: to a terminal all of it, elsewhere the whole lines, and
 * the beginning of a line is held back until its end comes (or the
 * stream is closed), so that a reader never has half a line of ours
 * however the program stops.
 */
static ssize_t
out_write(void *cookie, const char *data, size_t n)
{
	size_t whole = n;
	ssize_t w;

	if (!out_lines) {
		w = out_send(data, n);
		return w;
	}
	while (whole > 0 && data[whole - 1] != '\n')
		whole--;
	if (whole == 0 && held_len + n <= sizeof held) {
		memcpy(held + held_len, data, n);
		held_len += n;
		return (ssize_t)n;
	}
	if (whole == 0 || n - whole > sizeof held)	/* a line too long to
							 * hold goes as it is */
		whole = n;
	if (out_send_held(data, whole) < 0)
		return -1;
	memcpy(held, data + whole, n - whole);
	held_len = n - whole;
	return (ssize_t)n;
}

static int
out_close(void *cookie)
{
	size_t k = held_len;

	held_len = 0;
	if (k && out_send(held, k) != (ssize_t)k) {
		close(STDOUT_FILENO);
		return -1;
	}
	return close(STDOUT_FILENO);
}

/* ---- the watchdog ---- */

static void
nap(int ms)
{
	poll(NULL, 0, ms);
}

/* Has the reader of a pipe on standard output gone? */
static bool
reader_gone(void)
{
	struct pollfd p = { STDOUT_FILENO, 0, 0 };

	return out_started && !stdout_closed && out_pipe &&
	    poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

/*
 * A stop the program has not honoured within STOP_DEADLINE_MS: with
 * standard output's lock held no write is half done, so the whole lines
 * in its buffer go out (out_write holds a line's beginning back), after
 * phys_stop_defer's report, and the program stops by sig.
 */
static _Noreturn void
stop_now(int sig)
{
	int ms;

	for (ms = 0; ftrylockfile(stdout) != 0; ms += 10) {
		if (ms >= STOP_REPORT_MS)
			die_by_signal(sig);
		nap(10);
	}
	if (stdout_closed) {	/* the program is ending */
		funlockfile(stdout);
		die_by_signal(sig);
	}
	if (!claim_stop()) {	/* the main thread is at it */
		funlockfile(stdout);
		nap(STOP_REPORT_MS);
		die_by_signal(sig);
	}
	run_stop_fn(sig);
	if (!stdout_closed)
		fflush(stdout);
	die_by_signal(sig);
}

/* The watchdog has started: start_watchdog waits for it, so that no
 * fork (a sweep's worker, a mesh decoder) happens while the thread is
 * still being set up, holding locks of the allocator's that the child
 * would wait on for ever (seen under AddressSanitizer's). */
static sem_t watchdog_ready;

static void *
watchdog(void *arg)
{
	struct pollfd p[2];
	char c;

	sem_post(&watchdog_ready);
	for (;;) {
		p[0] = (struct pollfd){ wake_fd[0], POLLIN, 0 };
		p[1] = (struct pollfd){ out_started && out_pipe &&
		    !stdout_closed ? STDOUT_FILENO : -1, 0, 0 };
		if (poll(p, 2, p[1].fd < 0 ? -1 : 1000) < 0)
			continue;
		if ((p[0].revents & POLLIN) && read(wake_fd[0], &c, 1) == 1 &&
		    c == 's' && caught_signal)
			break;
		/* a reader that has gone while the program computes, as a
		 * write would find it; one blocked on input finds out */
		if ((p[1].revents & POLLERR) && !waiting) {
			nap(STOP_DEADLINE_MS);
			if (reader_gone() && !waiting && !caught_signal) {
				caught_signal = SIGPIPE;
				stop_now(SIGPIPE);
			}
		}
		if (p[1].revents & POLLERR)
			nap(100);	/* it stays: no spinning */
	}
	nap(STOP_DEADLINE_MS);
	stop_now(caught_signal);
}

static void
start_watchdog(void)
{
	sigset_t all, old;
	pthread_attr_t a;
	pthread_t t;

	if (pipe2(wake_fd, O_CLOEXEC) < 0)
		return;
	watchdog_pid = getpid();
	fcntl(wake_fd[1], F_SETFL, O_NONBLOCK);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 1 << 16);
	sem_init(&watchdog_ready, 0, 0);
	if (pthread_create(&t, &a, watchdog, NULL) != 0) {
		close(wake_fd[0]);
		close(wake_fd[1]);
		wake_fd[0] = wake_fd[1] = -1;
	} else
		while (sem_wait(&watchdog_ready) < 0 && errno == EINTR)
			;
	pthread_attr_destroy(&a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
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
	out_lines = !isatty(STDOUT_FILENO);
	/* stdio would take BUFSIZ for a stream of its own, whatever size
	 * setvbuf asked for without a buffer */
	setvbuf(f, out_buf, out_lines ? _IOFBF : _IOLBF, sizeof out_buf);
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
	start_watchdog();
}

int
phys_close_stdout(void)
{
	int bad = fflush(stdout) != 0 || ferror(stdout), err = errno;

	/* Flushed: a stop signal from here on loses nothing. Ours stays
	 * open as a stream (the watchdog may still take its lock), its
	 * descriptor closed. */
	flockfile(stdout);
	stdout_closed = 1;
	funlockfile(stdout);
	if ((stdout_ours ? out_close(NULL) : fclose(stdout)) != 0 && !bad) {
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
phys_stop_removes_scratch(char *path)
{
	scratch = path;
}

void
phys_stop_writes(const char *text, size_t len)
{
	last_words = NULL;
	last_words_len = len;
	last_words = text;
}
