/*
 * select.h - which fields of state lines a command works on.
 *
 * A field is named ITEM.FIELD ("box::link/pose.z", "robot::elbow/position.0");
 * a scalar item is a field named by the item alone ("sim_time"). Selectors
 * are glob patterns over item names and field names.
 */
#ifndef PHYS_SELECT_H
#define PHYS_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "statein.h"
#include "base.h"

struct phys_ist_sel {
	char **pat;
	size_t n;
};
void phys_ist_sel_add(struct phys_ist_sel *s, const char *pat);
void phys_ist_sel_free(struct phys_ist_sel *s);
/* One selector a line, blank lines and '#' comments skipped. */
int phys_ist_sel_load(struct phys_ist_sel *s, const char *path);
int phys_ist_sel_save(const struct phys_ist_sel *s, const char *path);
/* Whether a selector matches name; counts the hits per selector. */
bool phys_ist_sel_match(const struct phys_ist_sel *s, const char *name, size_t *hits);
/* " (did you mean 'X'?)" for the name in f closest to want, or ""; freed
 * by the caller. */
char *phys_ist_suggest(const struct phys_ist_frame *f, const char *want);

/* ---- columns: fields addressed by name, found fast line after line --- */

struct phys_ist_col {
	char *name;		/* ITEM or ITEM.FIELD */
	size_t itemlen;		/* length of ITEM */
	size_t flen;		/* length of FIELD; 0 for a scalar */
	size_t item, field;	/* where it was last time: tried first */
	bool turn_only;		/* a pose's angle read for its orientation
				 * alone (IST_COLS_TURNS) */
};

struct phys_ist_cols {
	struct phys_ist_col *v;
	size_t n;
};

#define IST_COLS_LAX 1		/* a selector matching nothing is no error */
#define IST_COLS_CSV 2		/* sim_time is the first column already */
/* ITEM.orientation, where the pose ITEM has no such field, selects its
 * roll, pitch and yaw, marked turn_only unless another selector chooses
 * them: the orientation two runs' angles make is compared, not they */
#define IST_COLS_TURNS 4

/*
 * The fields the selectors choose in f, in line order; with no selectors,
 * every field. hits_out, if given, gets the fields per selector.
 */
int phys_ist_cols_build(struct phys_ist_cols *c, const struct phys_ist_frame *f,
    const struct phys_ist_sel *s, unsigned flags, const char *file,
    size_t *hits_out);
void phys_ist_cols_free(struct phys_ist_cols *c);
void phys_ist_cols_copy(struct phys_ist_cols *dst, const struct phys_ist_cols *src);
ssize_t phys_ist_cols_index(const struct phys_ist_cols *c, const char *name);
/*
 * Whether column c is a pose's roll or yaw: an angle within [-pi, pi]
 * that a turn past pi carries to the other end (a joint's position
 * counts its turns instead). Such columns are differenced and
 * interpolated the shorter way round, so that 3.14159 and -3.14159 are
 * the same yaw.
 */
bool phys_ist_col_wraps(const struct phys_ist_col *c);
/* a - b; of a column that wraps, the shorter way round. */
double phys_ist_sub(bool wraps, double a, double b);
/* a + w (b - a); of a column that wraps, the shorter way round, within
 * [-pi, pi]. */
double phys_ist_lerp(bool wraps, double a, double b, double w);
/* A pose's roll, pitch and yaw: their columns. */
struct phys_ist_euler {
	size_t roll, pitch, yaw;
};
/* The poses of c given as roll, pitch and yaw, into *out (freed by the
 * caller): how many. */
size_t phys_ist_cols_eulers(const struct phys_ist_cols *c,
    struct phys_ist_euler **out);
/*
 * The angles of the n poses e in v (their columns e's, through map where
 * map is not NULL: -1 none) each in the form nearest ref's (e's
 * columns): (r, p, y) and (r + pi, pi - p, y + pi) are one orientation,
 * which two runs may give in either form once a pitch passes pi/2, where
 * an engine writes the first with roll and yaw turned by pi.
 */
void phys_ist_eulers_near(const double *ref, const struct phys_ist_euler *e,
    size_t n, double *v, const ssize_t *map);
/* Pose e's roll, pitch and yaw in v (through map where not NULL) into
 * rpy; false where v lacks one or one is not a number. */
bool phys_ist_euler_get(const double *v, const struct phys_ist_euler *e,
    const ssize_t *map, double rpy[3]);
/*
 * The angle between the orientations of two rolls, pitches and yaws, 0 to
 * pi: what the three compared one by one cannot say near a pitch of pi/2,
 * where a small turn moves roll and yaw far.
 */
double phys_ist_rpy_turn(const double a[3], const double b[3]);
/* Whether orientations a turn d apart agree within tolerance tol and
 * relative tolerance rel, their magnitude the largest turn, pi (NaN: no);
 * where they do, so do their angles, however far apart. */
bool phys_ist_turn_agrees(double d, double tol, double rel);
/* The name of the field that compares pose e's orientations: its item's
 * "orientation" (freed by the caller). */
char *phys_ist_euler_turn_name(const struct phys_ist_cols *c,
    const struct phys_ist_euler *e);
/* The field of f that c names, or NULL; remembers where it was. */
struct phys_ist_field *phys_ist_col_find(struct phys_ist_col *c, struct phys_ist_frame *f);
/*
 * A column for a name typed by the user.
 * 0: found; -1: no such field; -2: it is an object or array item.
 */
int phys_ist_col_resolve(struct phys_ist_col *c, const struct phys_ist_frame *f,
    const char *name);

/* ---- which items a JSON line keeps, decided once per line layout ------ */

enum { IST_SEL_NONE, IST_SEL_WHOLE, IST_SEL_SOME };

struct phys_ist_plan {
	bool valid;
	struct phys_buf names;	/* the layout decided for, back to back */
	size_t *itoff, *ftoff;	/* name offsets in names */
	struct phys_ist_item *items;	/* copies; name fields unused */
	size_t *flen;
	unsigned char *imode, *fsel;
	size_t nitems, nfields;
};

/* Whether p was built for a line laid out as f. */
bool phys_ist_plan_same(const struct phys_ist_plan *p, const struct phys_ist_frame *f);
void phys_ist_plan_build(struct phys_ist_plan *p, const struct phys_ist_frame *f,
    const struct phys_ist_sel *s);
void phys_ist_plan_free(struct phys_ist_plan *p);
/* The kept items of f, as members of an "items" object. */
void phys_ist_put_plan_items(struct phys_buf *b, struct phys_ist_frame *f,
    const struct phys_ist_plan *p, bool *first);

/* ---- sampling: which lines to keep ----------------------------------- */

/* every, window and rate are 0 when not used. */
struct phys_ist_sampling {
	bool has_from, has_to;
	double from, to;
	long every, window;
	double rate;
};

struct phys_ist_sampler {
	const struct phys_ist_sampling *o;
	long seen;
	bool started;
	double nextk;
};

/* Whether the line at time t is kept (--from, --to, --every, --rate). */
bool phys_ist_sample(struct phys_ist_sampler *s, double t);

/* ---- rows: chosen fields as numbers, line after line ----------------- */

struct phys_ist_src {
	struct phys_ist_reader *r;
	const char *name;	/* the run, for messages */
	struct phys_ist_cols cols;
	size_t *hits;		/* per selector: fields chosen */
	bool built;
	double *v;		/* the row's values, one a column */
	double t, first_t;
	long n;			/* rows read */
};

/* given: the columns to read, or NULL for those the selectors choose. */
int phys_ist_src_open(struct phys_ist_src *s, const char *path,
    const struct phys_ist_cols *given);
/* 1 with s->t and s->v set, 0 at the end, -1 on error. */
int phys_ist_src_next(struct phys_ist_src *s, const struct phys_ist_sel *sel,
    unsigned flags);
void phys_ist_src_close(struct phys_ist_src *s);

#endif
