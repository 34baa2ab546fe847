/*
 * param.c - the parameter registry: the table expanded from params.def,
 * lookup by name or alias, strict parsing, range checks and printing.
 *
 * Value ownership: phys_value_parse(), phys_value_default() and
 * phys_value_copy() treat their destination as uninitialised storage and
 * never free what it held; release a value with phys_value_free() before
 * overwriting it. phys_values_copy() is the exception: its destination is
 * a whole array made by phys_values_new(), whose old strings it frees.
 */
#include "param.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define P(id, scope, name, alias, type, def, units, min, max, values,	\
    engines, ode, doc)							\
	{ PHYS_P_##id, PHYS_S_##scope, name, alias, PHYS_T_##type, def,	\
	    units, min, max, values, engines, PHYS_SUPPORT_##ode, doc },
const struct phys_param phys_params[PHYS_NPARAMS] = {
#include "params.def"
};
#undef P

/*
 * Rows per scope, counted by the compiler so that the index table below
 * is a constant: code may use PV() from any constructor or static
 * initialiser without depending on the order they run in.
 */
enum {
	N_PHYSICS = 0
#define P(id, scope, ...) + (PHYS_S_##scope == PHYS_S_PHYSICS)
#include "params.def"
#undef P
	,
	N_WORLD = 0
#define P(id, scope, ...) + (PHYS_S_##scope == PHYS_S_WORLD)
#include "params.def"
#undef P
	,
	N_LINK = 0
#define P(id, scope, ...) + (PHYS_S_##scope == PHYS_S_LINK)
#include "params.def"
#undef P
	,
	N_COLLISION = 0
#define P(id, scope, ...) + (PHYS_S_##scope == PHYS_S_COLLISION)
#include "params.def"
#undef P
	,
	N_JOINT = 0
#define P(id, scope, ...) + (PHYS_S_##scope == PHYS_S_JOINT)
#include "params.def"
#undef P
};

enum {
	FIRST_PHYSICS = 0,
	FIRST_WORLD = FIRST_PHYSICS + N_PHYSICS,
	FIRST_LINK = FIRST_WORLD + N_WORLD,
	FIRST_COLLISION = FIRST_LINK + N_LINK,
	FIRST_JOINT = FIRST_COLLISION + N_COLLISION
};

/* A row outside its scope's block would corrupt every value array. */
#define P(id, scope, ...)						\
	_Static_assert((int)PHYS_P_##id >= (int)FIRST_##scope &&		\
	    (int)PHYS_P_##id < (int)FIRST_##scope + (int)N_##scope,	\
	    "params.def: " #id " is not grouped with its scope " #scope);
#include "params.def"
#undef P

int phys_param_index[PHYS_NPARAMS] = {
#define P(id, scope, ...)						\
	[PHYS_P_##id] = (int)PHYS_P_##id - (int)FIRST_##scope,
#include "params.def"
#undef P
};

static const size_t scope_first[PHYS_NSCOPES] = {
	FIRST_PHYSICS, FIRST_WORLD, FIRST_LINK, FIRST_COLLISION, FIRST_JOINT
};
static const size_t scope_n[PHYS_NSCOPES] = {
	N_PHYSICS, N_WORLD, N_LINK, N_COLLISION, N_JOINT
};

const char *
phys_type_name(phys_type t)
{
	static const char *const names[] = {
		"double", "int", "bool", "string", "vector3", "pose"
	};

	if ((unsigned)t >= sizeof names / sizeof names[0])
		return "?";
	return names[t];
}

/* The <physics type> of each engine bit, bit i naming 1 << i. */
static const char *const engine_types[] = {
#define PHYS_E(type, bit_name, bit, gz) [bit] = #type,
#include "engines.def"
#undef PHYS_E
};
#define N_ENGINE_TYPES (sizeof engine_types / sizeof engine_types[0])

const char *
phys_engine_type_name(unsigned bit)
{
	unsigned i;

	for (i = 0; i < N_ENGINE_TYPES; i++)
		if (bit == 1u << i)
			return engine_types[i];
	return NULL;
}

/* What names each engine in gz-sim's physics plugin, by its type. */
static const struct {
	const char *type, *gz;
} gz_names[] = {
#define PHYS_E(type, bit_name, bit, gz) { #type, gz },
#include "engines.def"
#undef PHYS_E
};

/* The engine whose name in gz-physics the file name's last part holds (a
 * folder's name says nothing), or whose type it is. */
const char *
phys_gz_engine_type(const char *file)
{
	const char *base = strrchr(file, '/');
	size_t i;

	base = base ? base + 1 : file;
	for (i = 0; i < sizeof gz_names / sizeof gz_names[0]; i++)
		if (strstr(base, gz_names[i].gz))
			return gz_names[i].type;
	for (i = 0; i < sizeof gz_names / sizeof gz_names[0]; i++)
		if (strcmp(file, gz_names[i].type) == 0)
			return gz_names[i].type;
	return NULL;
}

unsigned
phys_engine_bit(const char *type)
{
	unsigned i;

	for (i = 0; i < N_ENGINE_TYPES; i++)
		if (engine_types[i] && strcmp(type, engine_types[i]) == 0)
			return 1u << i;
	return 0;
}

const char *
phys_scope_name(phys_scope s)
{
	static const char *const names[PHYS_NSCOPES] = {
		"physics", "world", "link", "collision", "joint"
	};

	if ((unsigned)s >= PHYS_NSCOPES)
		return "?";
	return names[s];
}

size_t
phys_scope_count(phys_scope s)
{
	if ((unsigned)s >= PHYS_NSCOPES)
		return 0;
	return scope_n[s];
}

const struct phys_param *
phys_scope_param(phys_scope s, size_t index)
{
	if ((unsigned)s >= PHYS_NSCOPES || index >= scope_n[s])
		return NULL;
	return &phys_params[scope_first[s] + index];
}

/*
 * Names as trees: each scope's dotted names, part by part, so that a
 * reader walks an entity's elements once instead of looking up every
 * name from the entity down (a collision has 61 names; a 50-body model's
 * lookups were a tenth of its read).
 */
static struct phys_name_node trees[PHYS_NSCOPES][PHYS_NAME_TREE_MAX];
static bool trees_built;

/* The child of node k named by part (len bytes), added when absent. */
static int
tree_child(struct phys_name_node *t, int *n, int k, const char *part,
    size_t len)
{
	int c, *at = &t[k].child;
	char *copy;

	for (c = *at; c >= 0; at = &t[c].next, c = *at)
		if (strncmp(t[c].part, part, len) == 0 && !t[c].part[len])
			return c;
	if (*n >= PHYS_NAME_TREE_MAX)
		phys_die(PHYS_EXIT_FAIL, "params.def: a scope has more than "
		    "%d name parts: raise PHYS_NAME_TREE_MAX",
		    PHYS_NAME_TREE_MAX);
	copy = phys_xmalloc(len + 1);
	memcpy(copy, part, len);
	copy[len] = '\0';
	t[*n] = (struct phys_name_node){ copy, -1, -1, -1 };
	*at = *n;
	return (*n)++;
}

static void
trees_build(void)
{
	const char *name, *dot;
	size_t s, i;
	int n, k;

	for (s = 0; s < PHYS_NSCOPES; s++) {
		trees[s][0] = (struct phys_name_node){ "", -1, -1, -1 };
		n = 1;
		for (i = 0; i < scope_n[s]; i++) {
			name = phys_params[scope_first[s] + i].name;
			for (k = 0; (dot = strchr(name, '.')); name = dot + 1)
				k = tree_child(trees[s], &n, k, name,
				    (size_t)(dot - name));
			k = tree_child(trees[s], &n, k, name, strlen(name));
			trees[s][k].param = (int)i;
		}
	}
	trees_built = true;
}

const struct phys_name_node *
phys_scope_tree(phys_scope s)
{
	if ((unsigned)s >= PHYS_NSCOPES)
		return NULL;
	if (!trees_built)
		trees_build();
	return trees[s];
}

/*
 * Lookup: one open-addressing table for names and aliases of every scope,
 * keyed by (scope, text). At most a quarter full, so a probe run is short.
 */
#define HASH_SIZE 2048
#define HASH_MASK (HASH_SIZE - 1)
_Static_assert(4 * 2 * PHYS_NPARAMS <= HASH_SIZE,
    "params.def outgrew the lookup table: raise HASH_SIZE");

struct slot {
	const char *key;	/* the name or alias; NULL when empty */
	uint32_t hash;
	uint16_t param;
};

static struct slot table[HASH_SIZE];
static bool table_built;

/* FNV-1a over the scope then the text: cheap, and good on short keys. */
static uint32_t
key_hash(phys_scope s, const char *key)
{
	uint32_t h = 2166136261u;

	h = (h ^ (uint32_t)s) * 16777619u;
	for (; *key; key++)
		h = (h ^ (unsigned char)*key) * 16777619u;
	return h;
}

static const struct slot *
table_probe(phys_scope s, const char *key, uint32_t h)
{
	const struct slot *t;
	size_t i;

	for (i = h & HASH_MASK; table[i].key; i = (i + 1) & HASH_MASK) {
		t = &table[i];
		if (t->hash == h && phys_params[t->param].scope == s &&
		    strcmp(t->key, key) == 0)
			return t;
	}
	return NULL;
}

static void
table_add(const struct phys_param *p, const char *key)
{
	uint32_t h = key_hash(p->scope, key);
	size_t i;

	/* A repeated key would make one of the two unreachable. */
	if (table_probe(p->scope, key, h))
		phys_die(PHYS_EXIT_FAIL, "params.def: %s %s is listed twice",
		    phys_scope_name(p->scope), key);
	for (i = h & HASH_MASK; table[i].key; i = (i + 1) & HASH_MASK)
		continue;
	table[i].key = key;
	table[i].hash = h;
	table[i].param = (uint16_t)(p - phys_params);
}

/* Built on first use; the commands are single-threaded. */
static void
table_build(void)
{
	const struct phys_param *p;

	for (p = phys_params; p < phys_params + PHYS_NPARAMS; p++) {
		table_add(p, p->name);
		if (p->alias)
			table_add(p, p->alias);
	}
	table_built = true;
}

const struct phys_param *
phys_param_find(phys_scope s, const char *name)
{
	const struct slot *t;

	if (!name || (unsigned)s >= PHYS_NSCOPES)
		return NULL;
	if (!table_built)
		table_build();
	t = table_probe(s, name, key_hash(s, name));
	return t ? &phys_params[t->param] : NULL;
}

/* How far a query is from a parameter: the nearer of name and alias. */
static size_t
param_distance(const struct phys_param *p, const char *name)
{
	size_t d = phys_edit_distance(name, p->name), da;

	if (p->alias && (da = phys_edit_distance(name, p->alias)) < d)
		d = da;
	return d;
}

static bool
param_contains(const struct phys_param *p, const char *name)
{
	return strstr(p->name, name) || (p->alias && strstr(p->alias, name));
}

size_t
phys_param_suggest(phys_scope s, const char *name,
    const struct phys_param **out, size_t n)
{
	struct { size_t dist; const struct phys_param *p; } c[PHYS_NPARAMS], t;
	const struct phys_param *p;
	size_t i, j, nc = 0, limit, k;

	if (!name || !*name || (unsigned)s >= PHYS_NSCOPES)
		return 0;
	limit = strlen(name) / 3 > 2 ? strlen(name) / 3 : 2;
	for (i = 0; i < scope_n[s]; i++) {
		p = &phys_params[scope_first[s] + i];
		c[nc].dist = param_distance(p, name);
		c[nc].p = p;
		if (c[nc].dist <= limit || param_contains(p, name))
			nc++;
	}
	/* Insertion sort is stable, so equal distances keep table order. */
	for (i = 1; i < nc; i++) {
		t = c[i];
		for (j = i; j > 0 && c[j - 1].dist > t.dist; j--)
			c[j] = c[j - 1];
		c[j] = t;
	}
	k = nc < n ? nc : n;
	for (i = 0; i < k; i++)
		out[i] = c[i].p;
	return k;
}

/* ---- parsing -------------------------------------------------------- */

/* The text with surrounding blanks dropped: start and length. */
static const char *
trim(const char *s, size_t *len)
{
	size_t n;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	n = strlen(s);
	while (n > 0 && strchr(" \t\n\r", s[n - 1]))
		n--;
	*len = n;
	return s;
}

/* '"text" is not ...', the text kept short. */
static int
fail_textn(const struct phys_param *p, const char *s, size_t n,
    const char *what)
{
	if (n > 60)
		return phys_fail("%s: \"%.57s...\" is not %s", p->name, s,
		    what);
	return phys_fail("%s: \"%.*s\" is not %s", p->name, (int)n, s, what);
}

static int
fail_text(const struct phys_param *p, const char *text, const char *what)
{
	size_t n;
	const char *s = trim(text, &n);

	return fail_textn(p, s, n, what);
}

/* A number text that is no double: one strtod reads whole but out of
 * range (1e-308, below the least normal one: "not a number" misled),
 * else not a number. */
static int
fail_double(const struct phys_param *p, const char *text)
{
	size_t n;
	const char *s = trim(text, &n);
	char *end;
	double x;

	errno = 0;
	x = strtod(s, &end);
	if (n > 0 && n <= 60 && end == s + n && errno == ERANGE)
		return phys_fail("%s: \"%.*s\" is %s for a double", p->name,
		    (int)n, s, fabs(x) > 1 ? "too large" : "too small");
	return fail_textn(p, s, n, "a number");
}

static bool
in_set(const char *values, const char *s, size_t n)
{
	const char *v = values, *bar;
	size_t vn;

	for (;;) {
		bar = strchr(v, '|');
		vn = bar ? (size_t)(bar - v) : strlen(v);
		if (vn == n && strncmp(v, s, n) == 0)
			return true;
		if (!bar)
			return false;
		v = bar + 1;
	}
}

/* "is not one of a, b, c" for a closed set written "a|b|c". */
static int
fail_set(const struct phys_param *p, const char *s, size_t n)
{
	struct phys_buf b = { 0 };
	const char *v;
	int r;

	phys_buf_puts(&b, "one of ");
	for (v = p->values; *v; v++)
		if (*v == '|')
			phys_buf_puts(&b, ", ");
		else
			phys_buf_putc(&b, *v);
	r = fail_textn(p, s, n, b.s);
	phys_buf_free(&b);
	return r;
}

static int
parse_string(const struct phys_param *p, const char *text,
    struct phys_value *v)
{
	size_t n;
	const char *s = trim(text, &n);

	if (p->values && !in_set(p->values, s, n))
		return fail_set(p, s, n);
	v->s = phys_xstrndup(s, n);
	return 0;
}

static int
parse_numbers(const struct phys_param *p, const char *text, double *out,
    int want)
{
	if (phys_parse_doubles(text, out, want) == want)
		return 0;
	if (want == 3)
		return fail_text(p, text,
		    "a vector3 (three numbers: x y z)");
	return fail_text(p, text,
	    "a pose (six numbers: x y z roll pitch yaw)");
}

static int check_range(const struct phys_param *p, double x, const char *xs);

/* Digits too many for a long are still a number out of range, and the
 * message should say so rather than that they are not an int. */
static int
fail_int(const struct phys_param *p, const char *text)
{
	size_t n;
	const char *s = trim(text, &n);
	char xs[40];
	double d;

	if (n > 0 && n < sizeof xs && strspn(s, "+-0123456789") == n &&
	    phys_parse_double(text, &d)) {
		memcpy(xs, s, n);
		xs[n] = '\0';
		if (check_range(p, d, xs) < 0)
			return -1;
	}
	return fail_text(p, text, "an int");
}

static int
parse_text(const struct phys_param *p, const char *text,
    struct phys_value *v)
{
	double d[3];

	switch (p->type) {
	case PHYS_T_DOUBLE:
		if (!phys_parse_double(text, &v->u.d))
			return fail_double(p, text);
		return 0;
	case PHYS_T_INT:
		if (!phys_parse_long(text, &v->u.i))
			return fail_int(p, text);
		return 0;
	case PHYS_T_BOOL:
		if (!phys_parse_bool(text, &v->u.b))
			return fail_text(p, text, "a bool (true or false)");
		return 0;
	case PHYS_T_STRING:
		return parse_string(p, text, v);
	case PHYS_T_VEC3:
		if (parse_numbers(p, text, d, 3) < 0)
			return -1;
		v->u.v.x = d[0];
		v->u.v.y = d[1];
		v->u.v.z = d[2];
		return 0;
	case PHYS_T_POSE:
		return parse_numbers(p, text, v->u.pose, 6);
	}
	return phys_fail("%s: unknown type", p->name);
}

int
phys_value_parse(const struct phys_param *p, const char *text,
    struct phys_value *out)
{
	struct phys_value v;

	memset(&v, 0, sizeof v);
	if (parse_text(p, text ? text : "", &v) < 0)
		return -1;
	if (phys_value_check(p, &v) < 0) {
		free(v.s);
		return -1;
	}
	v.given = true;
	*out = v;
	return 0;
}

/* ---- checks --------------------------------------------------------- */

static int
check_range(const struct phys_param *p, double x, const char *xs)
{
	char bs[40];

	if (x < p->min && PHYS_MIN_ABOVE_ZERO(p))
		return phys_fail("%s: %s must be above 0", p->name, xs);
	if (x < p->min) {
		phys_fmt_double(bs, sizeof bs, p->min);
		return phys_fail("%s: %s is below the minimum %s", p->name,
		    xs, bs);
	}
	if (x > p->max) {
		phys_fmt_double(bs, sizeof bs, p->max);
		return phys_fail("%s: %s is above the maximum %s", p->name,
		    xs, bs);
	}
	return 0;
}

static int
check_double(const struct phys_param *p, double x)
{
	char xs[40];

	if (!isfinite(x))
		return phys_fail("%s: the value is not a finite number",
		    p->name);
	if (x >= p->min && x <= p->max)	/* the text is for the message */
		return 0;
	phys_fmt_double(xs, sizeof xs, x);
	return check_range(p, x, xs);
}

static int
check_int(const struct phys_param *p, long x)
{
	char xs[24];

	snprintf(xs, sizeof xs, "%ld", x);
	if ((double)x < p->min || (double)x > p->max)
		return check_range(p, (double)x, xs);
	/* an int of a closed set: MuJoCo's condim is 1, 3, 4 or 6 */
	if (p->values && !in_set(p->values, xs, strlen(xs)))
		return fail_set(p, xs, strlen(xs));
	return 0;
}

static int
check_finite(const struct phys_param *p, const double *x, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return phys_fail("%s: the value is not finite",
			    p->name);
	return 0;
}

/* Finite, and each component in the range when there is one (sizes). */
static int
check_vec3(const struct phys_param *p, const double xyz[3])
{
	int i;

	if (check_finite(p, xyz, 3) < 0)
		return -1;
	for (i = 0; i < 3; i++)
		if (check_double(p, xyz[i]) < 0)
			return -1;
	return 0;
}

static int
check_type(const struct phys_param *p, const struct phys_value *v)
{
	double xyz[3];
	const char *s;

	switch (p->type) {
	case PHYS_T_DOUBLE:
		return check_double(p, v->u.d);
	case PHYS_T_INT:
		return check_int(p, v->u.i);
	case PHYS_T_BOOL:
		return 0;
	case PHYS_T_STRING:
		s = v->s ? v->s : "";
		if (p->values && !in_set(p->values, s, strlen(s)))
			return fail_set(p, s, strlen(s));
		return 0;
	case PHYS_T_VEC3:
		xyz[0] = v->u.v.x;
		xyz[1] = v->u.v.y;
		xyz[2] = v->u.v.z;
		return check_vec3(p, xyz);
	case PHYS_T_POSE:
		return check_finite(p, v->u.pose, 6);
	}
	return phys_fail("%s: unknown type", p->name);
}

/* params.def's PHYS_ACCEPT rows, by parameter: the open interval the
 * engines take (exclusive bounds). */
struct accept {
	bool has;
	unsigned engines;
	double above, below;
	const char *why;
};

static const struct accept accepts[PHYS_NPARAMS] = {
#define P(...)
#define PHYS_ACCEPT(id, engines, above, below, why)			\
	[PHYS_P_##id] = { true, engines, above, below, why },
#include "params.def"
#undef PHYS_ACCEPT
#undef P
};

/* Who refuses it: the engine's type when one, else "the engines". */
static const char *
accept_who(unsigned engines)
{
	const char *t = phys_engine_type_name(engines);

	return t ? t : "the engines";
}

/*
 * A value in the row's range that an engine would still abort or loop
 * on. A vector's length is what counts; a zero vector is left to the
 * checks that name it ("axis is zero").
 */
static int
check_accept(const struct phys_param *p, const struct phys_value *v)
{
	const struct accept *a = &accepts[p->id];
	struct phys_buf b = { 0 };
	double x;
	int r;

	if (!a->has)
		return 0;
	if (p->type == PHYS_T_VEC3) {
		x = fabs(v->u.v.x) + fabs(v->u.v.y) + fabs(v->u.v.z);
		if (x == 0)
			return 0;
		x = fmax(fmax(fabs(v->u.v.x), fabs(v->u.v.y)),
		    fabs(v->u.v.z));
	} else if (p->type == PHYS_T_DOUBLE) {
		x = v->u.d;
	} else {
		x = (double)v->u.i;
	}
	if (x > a->above && x < a->below)
		return 0;
	phys_value_sdf(p, v, &b);
	r = phys_fail("%s: %s is refused: %s take%s only %s above %g and "
	    "below %g (%s)", p->name, b.s, accept_who(a->engines),
	    phys_engine_type_name(a->engines) ? "s" : "",
	    p->type == PHYS_T_VEC3 ? "vectors whose largest component in size "
	    "is" : "values", a->above,
	    a->below, a->why);
	phys_buf_free(&b);
	return r;
}

int
phys_value_check(const struct phys_param *p, const struct phys_value *v)
{
	if (check_type(p, v) < 0)
		return -1;
	return check_accept(p, v);
}

/* ---- defaults ------------------------------------------------------- */

/* Parsed once: phys_values_new() runs for every entity of a world. */
static struct phys_value defaults[PHYS_NPARAMS];
static bool defaults_built;

static void
defaults_build(void)
{
	size_t i;

	for (i = 0; i < PHYS_NPARAMS; i++) {
		if (phys_params[i].type == PHYS_T_INT &&
		    !(phys_params[i].max <= 4294967295.0))
			phys_die(PHYS_EXIT_FAIL, "params.def: %s: an int needs "
			    "a finite MAX", phys_params[i].name);
		if (phys_value_parse(&phys_params[i], phys_params[i].def,
		    &defaults[i]) < 0)
			phys_die(PHYS_EXIT_FAIL, "params.def: bad default: %s",
			    phys_error());
		defaults[i].given = false;
	}
	defaults_built = true;
}

void
phys_value_default(const struct phys_param *p, struct phys_value *out)
{
	if (!defaults_built)
		defaults_build();
	phys_value_copy(out, &defaults[p - phys_params]);
}

/* ---- printing ------------------------------------------------------- */

static void
put_sdf_double(struct phys_buf *b, double x)
{
	char tmp[40];

	phys_buf_putn(b, tmp, (size_t)phys_fmt_double(tmp, sizeof tmp, x));
}

static void
put_sdf_doubles(struct phys_buf *b, const double *x, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (i > 0)
			phys_buf_putc(b, ' ');
		put_sdf_double(b, x[i]);
	}
}

void
phys_value_sdf(const struct phys_param *p, const struct phys_value *v,
    struct phys_buf *b)
{
	double xyz[3];

	switch (p->type) {
	case PHYS_T_DOUBLE:
		put_sdf_double(b, v->u.d);
		break;
	case PHYS_T_INT:
		phys_buf_printf(b, "%ld", v->u.i);
		break;
	case PHYS_T_BOOL:
		phys_buf_puts(b, v->u.b ? "true" : "false");
		break;
	case PHYS_T_STRING:
		phys_buf_puts(b, v->s ? v->s : "");
		break;
	case PHYS_T_VEC3:
		xyz[0] = v->u.v.x;
		xyz[1] = v->u.v.y;
		xyz[2] = v->u.v.z;
		put_sdf_doubles(b, xyz, 3);
		break;
	case PHYS_T_POSE:
		put_sdf_doubles(b, v->u.pose, 6);
		break;
	}
}

void
phys_value_json(const struct phys_param *p, const struct phys_value *v,
    struct phys_buf *b)
{
	static const char *const keys[] = {
		"x", "y", "z", "roll", "pitch", "yaw"
	};
	double xyz[3];

	switch (p->type) {
	case PHYS_T_DOUBLE:
		phys_buf_double(b, v->u.d);
		break;
	case PHYS_T_INT:
		phys_buf_printf(b, "%ld", v->u.i);
		break;
	case PHYS_T_BOOL:
		phys_buf_puts(b, v->u.b ? "true" : "false");
		break;
	case PHYS_T_STRING:
		phys_buf_json_string(b, v->s ? v->s : "");
		break;
	case PHYS_T_VEC3:
		xyz[0] = v->u.v.x;
		xyz[1] = v->u.v.y;
		xyz[2] = v->u.v.z;
		phys_buf_json_numbers(b, keys, xyz, 3);
		break;
	case PHYS_T_POSE:
		phys_buf_json_numbers(b, keys, v->u.pose, 6);
		break;
	}
}

/* ---- value life cycle ----------------------------------------------- */

bool
phys_value_equal(const struct phys_param *p, const struct phys_value *a,
    const struct phys_value *b)
{
	int i;

	switch (p->type) {
	case PHYS_T_DOUBLE:
		return a->u.d == b->u.d;
	case PHYS_T_INT:
		return a->u.i == b->u.i;
	case PHYS_T_BOOL:
		return a->u.b == b->u.b;
	case PHYS_T_STRING:
		return strcmp(a->s ? a->s : "", b->s ? b->s : "") == 0;
	case PHYS_T_VEC3:
		return a->u.v.x == b->u.v.x && a->u.v.y == b->u.v.y &&
		    a->u.v.z == b->u.v.z;
	case PHYS_T_POSE:
		for (i = 0; i < 6; i++)
			if (a->u.pose[i] != b->u.pose[i])
				return false;
		return true;
	}
	return false;
}

void
phys_value_copy(struct phys_value *dst, const struct phys_value *src)
{
	*dst = *src;
	dst->s = src->s ? phys_xstrdup(src->s) : NULL;
}

void
phys_value_free(struct phys_value *v)
{
	free(v->s);
	v->s = NULL;
}

void
phys_values_init(phys_scope s, struct phys_value *vals,
    const struct phys_value *src)
{
	size_t i, n = phys_scope_count(s);

	if (!src) {
		if (!defaults_built)
			defaults_build();
		src = &defaults[scope_first[s]];
	}
	/* one copy of the array, then its few strings */
	memcpy(vals, src, n * sizeof *vals);
	for (i = 0; i < n; i++)
		if (vals[i].s)
			vals[i].s = phys_xstrdup(vals[i].s);
}

struct phys_value *
phys_values_new(phys_scope s)
{
	struct phys_value *vals = phys_xmalloc(phys_scope_count(s) * sizeof *vals);

	phys_values_init(s, vals, NULL);
	return vals;
}

void
phys_values_clear(phys_scope s, struct phys_value *vals)
{
	size_t i, n = phys_scope_count(s);

	for (i = 0; i < n; i++)
		phys_value_free(&vals[i]);
}

void
phys_values_free(phys_scope s, struct phys_value *vals)
{
	if (!vals)
		return;
	phys_values_clear(s, vals);
	free(vals);
}

void
phys_values_copy(phys_scope s, struct phys_value *dst,
    const struct phys_value *src)
{
	size_t i, n = phys_scope_count(s);

	if (dst == src)
		return;
	for (i = 0; i < n; i++) {
		phys_value_free(&dst[i]);
		phys_value_copy(&dst[i], &src[i]);
	}
}

bool
phys_param_run_only(const struct phys_param *p)
{
	return p->id >= PHYS_P_JOINT_position_pid_p_gain &&
	    p->id <= PHYS_P_JOINT_implicit_servo;
}

struct phys_axis_values
phys_joint_axis_values(const struct phys_value *v, int k)
{
#define AXIS_IDS(a) { PHYS_P_JOINT_##a##_limit_lower,			\
	PHYS_P_JOINT_##a##_limit_upper, PHYS_P_JOINT_##a##_limit_stiffness, \
	PHYS_P_JOINT_##a##_limit_dissipation,				\
	PHYS_P_JOINT_##a##_dynamics_damping,				\
	PHYS_P_JOINT_##a##_dynamics_friction,				\
	PHYS_P_JOINT_##a##_dynamics_spring_stiffness,			\
	PHYS_P_JOINT_##a##_dynamics_spring_reference,			\
	PHYS_P_JOINT_##a##_limit_effort, PHYS_P_JOINT_##a##_limit_velocity }
	static const enum phys_param_id ids[2][10] = { AXIS_IDS(axis),
		AXIS_IDS(axis2) };
#undef AXIS_IDS
	double x[10];
	int i;

	for (i = 0; i < 10; i++)
		x[i] = v[phys_param_index[ids[k != 0][i]]].u.d;
	/* A lower limit above the upper one leaves the axis free, under
	 * every engine (each took it its own way: DART held the joint to
	 * the upper alone, MuJoCo to both, ODE to the lower). */
	if (!(x[0] <= x[1]))
		x[0] = -PHYS_NO_LIMIT, x[1] = PHYS_NO_LIMIT;
	return (struct phys_axis_values){ .lower = x[0], .upper = x[1],
	    .limit_stiffness = x[2], .limit_dissipation = x[3],
	    .damping = x[4], .friction = x[5], .stiffness = x[6],
	    .reference = x[7], .effort = x[8], .velocity = x[9] };
}

bool
phys_axis_limited(const struct phys_axis_values *a)
{
	return phys_has_lower(a->lower) || phys_has_upper(a->upper);
}

double
phys_joint_screw_lead(const struct phys_value *v)
{
	if (PV(v, JOINT_screw_thread_pitch)->given)
		return PVD(v, JOINT_screw_thread_pitch) / (2 * M_PI);
	return -1 / PVD(v, JOINT_thread_pitch);
}

bool
phys_bitmasks_touch(int cat1, int col1, int cat2, int col2)
{
	return (cat1 & col2) != 0 || (cat2 & col1) != 0;
}

double
phys_ball_range(const struct phys_value *v)
{
	double upper = phys_joint_axis_values(v, 0).upper;

	return phys_has_upper(upper) ? fmax(upper, 0) : PHYS_NO_LIMIT;
}

unsigned
phys_ball_values_set(const struct phys_value *v)
{
	struct phys_axis_values a = phys_joint_axis_values(v, 0);

	return (a.damping != 0 ? PHYS_BALL_DAMPING : 0) |
	    (a.friction != 0 ? PHYS_BALL_FRICTION : 0) |
	    (a.stiffness != 0 ? PHYS_BALL_SPRING : 0) |
	    (phys_has_upper(a.upper) ? PHYS_BALL_RANGE : 0);
}
