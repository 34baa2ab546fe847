/* stop.h - standard output and stop signals: a line is never cut. */
#ifndef PHYS_BASE_STOP_H
#define PHYS_BASE_STOP_H

#include <stddef.h>
#include <stdio.h>

/*
 * Standard output: SIGPIPE keeps its default action so a closed pipe ends
 * the program quietly; phys_close_stdout() checks every write at exit.
 * SIGTERM, SIGHUP and SIGINT stop the program at the next line boundary
 * (phys_signal_check), however many come; at once when nothing can be
 * cut: before anything was written, while it waits for input or a lock,
 * and while it is blocked writing whole lines to a full pipe; and half a
 * second after the signal however far the next line boundary is (a
 * watchdog thread then writes the whole lines buffered). Complete lines
 * are flushed, a pending temporary file is removed, and the signal is
 * raised again so the parent sees it. Standard output, but a terminal,
 * is written in whole lines from a 64 KB buffer. For the commands only:
 * it installs signal handlers and starts the watchdog thread, which also
 * ends the program by SIGPIPE when the reader of a pipe it writes to has
 * gone while it computes.
 */
void phys_stdout_init(void);
/* fileno(f); for stdout, standard output's descriptor (stdout is then a
 * stream of phys_stdout_init's, which has none of its own). */
int phys_fileno(FILE *f);
int phys_close_stdout(void);	/* 0, or reports and returns PHYS_EXIT_FAIL */
/* At a line boundary: stop here if one of those signals came. */
void phys_signal_check(void);

/*
 * Around a call that may block for ever (opening a FIFO, a read on a
 * pipe or terminal, a lock): everything written is flushed, and a stop
 * signal in between ends the program at once.
 */
void phys_wait_begin(void);
void phys_wait_end(void);
/*
 * A command whose output comes at its end (phys-step --engines) defers
 * stops: a stop signal then only marks the stop, however idle standard
 * output is (but while blocked waiting), and the next phys_signal_check,
 * or the program's exit, runs fn once, which may write what the program
 * has and remove its files, before the program stops by the signal;
 * more signals meanwhile change nothing. NULL: stops as above.
 */
void phys_stop_defer(void (*fn)(int sig, void *ctx), void *ctx);
/* A temporary file to remove if a signal stops the program before it is
 * renamed into place (NULL: none). */
void phys_stop_removes(char *tmp);
/* A scratch file the program keeps while it runs (a gnuplot script), to
 * remove if a signal stops the program (NULL: none). */
void phys_stop_removes_scratch(char *path);
/* Bytes for standard output if a signal stops the program (NULL: none):
 * what puts a terminal back as it was. text must outlive the call. */
void phys_stop_writes(const char *text, size_t len);

#endif
