/* stop.c - standard output and stop signals: a line is never cut. */
#include "stop.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"

/* ---- signals: stop between lines, never inside one ---- */

static volatile sig_atomic_t caught_signal;	/* to raise again, at a boundary */
static volatile sig_atomic_t waiting;	/* blocked on input or a lock */
static char *volatile pending_tmp;	/* a temporary file not yet renamed */
static const char *volatile last_words;	/* for the terminal, at a stop */
static volatile size_t last_words_len;
static bool stdout_closed;

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

/* While the program waits, everything written is flushed and whole: it
 * can stop at once. Otherwise it stops at the next line boundary. */
static void
on_signal(int sig)
{
	caught_signal = sig;
	if (waiting)
		die_by_signal(sig);
}

void
phys_signal_check(void)
{
	int sig = caught_signal;

	if (!sig)
		return;
	if (!stdout_closed)
		fflush(stdout);
	die_by_signal(sig);
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
	sa.sa_flags = SA_RESTART | SA_RESETHAND;	/* a second one kills */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof sigs / sizeof *sigs; i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (i = 0; i < sizeof sigs / sizeof *sigs; i++)
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)	/* nohup, background jobs */
			sigaction(sigs[i], &sa, NULL);
	atexit(stop_at_exit);
}

void
phys_stdout_init(void)
{
	signal(SIGPIPE, SIG_DFL);
	catch_stop_signals();
}

int
phys_close_stdout(void)
{
	int bad = ferror(stdout);

	if (fclose(stdout) != 0)
		bad = 1;
	stdout_closed = true;
	if (!bad)
		return PHYS_EXIT_OK;
	if (errno == EPIPE)
		return PHYS_EXIT_OK;
	phys_warn("write error: %s", strerror(errno));
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
