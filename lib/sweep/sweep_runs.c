/* sweep_runs.c - run lines read back, and the state files of their runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "sweep.h"

static int
run_line(char *line, long lineno, void *ctx)
{
	struct phys_sweep_runs *p = ctx;
	json_error_t jerr;
	json_t *obj = json_loads(line, JSON_REJECT_DUPLICATES, &jerr), *set, *v;
	const char *k;
	size_t i;

	if (!json_is_object(obj)) {
		json_decref(obj);
		return phys_fail("not a JSON object");
	}
	set = json_object_get(obj, "set");
	if (!json_is_integer(json_object_get(obj, "id")) ||
	    json_integer_value(json_object_get(obj, "id")) < 0 ||
	    !json_is_string(json_object_get(obj, "world")) ||
	    (set && !json_is_object(set))) {
		json_decref(obj);
		return phys_fail("a run line needs \"id\" (a whole number >= 0), "
		    "\"world\" and an object \"set\"");
	}
	json_object_foreach(set, k, v)
		if (!json_is_string(v)) {
			json_decref(obj);
			return phys_fail("\"set\": the value of '%s' is not a "
			    "string", k);
		}
	for (i = 0; i < p->n; i++)
		if (phys_sweep_run_id(p->v[i]) == phys_sweep_run_id(obj)) {
			json_decref(obj);
			return phys_fail("run %lld comes twice",
			    phys_sweep_run_id(obj));
		}
	p->v = phys_xrealloc(p->v, (p->n + 1) * sizeof *p->v);
	p->v[p->n++] = obj;
	return 0;
}

int
phys_sweep_runs_load(struct phys_sweep_runs *r, const char *path)
{
	memset(r, 0, sizeof *r);
	r->name = path;
	return phys_each_line(path, run_line, r);
}

void
phys_sweep_runs_free(struct phys_sweep_runs *r)
{
	for (size_t i = 0; i < r->n; i++)
		json_decref(r->v[i]);
	free(r->v);
	r->v = NULL;
	r->n = 0;
}

long long
phys_sweep_run_id(json_t *run)
{
	return json_integer_value(json_object_get(run, "id"));
}

char *
phys_sweep_state_path(const char *dir, json_t *run)
{
	return phys_xasprintf("%s/%lld.jsonl", dir, phys_sweep_run_id(run));
}

void
phys_sweep_put_run(json_t *run, FILE *out)
{
	char *s = json_dumps(run, JSON_COMPACT | JSON_PRESERVE_ORDER |
	    JSON_REAL_PRECISION(17));

	fputs(s, out);
	putc('\n', out);
	free(s);
	phys_signal_check();
}

int
phys_sweep_stream(const char *dir, const struct phys_sweep_runs *r,
    FILE *out)
{
	struct phys_lines l;
	char *path, *line;
	size_t len;
	int rc = 0, k;

	for (size_t i = 0; i < r->n && rc == 0; i++) {
		path = phys_sweep_state_path(dir, r->v[i]);
		if (access(path, F_OK) != 0) {
			free(path);
			continue;
		}
		rc = phys_lines_open(&l, path, 0);
		while (rc == 0 && (k = phys_lines_next(&l, &line, &len)) > 0) {
			if (len < 2 || line[0] != '{')
				continue;
			fprintf(out, "{\"run\":%lld,%s\n",
			    phys_sweep_run_id(r->v[i]), line + 1);
			phys_signal_check();
		}
		if (rc == 0)
			phys_lines_close(&l);
		free(path);
	}
	return rc;
}
