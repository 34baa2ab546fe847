/*
 * mjcf_pid.c - MuJoCo's pid actuator (its plugin mujoco.pid, a later
 * MuJoCo's): the instances an <extension> declares, and the configuration
 * of one, as the plugin reads its keys. The actuators that name them are
 * read with the others (mjcf.c), as joints' position servos with an
 * integral term and a slew limit.
 */
#include <string.h>

#include "mjcfint.h"
#include "mjcf_pid.h"

/* The value v of a key, into *out: 1, or 0 where v is empty (as absent,
 * as the plugin reads it), -1 where it is no number. */
static int
pid_key(struct reader *r, xmlNodePtr c, const char *key, const char *v,
    double *out)
{
	if (!v || !*v)
		return 0;
	if (!phys_parse_double(v, out))
		return mj_fail(r, c, "mujoco.pid key '%s': '%.40s' is not a "
		    "number", key, v);
	return 1;
}

int
phys_mjcf_pid_config(struct reader *r, xmlNodePtr n, struct mj_pid *p)
{
	static const char *const keys[] = { "kp", "ki", "kd", "imax",
		"slewmax", NULL };
	double *at[] = { &p->kp, &p->ki, &p->kd, &p->imax, &p->slew };
	const char *key;
	xmlNodePtr c;
	int k, rc;

	p->kp = p->ki = p->kd = 0;
	p->imax = p->slew = -1;
	p->has_imax = p->has_slew = false;
	for (c = phys_child(n, "config"); c; c = phys_next(c, "config")) {
		key = own_attr(c, "key");
		for (k = 0; keys[k] && (!key || strcmp(key, keys[k]) != 0);
		    k++)
			;
		if (!keys[k])
			return mj_fail(r, c, "mujoco.pid has no key '%s' (its "
			    "keys: kp, ki, kd, imax, slewmax)", key ? key : "");
		if ((rc = pid_key(r, c, key, own_attr(c, "value"),
		    at[k])) < 0)
			return -1;
		if (k == 3)
			p->has_imax = rc > 0;
		if (k == 4)
			p->has_slew = rc > 0;
	}
	if (p->has_imax && p->imax < 0)
		return mj_fail(r, n, "%s", "mujoco.pid: negative imax, which "
		    "MuJoCo refuses");
	if (p->has_slew && p->slew < 0)
		return mj_fail(r, n, "%s", "mujoco.pid: slewmax must be "
		    "non-negative, as MuJoCo has it");
	return 0;
}

/* One <plugin> of an <extension>: mujoco.pid's instances, or refused. */
static int
read_plugin(struct reader *r, xmlNodePtr n)
{
	const char *which = own_attr(n, "plugin");
	struct mj_pid p;
	xmlNodePtr c;

	if (!which || strcmp(which, "mujoco.pid") != 0)
		return mj_fail(r, n, PHYS_MJCF_PID_ONLY, which ? which : "");
	for (c = phys_child(n, "instance"); c; c = phys_next(c, "instance")) {
		if (phys_mjcf_pid_config(r, c, &p) < 0)
			return -1;
		p.name = phys_xstrdup(own_attr(c, "name") ?
		    own_attr(c, "name") : "");
		PHYS_GROW_ONE(r->pids, r->npids);
		r->pids[r->npids++] = p;
		phys_name_table_add(&r->pid_names, r->npids - 1);
	}
	return 0;
}

int
phys_mjcf_read_extension(struct reader *r, xmlNodePtr ext)
{
	xmlNodePtr c;

	for (c = phys_child(ext, "plugin"); c; c = phys_next(c, "plugin"))
		if (read_plugin(r, c) < 0)
			return -1;
	return 0;
}

void
phys_mjcf_pids_free(struct reader *r)
{
	size_t i;

	for (i = 0; i < r->npids; i++)
		free(r->pids[i].name);
	free(r->pids);
	r->pids = NULL;
	r->npids = 0;
}
