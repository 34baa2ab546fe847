/*
 * sweep_workers.c - running a plan: a few forked workers, each many runs.
 *
 * The sweep forks its workers once, after the world is loaded: each takes
 * run after run from the sweep through a pipe and calls phys_sim_run, and
 * says through another pipe how each ended. No exec, no dynamic linking,
 * no SDF parsing and no fork per run, so short runs cost what their steps
 * cost (exec'ing phys-step per run spends most of a short run loading the
 * program and its libraries; a fork per run copied the loaded program's
 * page tables and took its pages again one fault at a time; make bench
 * measures the sweep). A run that crashes or is killed takes only its
 * worker down: the sweep counts that run failed and forks another worker.
 * A run writes a hidden temporary file of its worker's own and renames it
 * into place when it is complete, its first line holding the hash of its
 * run line: a state file with the run's hash is a finished run, which is
 * what resuming trusts; one with another hash is another plan's, removed
 * and run again. A sweep locks its directory (DIR/.lock): run alone,
 * run-one beside other run-ones (a scheduler's array of them), never
 * two sweeps whose runs would mix.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base.h"
#include "preset.h"
#include "sweep.h"

/* The world of the runs, loaded once for as many runs as share it. */
struct world_cache {
	struct phys_scene w;
	char *path;		/* NULL: none loaded */
};

/* What a worker says of each run it was given. */
struct result {
	size_t run;	/* index in the plan */
	int status;	/* PHYS_EXIT_* */
	double seconds;
};

struct worker {
	pid_t pid;	/* 0: none */
	int task;	/* the sweep writes run indexes here */
	int done;	/* and reads a struct result a run here */
	bool busy;
	size_t run;	/* the run it was given, while busy */
};

struct sweep {
	const char *dir;
	const struct phys_sweep_runs *p;
	const bool *want;
	struct worker *wk;
	long jobs;
	size_t next;	/* the next run to look at */
	int logfd, lockfd;
	bool tty, shared;
	size_t todo, done, failed, skipped, others;
	double start;
	struct world_cache world;
	pid_t self;
};

static const char *
str_member(json_t *run, const char *key)
{
	return json_string_value(json_object_get(run, key));
}

/* A state file with the run's hash is a finished run. (Files are
 * renamed into place without waiting for the disk, which the sweep syncs
 * once at its end: after a system crash in a sweep, a renamed file can be
 * empty, and that one is run again.) */
static bool
finished(const struct sweep *s, size_t r)
{
	return phys_sweep_state(s->dir, &s->p->run[r]) == PHYS_SWEEP_DONE;
}

/* DIR/.ID.PID.part: the worker's own, so that no two processes ever
 * write one file. */
static char *
part_path(const char *dir, long long id, pid_t worker)
{
	return phys_xasprintf("%s/.%lld.%ld.part", dir, id, (long)worker);
}

/* The run's world loaded in c; one that cannot be loaded is said. */
static int
world_for(struct world_cache *c, json_t *run)
{
	const char *path = str_member(run, "world");
	struct phys_load_options lo;

	if (c->path && strcmp(c->path, path) == 0)
		return 0;
	if (c->path)
		phys_world_free(&c->w);
	free(c->path);
	c->path = NULL;
	phys_load_options_default(&lo);
	if (phys_world_load(&c->w, path, &lo) < 0) {
		phys_warn("%s", phys_error());
		phys_world_free(&c->w);
		return -1;
	}
	c->path = phys_xstrdup(path);
	return 0;
}

static void
world_cache_free(struct world_cache *c)
{
	if (c->path)
		phys_world_free(&c->w);
	free(c->path);
	c->path = NULL;
}

static void
run_options(json_t *run, struct phys_run_options *o)
{
	json_t *set = json_object_get(run, "set"), *v, *items;
	const char *k;
	size_t i;

	phys_run_options_default(o);
	o->preset = str_member(run, "preset");
	o->control = str_member(run, "control");
	if (json_is_integer(json_object_get(run, "steps")))
		o->steps = json_integer_value(json_object_get(run, "steps"));
	if (json_is_number(json_object_get(run, "duration"))) {
		o->duration = json_number_value(json_object_get(run,
		    "duration"));
		o->steps = -1;
	}
	if (json_is_integer(json_object_get(run, "every")))
		o->every = json_integer_value(json_object_get(run, "every"));
	if (json_is_number(json_object_get(run, "rate")))
		o->rate = json_number_value(json_object_get(run, "rate"));
	items = json_object_get(run, "items");
	if (json_is_array(items)) {
		o->items = phys_xcalloc(json_array_size(items) + 1, sizeof *o->items);
		json_array_foreach(items, i, v)
			if (json_is_string(v))
				o->items[o->nitems++] = (char *)json_string_value(v);
	}
	o->sets = phys_xcalloc(json_object_size(set) + 1, sizeof *o->sets);
	json_object_foreach(set, k, v)
		o->sets[o->nsets++] = phys_xasprintf("%s=%s", k, json_string_value(v));
}

static void
run_options_free(struct phys_run_options *o)
{
	while (o->nsets > 0)
		free(o->sets[--o->nsets]);
	free(o->sets);
	free(o->items);
}

/* In a worker: one run into its part file, renamed to DIR/ID.jsonl. */
static int
do_run(struct world_cache *c, const char *dir, json_t *run,
    const struct phys_sweep_run *meta)
{
	struct phys_run_options o;
	char *path, *tmp, *tag;
	FILE *fp;
	int rc, p;

	if (world_for(c, run) < 0)
		return PHYS_EXIT_FAIL;
	path = phys_sweep_state_path(dir, meta->id);
	tmp = part_path(dir, meta->id, getpid());
	if (!(fp = fopen(tmp, "w"))) {
		phys_warn("%s: %s", tmp, strerror(errno));
		free(path);
		free(tmp);
		return PHYS_EXIT_FAIL;
	}
	run_options(run, &o);
	if (o.preset && (p = phys_preset_resolve(&c->w, o.preset, false)) >= 0)
		o.preset = c->w.profiles[p].name;
	o.tag = tag = phys_sweep_run_tag(meta);
	rc = phys_sim_run(&c->w, &o, fp);
	run_options_free(&o);
	free(tag);
	if (fflush(fp) != 0 || ferror(fp)) {
		phys_warn("%s: %s", tmp, strerror(errno));
		rc = PHYS_EXIT_FAIL;
	}
	if (fclose(fp) != 0 && rc == PHYS_EXIT_OK) {
		phys_warn("%s: %s", tmp, strerror(errno));
		rc = PHYS_EXIT_FAIL;
	}
	if (rc == PHYS_EXIT_OK && rename(tmp, path) != 0) {
		phys_warn("%s: %s", path, strerror(errno));
		rc = PHYS_EXIT_FAIL;
	}
	if (rc != PHYS_EXIT_OK)
		unlink(tmp);
	free(path);
	free(tmp);
	return rc;
}

/* ---- stop requests ---- */

static volatile sig_atomic_t stop_signal;
static const int stop_sigs[] = { SIGTERM, SIGHUP, SIGINT };
#define NSTOP (sizeof stop_sigs / sizeof *stop_sigs)

static void
on_stop(int sig)
{
	stop_signal = sig;
}

static void
stop_mask(int how)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < NSTOP; i++)
		sigaddset(&set, stop_sigs[i]);
	sigprocmask(how, &set, NULL);
}

/* The sweep takes a stop request only while it waits for its workers
 * (ppoll lets it in), so that it is never missed just before the wait,
 * and ends the workers first. What was there before is kept in was. */
static void
catch_stop(struct sigaction *was)
{
	struct sigaction sa;

	stop_signal = 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NSTOP; i++)
		sigaction(stop_sigs[i], &sa, &was[i]);
	stop_mask(SIG_BLOCK);
}

/* The stop signals as they were before the sweep. */
static void
restore_stop(const struct sigaction *was)
{
	for (size_t i = 0; i < NSTOP; i++)
		sigaction(stop_sigs[i], &was[i], NULL);
	stop_mask(SIG_UNBLOCK);
}

/* In a new worker: a stop request is the signal itself. */
static void
default_stop(void)
{
	for (size_t i = 0; i < NSTOP; i++)
		signal(stop_sigs[i], SIG_DFL);
	stop_mask(SIG_UNBLOCK);
}

/* ---- workers ---- */

/* A worker's life: runs until the sweep closes its task pipe. Messages
 * are a few bytes, so each read and write is whole (PIPE_BUF). */
static _Noreturn void
worker_loop(struct sweep *s, int task, int done)
{
	struct result res;
	json_t *run;
	ssize_t n;
	double start;

	memset(&res, 0, sizeof res);
	for (;;) {
		n = read(task, &res.run, sizeof res.run);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			_exit(PHYS_EXIT_OK);
		if (n != sizeof res.run || res.run >= s->p->n ||
		    !(run = phys_sweep_run_json(s->p, res.run)))
			_exit(PHYS_EXIT_FAIL);
		start = phys_seconds();
		res.status = do_run(&s->world, s->dir, run,
		    &s->p->run[res.run]);
		res.seconds = phys_seconds() - start;
		json_decref(run);
		if (write(done, &res, sizeof res) != sizeof res)
			_exit(PHYS_EXIT_FAIL);
	}
}

static int
start_worker(struct sweep *s, long i)
{
	struct worker *wk = s->wk;
	int task[2], done[2];

	if (pipe(task) < 0)
		return phys_fail("pipe: %s", strerror(errno));
	if (pipe(done) < 0) {
		close(task[0]);
		close(task[1]);
		return phys_fail("pipe: %s", strerror(errno));
	}
	fflush(stdout);
	fflush(stderr);
	if ((wk[i].pid = fork()) < 0) {
		wk[i].pid = 0;
		close(task[0]);
		close(task[1]);
		close(done[0]);
		close(done[1]);
		return phys_fail("fork: %s", strerror(errno));
	}
	if (wk[i].pid == 0) {
		default_stop();
		/* A worker dies with its sweep: no orphan writes a run a
		 * resumed sweep is also writing. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != s->self)
			_exit(PHYS_EXIT_FAIL);
		/* The other workers' pipes are theirs: a copy held here
		 * would hide their end from them and from the sweep. */
		for (long j = 0; j < s->jobs; j++)
			if (wk[j].pid > 0 && j != i) {
				close(wk[j].task);
				close(wk[j].done);
			}
		close(task[1]);
		close(done[0]);
		worker_loop(s, task[0], done[1]);
	}
	close(task[0]);
	close(done[1]);
	wk[i].task = task[1];
	wk[i].done = done[0];
	wk[i].busy = false;
	return 0;
}

/* After the worker's end of its pipe closed: how it ended. */
static int
reap(struct worker *w)
{
	int status;

	close(w->task);
	close(w->done);
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	w->pid = 0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* One line a finished run to DIR/log.jsonl: which runs ran, how they
 * ended, how long they took. */
static void
log_run(int logfd, long long id, int status, double seconds)
{
	char line[128];
	int n;

	if (logfd < 0)
		return;
	n = snprintf(line, sizeof line, "{\"id\":%lld,\"status\":%d,"
	    "\"seconds\":%.3f}\n", id, status, seconds);
	if (write(logfd, line, (size_t)n) != n)
		phys_warn_once("cannot write the run log: %s", strerror(errno));
}

static void
progress(const struct sweep *s)
{
	double spent = phys_seconds() - s->start;
	size_t ended = s->done + s->failed;
	double eta = ended ? spent * (double)(s->todo - ended) / (double)ended
	    : 0;

	phys_status("%s: %zu/%zu runs, %zu failed, ETA %.0f s", phys_progname,
	    ended, s->todo, s->failed, eta);
}

static void
ended(struct sweep *s, size_t run, int status, double seconds)
{
	log_run(s->logfd, s->p->run[run].id, status, seconds);
	if (status == 0) {
		s->done++;
	} else {
		s->failed++;
		phys_warn("run %lld failed (%s %d)",
		    s->p->run[run].id, status > 128 ? "signal" :
		    "exit status", status > 128 ? status - 128 : status);
	}
	if (s->tty)
		progress(s);
}

/* The next run to give a worker, or p->n. A world that cannot be loaded
 * fails its runs here (said once each), without a worker. */
static size_t
next_run(struct sweep *s)
{
	json_t *run;
	size_t r;
	int rc;

	while ((r = s->next) < s->p->n) {
		s->next++;
		if (!s->want[r] || finished(s, r))
			continue;
		run = phys_sweep_run_json(s->p, r);
		rc = run ? world_for(&s->world, run) : -1;
		json_decref(run);
		if (rc == 0)
			return r;
		s->failed++;
		log_run(s->logfd, s->p->run[r].id, PHYS_EXIT_FAIL, 0);
	}
	return r;
}

/* Run r to worker i, forked now if it has none (yet, or any more: one
 * that died between runs leaves a pipe no one reads). */
static int
give(struct sweep *s, long i, size_t r)
{
	struct worker *w = &s->wk[i];

	if (w->pid > 0 && write(w->task, &r, sizeof r) != sizeof r)
		reap(w);
	else if (w->pid > 0)
		goto given;
	if (start_worker(s, i) < 0)
		return -1;
	if (write(w->task, &r, sizeof r) != sizeof r)
		return phys_fail("cannot give a run to a worker: %s",
		    strerror(errno));
given:
	w->busy = true;
	w->run = r;
	return 0;
}

/* Give every idle worker a run, forking workers up to -j while there
 * are runs: how many workers are busy, or -1. */
static long
dispatch(struct sweep *s)
{
	long busy = 0, i;
	size_t r;

	for (i = 0; i < s->jobs; i++) {
		if (!stop_signal && !(s->wk[i].pid > 0 && s->wk[i].busy) &&
		    (r = next_run(s)) < s->p->n && give(s, i, r) < 0)
			return -1;
		busy += s->wk[i].pid > 0 && s->wk[i].busy;
	}
	return busy;
}

/* A worker dead in the middle of a run (or gone astray: ended here):
 * its files go (a state file it renamed just before it died too: the run
 * counts failed, and its file must not say otherwise), and a new worker
 * takes the next run. */
static void
lost(struct sweep *s, struct worker *w)
{
	long long id = s->p->run[w->run].id;
	char *tmp;
	int status;

	kill(w->pid, SIGKILL);
	tmp = part_path(s->dir, id, w->pid);
	unlink(tmp);
	free(tmp);
	if (!s->shared && phys_sweep_state(s->dir, &s->p->run[w->run]) ==
	    PHYS_SWEEP_DONE) {
		tmp = phys_sweep_state_path(s->dir, id);
		unlink(tmp);
		free(tmp);
	}
	status = reap(w);
	ended(s, w->run, status ? status : PHYS_EXIT_FAIL, 0);
}

/* Wait until a worker reports a run, or dies in one. */
static void
collect(struct sweep *s)
{
	struct pollfd *fds = phys_xcalloc((size_t)s->jobs, sizeof *fds);
	struct result res;
	struct worker *w;
	sigset_t open;
	ssize_t n;

	for (long i = 0; i < s->jobs; i++) {
		fds[i].fd = s->wk[i].pid > 0 && s->wk[i].busy ?
		    s->wk[i].done : -1;
		fds[i].events = POLLIN;
	}
	sigprocmask(SIG_SETMASK, NULL, &open);
	for (size_t k = 0; k < NSTOP; k++)
		sigdelset(&open, stop_sigs[k]);
	if (ppoll(fds, (nfds_t)s->jobs, NULL, &open) < 0) {
		free(fds);
		return;		/* EINTR: a stop request */
	}
	for (long i = 0; i < s->jobs; i++) {
		w = &s->wk[i];
		if (fds[i].fd < 0 || !fds[i].revents)
			continue;
		n = read(w->done, &res, sizeof res);
		if (n < 0 && errno == EINTR)
			continue;
		w->busy = false;
		if (n == sizeof res && res.run == w->run)
			ended(s, res.run, res.status, res.seconds);
		else
			lost(s, w);
	}
	free(fds);
}

/* On a stop request: the workers end, and so do their partial files. */
static void
stop_workers(struct sweep *s)
{
	for (long i = 0; i < s->jobs; i++)
		if (s->wk[i].pid > 0)
			kill(s->wk[i].pid, SIGTERM);
	for (long i = 0; i < s->jobs; i++)
		if (s->wk[i].pid > 0) {
			bool busy = s->wk[i].busy;
			char *tmp = part_path(s->dir,
			    s->p->run[s->wk[i].run].id, s->wk[i].pid);

			reap(&s->wk[i]);
			if (busy)
				unlink(tmp);
			free(tmp);
		}
}

/* The end: idle workers read the end of their pipe and exit. */
static void
end_workers(struct sweep *s)
{
	for (long i = 0; i < s->jobs; i++)
		if (s->wk[i].pid > 0)
			reap(&s->wk[i]);
}

/* The state files on the disk, with one sync for the whole sweep rather
 * than one a run. */
static void
sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || syncfs(fd) < 0)
		phys_warn("%s: %s", dir, strerror(errno));
	if (fd >= 0)
		close(fd);
}

/*
 * The directory to itself: run alone (exclusive), run-one beside other
 * run-ones (shared); a sweep already there is said, not waited for.
 */
static int
lock_dir(struct sweep *s, bool shared)
{
	char *path = phys_xasprintf("%s/.lock", s->dir);

	s->lockfd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	free(path);
	if (s->lockfd < 0)
		return phys_fail("%s: cannot lock it: %s", s->dir,
		    strerror(errno));
	if (flock(s->lockfd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0)
		return 0;
	close(s->lockfd);
	s->lockfd = -1;
	if (errno != EWOULDBLOCK)
		return phys_fail("%s: cannot lock it: %s", s->dir,
		    strerror(errno));
	return phys_fail("%s: another sweep is running into this directory; "
	    "two would mix their runs (wait for it to end, or give --dir "
	    "another directory)", s->dir);
}

/* Under the exclusive lock: part files no process is writing any more
 * (a sweep that was killed left them). */
static void
remove_parts(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n;
	char *path;

	if (!d)
		return;
	while ((e = readdir(d))) {
		n = strlen(e->d_name);
		if (e->d_name[0] != '.' || n < 6 ||
		    strcmp(e->d_name + n - 5, ".part") != 0)
			continue;
		path = phys_xasprintf("%s/%s", dir, e->d_name);
		unlink(path);
		free(path);
	}
	closedir(d);
}

/* What there is to do: a state file of another run (another plan's,
 * or one made before runs had hashes) goes, and the run is run again. */
static void
count_runs(struct sweep *s)
{
	char *path;

	for (size_t r = 0; r < s->p->n; r++) {
		if (!s->want[r])
			continue;
		switch (phys_sweep_state(s->dir, &s->p->run[r])) {
		case PHYS_SWEEP_DONE:
			s->skipped++;
			continue;
		case PHYS_SWEEP_OTHER:
			path = phys_sweep_state_path(s->dir, s->p->run[r].id);
			unlink(path);
			free(path);
			s->others++;
			break;
		case PHYS_SWEEP_NOT_RUN:
			break;
		}
		s->todo++;
	}
	if (s->others)
		phys_warn("%s: %zu state file%s made by other runs (another "
		    "plan's): run again", s->dir, s->others,
		    s->others == 1 ? " was" : "s were");
}

/* The lock, the log, and what there is to do. */
static int
sweep_begin(struct sweep *s, bool shared)
{
	char *logpath;

	s->logfd = s->lockfd = -1;
	if (mkdir(s->dir, 0777) < 0 && errno != EEXIST)
		return phys_fail("%s: %s", s->dir, strerror(errno));
	if (lock_dir(s, shared) < 0)
		return -1;
	if (!shared)
		remove_parts(s->dir);
	logpath = phys_xasprintf("%s/log.jsonl", s->dir);
	s->logfd = open(logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
	    0666);
	if (s->logfd < 0)
		phys_warn("%s: %s", logpath, strerror(errno));
	free(logpath);
	count_runs(s);
	s->wk = phys_xcalloc((size_t)s->jobs, sizeof *s->wk);
	s->start = phys_seconds();
	return 0;
}

static void
sweep_end(struct sweep *s)
{
	if (s->logfd >= 0)
		close(s->logfd);
	if (s->lockfd >= 0)
		close(s->lockfd);
	free(s->wk);
	world_cache_free(&s->world);
}

int
phys_sweep_run(const struct phys_sweep_runs *r, const bool *want,
    const struct phys_sweep_options *o, int *stopped)
{
	struct sweep s = { 0 };
	struct sigaction was[NSTOP];
	void (*pipe_was)(int);
	long busy;
	int rc;

	*stopped = 0;
	s.dir = o->dir;
	s.p = r;
	s.want = want;
	s.jobs = o->jobs;
	s.tty = phys_stderr_is_tty();
	s.self = getpid();
	s.shared = o->shared;
	if (sweep_begin(&s, o->shared) < 0) {
		sweep_end(&s);
		return -1;
	}
	catch_stop(was);
	/* a worker that has gone leaves a pipe no one reads: an error
	 * (see give), not a signal */
	pipe_was = signal(SIGPIPE, SIG_IGN);
	while ((busy = dispatch(&s)) > 0 && !stop_signal)
		collect(&s);
	if (busy < 0 || stop_signal) {
		stop_workers(&s);
		sync_dir(s.dir);
		phys_status_clear();
		if (busy >= 0) {
			phys_warn("stopped: %zu runs done, %zu to go (run again "
			    "to resume)", s.done, s.todo - s.done - s.failed);
			*stopped = stop_signal;
			phys_fail("stopped");
		}
		rc = -1;
	} else {
		end_workers(&s);
		sync_dir(s.dir);
		if (s.tty)
			phys_status_clear();
		phys_warn("%zu runs: %zu done, %zu failed, %zu already done "
		    "(%.1f s)", s.todo + s.skipped, s.done, s.failed, s.skipped,
		    phys_seconds() - s.start);
		rc = s.failed ? 1 : 0;
	}
	restore_stop(was);
	signal(SIGPIPE, pipe_was);
	sweep_end(&s);
	return rc;
}
