/*
 * select.c - which fields of state lines a command works on: selectors,
 * columns found fast line after line, the items a JSON line keeps, which
 * lines are sampled, and rows of chosen fields as numbers.
 */
#include "select.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geom.h"

/* ---- selectors ------------------------------------------------------- */

void
phys_ist_sel_add(struct phys_ist_sel *s, const char *pat)
{
	s->pat = phys_xrealloc(s->pat, (s->n + 1) * sizeof *s->pat);
	s->pat[s->n++] = phys_xstrdup(pat);
}

void
phys_ist_sel_free(struct phys_ist_sel *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->pat[i]);
	free(s->pat);
	s->pat = NULL;
	s->n = 0;
}

static int
add_selector_line(char *line, long lineno, void *ctx)
{
	char *end;

	line += strspn(line, " \t");
	end = line + strlen(line);
	while (end > line && (end[-1] == ' ' || end[-1] == '\t' ||
	    end[-1] == '\r'))
		*--end = '\0';
	phys_ist_sel_add(ctx, line);
	return 0;
}

int
phys_ist_sel_load(struct phys_ist_sel *s, const char *path)
{
	return phys_each_line(path, add_selector_line, s);
}

int
phys_ist_sel_save(const struct phys_ist_sel *s, const char *path)
{
	struct phys_atomic a;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strchr(s->pat[i], '\n') || s->pat[i][0] == '#' ||
		    s->pat[i][0] == ' ' || s->pat[i][0] == '\t')
			return phys_fail("selector '%s' cannot be saved: it "
			    "would not read back the same", s->pat[i]);
	if (phys_atomic_open(&a, path) < 0)
		return -1;
	fputs("# phys-introspect selection: one selector a line\n", a.fp);
	for (i = 0; i < s->n; i++)
		fprintf(a.fp, "%s\n", s->pat[i]);
	return phys_atomic_commit(&a);
}

/* "ITEM" or "ITEM.FIELD", NUL-terminated, in b. */
static const char *
flat_name(struct phys_buf *b, const struct phys_ist_item *it,
    const struct phys_ist_field *fl)
{
	phys_buf_clear(b);
	phys_buf_putn(b, it->name, it->nlen);
	if (it->kind != IST_SCALAR) {
		phys_buf_putc(b, '.');
		phys_buf_putn(b, fl->name, fl->nlen);
	}
	return b->s;
}

bool
phys_ist_sel_match(const struct phys_ist_sel *s, const char *name, size_t *hits)
{
	bool any = false;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (phys_glob(s->pat[i], name)) {
			any = true;
			if (hits)
				hits[i]++;
		}
	return any;
}

/* " (did you mean 'X'?)" for the name in f closest to want, or "". */
char *
phys_ist_suggest(const struct phys_ist_frame *f, const char *want)
{
	struct phys_buf nb = { 0 };
	char *best = NULL, *res;
	size_t i, j, d, bestd = (size_t)-1, limit;

	for (i = 0; i < f->nitems; i++) {
		const struct phys_ist_item *it = &f->items[i];

		for (j = 0; j <= it->n; j++) {
			if (j == 0) {
				phys_buf_clear(&nb);
				phys_buf_putn(&nb, it->name, it->nlen);
			} else if (it->kind != IST_SCALAR) {
				flat_name(&nb, it,
				    &f->fields[it->first + j - 1]);
			} else {
				continue;
			}
			d = phys_edit_distance(want, nb.s);
			if (d < bestd) {
				bestd = d;
				free(best);
				best = phys_xstrdup(nb.s);
			}
		}
	}
	phys_buf_free(&nb);
	limit = strlen(want) / 4 > 2 ? strlen(want) / 4 : 2;
	res = best && bestd <= limit ?
	    phys_xasprintf(" (did you mean '%s'?)", best) : phys_xstrdup("");
	free(best);
	return res;
}

/* ---- columns: fields addressed by name, found fast line after line --- */

static void
cols_add(struct phys_ist_cols *c, const char *name, size_t itemlen, size_t item,
    size_t field)
{
	struct phys_ist_col *k;

	c->v = phys_xrealloc(c->v, (c->n + 1) * sizeof *c->v);
	k = &c->v[c->n++];
	k->name = phys_xstrdup(name);
	k->itemlen = itemlen;
	k->flen = name[itemlen] ? strlen(name) - itemlen - 1 : 0;
	k->item = item;
	k->field = field;
	k->turn_only = false;
}

void
phys_ist_cols_free(struct phys_ist_cols *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->v[i].name);
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

void
phys_ist_cols_copy(struct phys_ist_cols *dst, const struct phys_ist_cols *src)
{
	size_t i;

	memset(dst, 0, sizeof *dst);
	for (i = 0; i < src->n; i++) {
		cols_add(dst, src->v[i].name, src->v[i].itemlen, 0, 0);
		dst->v[i].turn_only = src->v[i].turn_only;
	}
}

ssize_t
phys_ist_cols_index(const struct phys_ist_cols *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->v[i].name, name) == 0)
			return (ssize_t)i;
	return -1;
}

bool
phys_ist_col_wraps(const struct phys_ist_col *c)
{
	const char *f = c->name + c->itemlen + 1;

	return (c->flen == 4 && memcmp(f, "roll", 4) == 0) ||
	    (c->flen == 3 && memcmp(f, "yaw", 3) == 0);
}

/* The column of c of the field so named of the item of column roll, -1
 * where c has none. */
static ssize_t
sibling(const struct phys_ist_cols *c, size_t roll, const char *field)
{
	const struct phys_ist_col *r = &c->v[roll];
	char *s = phys_xasprintf("%.*s.%s", (int)r->itemlen, r->name, field);
	size_t k;
	ssize_t i = -1;

	/* a pose's fields follow each other (x y z roll pitch yaw) */
	for (k = roll + 1; k < c->n && k < roll + 3 && i < 0; k++)
		if (strcmp(c->v[k].name, s) == 0)
			i = (ssize_t)k;
	if (i < 0)
		i = phys_ist_cols_index(c, s);
	free(s);
	return i;
}

size_t
phys_ist_cols_eulers(const struct phys_ist_cols *c,
    struct phys_ist_euler **out)
{
	const struct phys_ist_col *col;
	ssize_t p, y;
	size_t i, n = 0;

	*out = NULL;
	for (i = 0; i < c->n; i++) {
		col = &c->v[i];
		if (col->flen != 4 || strcmp(col->name + col->itemlen + 1,
		    "roll") != 0 ||
		    (p = sibling(c, i, "pitch")) < 0 ||
		    (y = sibling(c, i, "yaw")) < 0)
			continue;
		*out = phys_xrealloc(*out, (n + 1) * sizeof **out);
		(*out)[n++] = (struct phys_ist_euler){ i, (size_t)p,
		    (size_t)y };
	}
	return n;
}

/* How far angles r, p, y are from ref's, each the shorter way. */
static double
euler_apart(const double *ref, double r, double p, double y)
{
	return fabs(remainder(r - ref[0], 2 * M_PI)) +
	    fabs(remainder(p - ref[1], 2 * M_PI)) +
	    fabs(remainder(y - ref[2], 2 * M_PI));
}

static void
euler_near(const double *ref, const struct phys_ist_euler *e, double *v,
    const ssize_t *map)
{
	const size_t at[3] = { e->roll, e->pitch, e->yaw };
	double want[3], *a[3];
	int i;

	for (i = 0; i < 3; i++) {
		if (map && map[at[i]] < 0)
			return;
		want[i] = ref[at[i]];
		a[i] = &v[map ? (size_t)map[at[i]] : at[i]];
	}
	if (euler_apart(want, *a[0] + M_PI, M_PI - *a[1], *a[2] + M_PI) <
	    euler_apart(want, *a[0], *a[1], *a[2])) {
		*a[0] = remainder(*a[0] + M_PI, 2 * M_PI);
		*a[1] = remainder(M_PI - *a[1], 2 * M_PI);
		*a[2] = remainder(*a[2] + M_PI, 2 * M_PI);
	}
}

void
phys_ist_eulers_near(const double *ref, const struct phys_ist_euler *e,
    size_t n, double *v, const ssize_t *map)
{
	size_t i;

	for (i = 0; i < n; i++)
		euler_near(ref, &e[i], v, map);
}

bool
phys_ist_euler_get(const double *v, const struct phys_ist_euler *e,
    const ssize_t *map, double rpy[3])
{
	const size_t at[3] = { e->roll, e->pitch, e->yaw };
	int i;

	for (i = 0; i < 3; i++) {
		if (map && map[at[i]] < 0)
			return false;
		rpy[i] = v[map ? (size_t)map[at[i]] : at[i]];
		if (isnan(rpy[i]))
			return false;
	}
	return true;
}

double
phys_ist_rpy_turn(const double a[3], const double b[3])
{
	phys_quat d = phys_quat_mul(phys_quat_conj(phys_quat_from_rpy(a[0],
	    a[1], a[2])), phys_quat_from_rpy(b[0], b[1], b[2]));

	/* as atan2, not acos of w: exact for small angles too */
	return 2 * atan2(sqrt(d.x * d.x + d.y * d.y + d.z * d.z), fabs(d.w));
}

bool
phys_ist_turn_agrees(double d, double tol, double rel)
{
	return d <= tol + rel * M_PI;
}

char *
phys_ist_euler_turn_name(const struct phys_ist_cols *c,
    const struct phys_ist_euler *e)
{
	const struct phys_ist_col *yaw = &c->v[e->yaw];

	return phys_xasprintf("%.*sorientation", (int)(yaw->itemlen + 1),
	    yaw->name);
}

double
phys_ist_sub(bool wraps, double a, double b)
{
	return wraps ? remainder(a - b, 2 * M_PI) : a - b;
}

double
phys_ist_lerp(bool wraps, double a, double b, double w)
{
	return wraps ? remainder(a + w * remainder(b - a, 2 * M_PI),
	    2 * M_PI) : a + (b - a) * w;
}

static bool
item_is(const struct phys_ist_item *it, const struct phys_ist_col *c)
{
	return it->nlen == c->itemlen && memcmp(it->name, c->name,
	    c->itemlen) == 0 && (it->kind == IST_SCALAR) == (c->flen == 0);
}

static bool
field_is(const struct phys_ist_field *fl, const struct phys_ist_col *c)
{
	return fl->nlen == c->flen && memcmp(fl->name,
	    c->name + c->itemlen + 1, c->flen) == 0;
}

/* The field of f that c names, or NULL; remembers where it was. */
struct phys_ist_field *
phys_ist_col_find(struct phys_ist_col *c, struct phys_ist_frame *f)
{
	const struct phys_ist_item *it;
	size_t i, j;

	if (c->item >= f->nitems || !item_is(&f->items[c->item], c)) {
		for (i = 0; i < f->nitems; i++)
			if (item_is(&f->items[i], c))
				break;
		if (i == f->nitems)
			return NULL;
		c->item = i;
	}
	it = &f->items[c->item];
	if (c->flen == 0)
		return &f->fields[it->first];
	if (c->field < it->n && field_is(&f->fields[it->first + c->field], c))
		return &f->fields[it->first + c->field];
	for (j = 0; j < it->n; j++)
		if (field_is(&f->fields[it->first + j], c)) {
			c->field = j;
			return &f->fields[it->first + j];
		}
	return NULL;
}

static bool
is_sim_time(const struct phys_ist_item *it)
{
	return it->kind == IST_SCALAR && it->nlen == 8 &&
	    memcmp(it->name, "sim_time", 8) == 0;
}

static int
check_hits(const struct phys_ist_sel *s, const size_t *hits,
    const struct phys_ist_frame *f, const char *file)
{
	size_t i;
	char *hint;

	for (i = 0; i < s->n; i++)
		if (hits[i] == 0) {
			hint = phys_ist_suggest(f, s->pat[i]);
			phys_failat(file, f->line, "selector '%s' matches "
			    "nothing%s", s->pat[i], hint);
			free(hint);
			return -1;
		}
	return 0;
}

static bool
field_named(const struct phys_ist_field *fl, const char *name)
{
	return fl->nlen == strlen(name) && memcmp(fl->name, name, fl->nlen) == 0;
}

static bool
is_angle(const struct phys_ist_field *fl)
{
	return field_named(fl, "roll") || field_named(fl, "pitch") ||
	    field_named(fl, "yaw");
}

/* Whether a selector chooses the orientation of item it, a pose
 * (IST_COLS_TURNS): ITEM.orientation, a field it does not have. */
static bool
turn_selected(const struct phys_ist_sel *s, const struct phys_ist_frame *f,
    const struct phys_ist_item *it, struct phys_buf *nb, size_t *hits)
{
	size_t j, angles = 0;

	for (j = 0; j < it->n; j++) {
		if (field_named(&f->fields[it->first + j], "orientation"))
			return false;
		angles += is_angle(&f->fields[it->first + j]);
	}
	if (angles < 3)
		return false;
	phys_buf_clear(nb);
	phys_buf_putn(nb, it->name, it->nlen);
	phys_buf_puts(nb, ".orientation");
	return phys_ist_sel_match(s, nb->s, hits);
}

/*
 * The fields the selectors choose in f, in line order; with no selectors,
 * every field.
 */
int
phys_ist_cols_build(struct phys_ist_cols *c, const struct phys_ist_frame *f, const struct phys_ist_sel *s,
    unsigned flags, const char *file, size_t *hits_out)
{
	struct phys_buf nb = { 0 };
	size_t *hits = phys_xcalloc(s->n, sizeof *hits), i, j;
	const struct phys_ist_item *it;
	bool whole, turn;
	int rc = 0;

	memset(c, 0, sizeof *c);
	for (i = 0; i < f->nitems; i++) {
		it = &f->items[i];
		phys_buf_clear(&nb);
		phys_buf_putn(&nb, it->name, it->nlen);
		whole = phys_ist_sel_match(s, nb.s, hits) || s->n == 0;
		if (it->kind == IST_SCALAR) {
			if (whole && !((flags & IST_COLS_CSV) && is_sim_time(it)))
				cols_add(c, nb.s, it->nlen, i, 0);
			continue;
		}
		turn = (flags & IST_COLS_TURNS) && s->n &&
		    turn_selected(s, f, it, &nb, hits);
		for (j = 0; j < it->n; j++) {
			const struct phys_ist_field *fl = &f->fields[it->first +
			    j];

			flat_name(&nb, it, fl);
			if (phys_ist_sel_match(s, nb.s, hits) || whole)
				cols_add(c, nb.s, it->nlen, i, j);
			else if (turn && is_angle(fl)) {
				cols_add(c, nb.s, it->nlen, i, j);
				c->v[c->n - 1].turn_only = true;
			}
		}
	}
	if (!(flags & IST_COLS_LAX))
		rc = check_hits(s, hits, f, file);
	if (hits_out)
		memcpy(hits_out, hits, s->n * sizeof *hits);
	free(hits);
	phys_buf_free(&nb);
	if (rc < 0)
		phys_ist_cols_free(c);
	return rc;
}

/*
 * A column for a name typed by the user. Item names may hold dots, so
 * every item that is a prefix of the name is tried.
 * 0: found; -1: no such field; -2: it is an object or array item.
 */
int
phys_ist_col_resolve(struct phys_ist_col *c, const struct phys_ist_frame *f, const char *name)
{
	const struct phys_ist_item *it;
	size_t i, j, len = strlen(name);
	int rc = -1;

	for (i = 0; i < f->nitems; i++) {
		it = &f->items[i];
		if (it->nlen > len || memcmp(it->name, name, it->nlen) != 0)
			continue;
		if (name[it->nlen] == '\0') {
			if (it->kind != IST_SCALAR) {
				rc = -2;
				continue;
			}
			c->name = phys_xstrdup(name);
			c->itemlen = len;
			c->flen = 0;
			c->item = i;
			c->field = 0;
			return 0;
		}
		if (name[it->nlen] != '.' || it->kind == IST_SCALAR)
			continue;
		for (j = 0; j < it->n; j++) {
			const struct phys_ist_field *fl = &f->fields[it->first + j];

			if (fl->nlen == len - it->nlen - 1 && memcmp(fl->name,
			    name + it->nlen + 1, fl->nlen) == 0) {
				c->name = phys_xstrdup(name);
				c->itemlen = it->nlen;
				c->flen = fl->nlen;
				c->item = i;
				c->field = j;
				return 0;
			}
		}
	}
	return rc;
}

/* ---- which items a JSON line keeps, decided once per line layout ------ */

bool
phys_ist_plan_same(const struct phys_ist_plan *p, const struct phys_ist_frame *f)
{
	size_t i;

	if (!p->valid || p->nitems != f->nitems || p->nfields != f->nfields)
		return false;
	for (i = 0; i < f->nitems; i++)
		if (p->items[i].nlen != f->items[i].nlen ||
		    p->items[i].kind != f->items[i].kind ||
		    p->items[i].n != f->items[i].n ||
		    memcmp(p->names.s + p->itoff[i], f->items[i].name,
		    f->items[i].nlen) != 0)
			return false;
	for (i = 0; i < f->nfields; i++)
		if (p->flen[i] != f->fields[i].nlen ||
		    memcmp(p->names.s + p->ftoff[i], f->fields[i].name,
		    f->fields[i].nlen) != 0)
			return false;
	return true;
}

void
phys_ist_plan_free(struct phys_ist_plan *p)
{
	phys_buf_free(&p->names);
	free(p->itoff);
	free(p->ftoff);
	free(p->items);
	free(p->flen);
	free(p->imode);
	free(p->fsel);
	memset(p, 0, sizeof *p);
}

void
phys_ist_plan_build(struct phys_ist_plan *p, const struct phys_ist_frame *f, const struct phys_ist_sel *s)
{
	struct phys_buf nb = { 0 };
	const struct phys_ist_item *it;
	size_t i, j, nsel;

	phys_ist_plan_free(p);
	p->nitems = f->nitems;
	p->nfields = f->nfields;
	p->itoff = phys_xcalloc(f->nitems, sizeof *p->itoff);
	p->items = phys_xcalloc(f->nitems, sizeof *p->items);
	p->imode = phys_xcalloc(f->nitems, 1);
	p->ftoff = phys_xcalloc(f->nfields, sizeof *p->ftoff);
	p->flen = phys_xcalloc(f->nfields, sizeof *p->flen);
	p->fsel = phys_xcalloc(f->nfields, 1);
	for (i = 0; i < f->nitems; i++) {
		it = &f->items[i];
		p->items[i] = *it;
		p->itoff[i] = p->names.len;
		phys_buf_putn(&p->names, it->name, it->nlen);
		phys_buf_clear(&nb);
		phys_buf_putn(&nb, it->name, it->nlen);
		if (s->n == 0 || phys_ist_sel_match(s, nb.s, NULL)) {
			p->imode[i] = IST_SEL_WHOLE;
			continue;
		}
		if (it->kind == IST_SCALAR)
			continue;
		for (nsel = 0, j = 0; j < it->n; j++) {
			flat_name(&nb, it, &f->fields[it->first + j]);
			if (phys_ist_sel_match(s, nb.s, NULL)) {
				p->fsel[it->first + j] = 1;
				nsel++;
			}
		}
		p->imode[i] = nsel == 0 ? IST_SEL_NONE :
		    nsel == it->n ? IST_SEL_WHOLE : IST_SEL_SOME;
	}
	for (i = 0; i < f->nfields; i++) {
		p->ftoff[i] = p->names.len;
		p->flen[i] = f->fields[i].nlen;
		phys_buf_putn(&p->names, f->fields[i].name, f->fields[i].nlen);
	}
	phys_buf_free(&nb);
	p->valid = true;
}

/* The kept items of f, as members of an "items" object. */
void
phys_ist_put_plan_items(struct phys_buf *b, struct phys_ist_frame *f, const struct phys_ist_plan *p,
    bool *first)
{
	const struct phys_ist_item *it;
	struct phys_ist_field *fl;
	size_t i, j;
	bool one;

	for (i = 0; i < f->nitems; i++) {
		if (p->imode[i] == IST_SEL_NONE)
			continue;
		it = &f->items[i];
		if (!*first)
			phys_buf_putc(b, ',');
		*first = false;
		phys_ist_put_jstr(b, it->name, it->nlen);
		phys_buf_putc(b, ':');
		fl = &f->fields[it->first];
		if (it->kind == IST_SCALAR) {
			phys_buf_double(b, phys_ist_value(fl));
			continue;
		}
		if (it->kind == IST_ARRAY && p->imode[i] == IST_SEL_WHOLE) {
			phys_buf_putc(b, '[');
			for (j = 0; j < it->n; j++) {
				if (j)
					phys_buf_putc(b, ',');
				phys_buf_double(b, phys_ist_value(&fl[j]));
			}
			phys_buf_putc(b, ']');
			continue;
		}
		/* Part of an array becomes an object keyed "0", "1", ... */
		phys_buf_putc(b, '{');
		for (one = false, j = 0; j < it->n; j++) {
			if (p->imode[i] != IST_SEL_WHOLE && !p->fsel[it->first + j])
				continue;
			if (one)
				phys_buf_putc(b, ',');
			one = true;
			phys_ist_put_jstr(b, fl[j].name, fl[j].nlen);
			phys_buf_putc(b, ':');
			phys_buf_double(b, phys_ist_value(&fl[j]));
		}
		phys_buf_putc(b, '}');
	}
}

/* ---- sampling -------------------------------------------------------- */

/*
 * A line within a millionth of a period before its sample time still
 * counts, so rounding in accumulated times does not skip a sample.
 */
#define RATE_SLACK 1e-6

bool
phys_ist_sample(struct phys_ist_sampler *s, double t)
{
	const struct phys_ist_sampling *o = s->o;
	double x;
	long i;

	if ((o->has_from && t < o->from) || (o->has_to && t > o->to))
		return false;
	i = s->seen++;
	if (o->every > 1 && i % o->every != 0)
		return false;
	if (o->rate > 0) {
		x = t * o->rate;
		if (s->started && x < s->nextk - RATE_SLACK)
			return false;
		s->nextk = floor(x + RATE_SLACK) + 1;
		s->started = true;
	}
	return true;
}

/* ---- rows: chosen fields as numbers, line after line ----------------- */

int
phys_ist_src_open(struct phys_ist_src *s, const char *path, const struct phys_ist_cols *given)
{
	memset(s, 0, sizeof *s);
	if (given) {
		phys_ist_cols_copy(&s->cols, given);
		s->v = phys_xcalloc(s->cols.n + 1, sizeof *s->v);
		s->built = true;
	}
	if (!(s->r = phys_ist_open(path)))
		return -1;
	s->name = phys_ist_name(s->r);
	return 0;
}

void
phys_ist_src_close(struct phys_ist_src *s)
{
	phys_ist_close(s->r);
	phys_ist_cols_free(&s->cols);
	free(s->hits);
	free(s->v);
}

/* 1 with s->t and s->v set, 0 at the end, -1 on error. */
int
phys_ist_src_next(struct phys_ist_src *s, const struct phys_ist_sel *sel, unsigned flags)
{
	struct phys_ist_frame *f = phys_ist_frame(s->r);
	struct phys_ist_field *fl;
	size_t i;
	int rc;

	if ((rc = phys_ist_read(s->r)) <= 0)
		return rc;
	if (!s->built) {
		s->hits = phys_xcalloc(sel->n + 1, sizeof *s->hits);
		if (phys_ist_cols_build(&s->cols, f, sel, flags, s->name,
		    s->hits) < 0)
			return -1;
		s->v = phys_xcalloc(s->cols.n + 1, sizeof *s->v);
		s->built = true;
	}
	if (s->n > 0 && f->t < s->t)
		return phys_failat(s->name, f->line, "time goes backwards "
		    "(%s after %s)", phys_ist_numtxt(f->t).s, phys_ist_numtxt(s->t).s);
	if (s->n++ == 0)
		s->first_t = f->t;
	s->t = f->t;
	for (i = 0; i < s->cols.n; i++) {
		if (!(fl = phys_ist_col_find(&s->cols.v[i], f)))
			return phys_failat(s->name, f->line, "no field '%s'",
			    s->cols.v[i].name);
		s->v[i] = phys_ist_value(fl);
	}
	return 1;
}
