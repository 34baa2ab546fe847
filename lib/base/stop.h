/* stop.h - standard output and stop signals: a line is never cut. */
#ifndef PHYS_BASE_STOP_H
#define PHYS_BASE_STOP_H

#include <stddef.h>

/*
 * Standard output: SIGPIPE keeps its default action so a closed pipe ends
 * the program quietly; phys_close_stdout() checks every write at exit.
 * SIGTERM, SIGHUP and SIGINT stop the program at the next line boundary
 * (phys_signal_check), or at once while it waits for input or a lock;
 * complete lines are flushed, a pending temporary file is removed, and
 * the signal is raised again so the parent sees it. A second signal
 * stops the program at once.
 */
void phys_stdout_init(void);
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
/* A temporary file to remove if a signal stops the program before it is
 * renamed into place (NULL: none). */
void phys_stop_removes(char *tmp);
/* Bytes for standard output if a signal stops the program (NULL: none):
 * what puts a terminal back as it was. text must outlive the call. */
void phys_stop_writes(const char *text, size_t len);

#endif
