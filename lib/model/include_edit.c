/*
 * include_edit.c - an <include>'s <experimental:params> (include_edit.h),
 * made on the included model's document: the elements an edit brings
 * are copied from the file that writes them, which their lines name.
 */
#include "include_edit.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "msg.h"
#include "spec.h"

struct edit {
	const struct phys_doc *from;	/* the file the edits are in */
	struct phys_doc *inc;		/* the included model's */
	xmlNodePtr model;
	unsigned long *looked;		/* elements looked at so far */
};

/*
 * The elements an include's edits may look at, all told: each edit
 * looks among the children of the elements it names, so a file of many
 * edits of a model of many elements would take their product (20,000
 * edits of one link took 8 s). A fraction of a second's work (a few
 * seconds' under AddressSanitizer).
 */
#define MAX_LOOKED	5000000UL

enum action { ACT_NONE, ACT_ADD, ACT_MODIFY, ACT_REMOVE, ACT_REPLACE };

/* Whether the edits have looked at more elements than the bound. */
static bool
past_bound(const struct edit *x)
{
	return *x->looked > MAX_LOOKED;
}

/* One more element looked at; false once past the bound. */
static bool
look(const struct edit *x)
{
	++*x->looked;
	return !past_bound(x);
}

/* An edit's error at its element: "<sensor element_id='x'>: what" (or
 * that the bound stopped the search). */
static int
refuse(const struct edit *x, xmlNodePtr e, const char *what)
{
	char *id = phys_node_attr(e, "element_id"), bound[120];
	int rc;

	if (past_bound(x)) {
		snprintf(bound, sizeof bound, "its edits look at more than "
		    "%lu elements of the included model: the limit (LIMITS in "
		    "phys(7))", MAX_LOOKED);
		what = bound;
	}
	rc = phys_failat(PHYS_AT(x->from, e), "<experimental:params>: "
	    "<%s%s%s%s>: %s", (const char *)e->name, id ? " element_id='" : "",
	    id ? id : "", id ? "'" : "", what);
	free(id);
	return rc;
}

static int
action_of(xmlNodePtr e, enum action *out)
{
	static const char *const names[] = { "", "add", "modify", "remove",
		"replace" };
	char *a = phys_node_attr(e, "action");
	int i;

	*out = ACT_NONE;
	for (i = 1; a && i < 5; i++)
		if (strcmp(a, names[i]) == 0)
			*out = (enum action)i;
	i = !a || *out != ACT_NONE ? 0 : -1;
	free(a);
	return i;
}

/*
 * The element id names under model: at each level the child whose name
 * is the longest that begins what is left of the id (followed by "::" or
 * its end); at the last, one of element tag (any, for tag NULL). NULL
 * when none is.
 */
static xmlNodePtr
by_id(const struct edit *x, xmlNodePtr model, const char *tag,
    const char *id)
{
	xmlNodePtr c, best = NULL, last = NULL;
	const char *rest = id;
	size_t len, best_len;
	char *name;

	while (model && *rest) {
		best = last = NULL;
		best_len = 0;
		for (c = phys_child(model, NULL); c; c = phys_next(c, NULL)) {
			if (!look(x))
				return NULL;
			if (!(name = phys_node_attr(c, "name")))
				continue;
			len = strlen(name);
			if (len > 0 && strncmp(rest, name, len) == 0) {
				if (rest[len] == '\0' && !last && (!tag ||
				    phys_node_is(c, tag)))
					last = c;
				else if (strncmp(rest + len, "::", 2) == 0 &&
				    len > best_len)
					best = c, best_len = len;
			}
			free(name);
		}
		if (last)
			return last;
		if (!best)
			return NULL;
		model = best;
		rest += best_len + 2;
	}
	return NULL;
}

/* The child of parent an edit's child c means: of c's element and, when
 * c names one, of its name; for modify, the first of the element when
 * none has the name (the name is then set), as libsdformat has it. */
static xmlNodePtr
by_name(const struct edit *x, xmlNodePtr parent, xmlNodePtr c, bool modify)
{
	const char *tag = (const char *)c->name;
	char *name = phys_node_attr(c, "name");
	xmlNodePtr n = phys_child(parent, tag);

	while (name && n && !phys_node_attr_is(n, "name", name) && look(x))
		n = phys_next(n, tag);
	if (past_bound(x))
		n = NULL;
	else if (name && !n && modify)
		n = phys_child(parent, tag);
	free(name);
	return n;
}

/* A copy of e for the included model, without the edit's attributes. */
static xmlNodePtr
copy_for(const struct edit *x, xmlNodePtr e)
{
	xmlNodePtr c = phys_doc_adopt(x->inc, x->from, e);

	if (!c)
		phys_die(PHYS_EXIT_FAIL, "out of memory");
	xmlUnsetProp(c, (const xmlChar *)"element_id");
	xmlUnsetProp(c, (const xmlChar *)"action");
	return c;
}

/* Whether an element of that name is one SDFormat describes (what
 * libsdformat adds or puts in place must be one), in the version of the
 * included file. */
static bool
described(const struct edit *x, const xmlChar *tag)
{
	return phys_spec_describes(x->inc->major ? x->inc->major : 1,
	    x->inc->major ? x->inc->minor : 9, (const char *)tag);
}

/* Whether e holds text other than blanks directly. */
static bool
has_text(xmlNodePtr e)
{
	xmlNodePtr t;
	const xmlChar *s;

	for (t = e->children; t; t = t->next)
		if ((t->type == XML_TEXT_NODE ||
		    t->type == XML_CDATA_SECTION_NODE) && (s = t->content))
			for (; *s; s++)
				if (!isspace(*s))
					return true;
	return false;
}

/* The value of element to: the text of from (NULL: none, the default). */
static void
set_value(const struct edit *x, xmlNodePtr to, xmlNodePtr from)
{
	xmlChar *text = from ? xmlNodeGetContent(from) : NULL;
	xmlNodePtr c;

	while ((c = to->children)) {
		xmlUnlinkNode(c);
		xmlFreeNode(c);
	}
	if (text && (c = xmlNewDocText(x->inc->xml, text)))
		xmlAddChild(to, c);
	xmlFree(text);
}

/* Attributes of e, but the edit's own, set on to. */
static void
set_attributes(xmlNodePtr e, xmlNodePtr to)
{
	xmlAttrPtr a;
	xmlChar *v;

	for (a = e->properties; a; a = a->next) {
		if (xmlStrEqual(a->name, (const xmlChar *)"element_id") ||
		    xmlStrEqual(a->name, (const xmlChar *)"action"))
			continue;
		v = xmlNodeListGetString(e->doc, a->children, 1);
		if (a->ns && a->ns->prefix) {
			xmlChar *q = xmlBuildQName(a->name, a->ns->prefix,
			    NULL, 0);

			xmlSetProp(to, q, v ? v : (const xmlChar *)"");
			xmlFree(q);
		} else {
			xmlSetProp(to, a->name, v ? v : (const xmlChar *)"");
		}
		xmlFree(v);
	}
}

static int modify(const struct edit *x, xmlNodePtr e, xmlNodePtr to);

/* modify's children: each the child of to it names, modified in turn;
 * an empty one sets a value back to its default (one with children of
 * its own is left, none of them said). */
static int
modify_children(const struct edit *x, xmlNodePtr e, xmlNodePtr to)
{
	xmlNodePtr c, t;

	for (c = phys_child(e, NULL); c; c = phys_next(c, NULL)) {
		if (!(t = by_name(x, to, c, true)))
			return refuse(x, c, "the element it modifies has no "
			    "such child");
		if (has_text(c) || phys_child(c, NULL)) {
			if (modify(x, c, t) < 0)
				return -1;
		} else if (!phys_child(t, NULL)) {
			set_value(x, t, NULL);
			set_attributes(c, t);
		}
	}
	return 0;
}

static int
modify(const struct edit *x, xmlNodePtr e, xmlNodePtr to)
{
	set_attributes(e, to);
	if (has_text(e)) {
		set_value(x, to, e);
		return 0;
	}
	return modify_children(x, e, to);
}

/* remove: the element itself, or the children e lists. */
static int
remove_from(const struct edit *x, xmlNodePtr e, xmlNodePtr target)
{
	xmlNodePtr c, t;

	if (!phys_child(e, NULL)) {
		xmlUnlinkNode(target);
		xmlFreeNode(target);
		return 0;
	}
	for (c = phys_child(e, NULL); c; c = phys_next(c, NULL)) {
		if (!(t = by_name(x, target, c, false)))
			return refuse(x, c, "the element it removes from has "
			    "no such child");
		xmlUnlinkNode(t);
		xmlFreeNode(t);
	}
	return 0;
}

static int
replace(const struct edit *x, xmlNodePtr e, xmlNodePtr target)
{
	xmlNodePtr c;

	if (!described(x, e->name))
		return refuse(x, e, "no element SDFormat describes");
	c = copy_for(x, e);
	xmlReplaceNode(target, c);
	xmlFreeNode(target);
	return 0;
}

static int
add(const struct edit *x, xmlNodePtr e, xmlNodePtr parent)
{
	if (!described(x, e->name))
		return refuse(x, e, "no element SDFormat describes");
	xmlAddChild(parent, copy_for(x, e));
	return 0;
}

/* An edit without an action: each child of e carries its own, done in
 * the element e names. */
static int
each_child(const struct edit *x, xmlNodePtr e, xmlNodePtr target)
{
	xmlNodePtr c, t;
	enum action a;

	for (c = phys_child(e, NULL); c; c = phys_next(c, NULL)) {
		if (action_of(c, &a) < 0 || a == ACT_NONE)
			return refuse(x, c, "needs an action: add, modify, "
			    "remove or replace");
		if (a == ACT_ADD) {
			if (add(x, c, target) < 0)
				return -1;
			continue;
		}
		if (!(t = by_name(x, target, c, a == ACT_MODIFY)))
			return refuse(x, c, "the element it edits has no such "
			    "child");
		if (a == ACT_REPLACE &&
		    xmlHasProp(t, (const xmlChar *)"name") &&
		    !xmlHasProp(c, (const xmlChar *)"name"))
			return refuse(x, c, "the element it replaces has a "
			    "name: so must it");
		if ((a == ACT_MODIFY ? modify(x, c, t) : a == ACT_REMOVE ?
		    remove_from(x, c, t) : replace(x, c, t)) < 0)
			return -1;
	}
	return 0;
}

/* add: the element under the one its element_id names (the model for
 * none), unless one of its element and name is there (plugins aside). */
static int
add_named(const struct edit *x, xmlNodePtr e, const char *id)
{
	char *name = phys_node_attr(e, "name");
	xmlNodePtr parent = *id ? by_id(x, x->model, NULL, id) : x->model, c;
	bool twice = false;

	if (!name || !*name) {
		free(name);
		return refuse(x, e, "an element added needs a name");
	}
	for (c = parent ? phys_child(parent, (const char *)e->name) : NULL;
	    c && !twice && look(x); c = phys_next(c, (const char *)e->name))
		twice = phys_node_attr_is(c, "name", name) &&
		    !phys_node_is(c, "plugin");
	free(name);
	if (!parent || past_bound(x))
		return refuse(x, e, "the included model has no element of "
		    "that element_id to add to");
	if (twice)
		return refuse(x, e, "the included model has that element "
		    "there already");
	return add(x, e, parent);
}

static int
edit_one(const struct edit *x, xmlNodePtr e)
{
	char *id = phys_node_attr(e, "element_id");
	size_t n = id ? strlen(id) : 0;
	xmlNodePtr target;
	enum action a;
	int rc;

	if (!id)
		rc = refuse(x, e, "no element_id: which element it edits");
	else if (n >= 2 && strcmp(id + n - 2, "::") == 0)
		rc = refuse(x, e, "the element_id ends in '::', without a "
		    "name");
	else if (action_of(e, &a) < 0)
		rc = refuse(x, e, "the action is not add, modify, remove or "
		    "replace");
	else if (a == ACT_ADD)
		rc = add_named(x, e, id);
	else if (!(target = by_id(x, x->model, (const char *)e->name, id)))
		rc = refuse(x, e, "the included model has no such element");
	else if (a == ACT_NONE)
		rc = each_child(x, e, target);
	else if (a == ACT_MODIFY)
		rc = modify(x, e, target);
	else if (a == ACT_REMOVE)
		rc = remove_from(x, e, target);
	else
		rc = replace(x, e, target);
	free(id);
	return rc;
}

int
phys_include_edit(const struct phys_doc *from, xmlNodePtr params,
    struct phys_doc *inc, xmlNodePtr model)
{
	unsigned long looked = 0;
	struct edit x = { from, inc, model, &looked };
	xmlNodePtr e;

	for (e = phys_child(params, NULL); e; e = phys_next(e, NULL))
		if (edit_one(&x, e) < 0)
			return -1;
	return 0;
}
