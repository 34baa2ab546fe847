/* sdf.c - secure loading of SDF documents and element lookup. */
#include "sdf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

/* Large worlds are tens of megabytes; anything past this is not SDF. */
#define PHYS_SDF_MAX_BYTES (1024L * 1024 * 1024)

/* libxml2 would print its own messages; the first error is reported instead. */
static void
quiet_errors(void *ctx, const char *msg, ...)
{
}

static void
trim_message(char *msg)
{
	size_t n = strlen(msg);

	while (n > 0 && isspace((unsigned char)msg[n - 1]))
		msg[--n] = '\0';
}

/* Entity declarations are the door to expansion bombs and external files. */
static bool
has_entity_declarations(xmlDocPtr doc)
{
	xmlDtdPtr dtd = doc->intSubset;

	return (dtd && dtd->entities) || doc->extSubset;
}

static int
read_version(struct phys_doc *d)
{
	char *v = phys_node_attr(d->root, "version");
	int n;

	if (!v)
		return phys_failat(d->name, phys_node_line(d->root),
		    "<sdf> has no version attribute");
	n = sscanf(v, "%d.%d", &d->major, &d->minor);
	free(v);
	if (n != 2 || d->major != 1 || d->minor < 0)
		return phys_failat(d->name, phys_node_line(d->root),
		    "unsupported SDF version");
	if (d->minor < 4 || d->minor > 9)
		phys_warnat(d->name, phys_node_line(d->root),
		    "SDF version 1.%d is outside 1.4-1.9; read as the nearest",
		    d->minor);
	return 0;
}

int
phys_doc_load_text(struct phys_doc *d, const char *name, const char *text,
    size_t len)
{
	/* No NOENT (entities stay unexpanded), no DTDLOAD, no HUGE. */
	int opts = XML_PARSE_NONET;
	xmlParserCtxtPtr ctxt;
	const xmlError *e;

	memset(d, 0, sizeof *d);
	d->name = xstrdup(name);
	if (len > PHYS_SDF_MAX_BYTES || len > (size_t)2147483647)
		return phys_failat(name, 0, "file too large");
	d->text = xstrndup(text, len);
	d->len = len;
	xmlSetGenericErrorFunc(NULL, quiet_errors);
	ctxt = xmlNewParserCtxt();
	if (!ctxt)
		return phys_failat(name, 0, "out of memory");
	d->xml = xmlCtxtReadMemory(ctxt, d->text, (int)len, NULL, NULL, opts);
	e = xmlCtxtGetLastError(ctxt);
	/* Undeclared prefixes (<gz:...>, <ignition:...>) are common in real
	 * worlds and harmless: libsdformat takes them as they are. */
	if (!d->xml || (e && e->level >= XML_ERR_ERROR &&
	    e->domain != XML_FROM_NAMESPACE)) {
		char *msg = xstrdup(e && e->message ? e->message :
		    "not well-formed XML");

		trim_message(msg);
		phys_failat(name, e ? e->line : 0, "malformed XML: %s", msg);
		free(msg);
		xmlFreeParserCtxt(ctxt);
		return -1;
	}
	xmlFreeParserCtxt(ctxt);
	if (has_entity_declarations(d->xml))
		return phys_failat(name, 1,
		    "DTDs and entity declarations are not allowed in SDF");
	d->root = xmlDocGetRootElement(d->xml);
	if (!d->root || !phys_node_is(d->root, "sdf"))
		return phys_failat(name, d->root ? phys_node_line(d->root) : 1,
		    "the root element is not <sdf>");
	return read_version(d);
}

int
phys_doc_load(struct phys_doc *d, const char *path)
{
	const char *name = phys_display_name(path);
	size_t len;
	char *text = phys_read_file(path, &len);
	int rc;

	if (!text) {
		memset(d, 0, sizeof *d);
		return -1;
	}
	rc = phys_doc_load_text(d, name, text, len);
	free(text);
	if (path && strcmp(path, "-") != 0)
		d->path = xstrdup(path);
	return rc;
}

long
phys_node_line(xmlNodePtr n)
{
	return n ? xmlGetLineNo(n) : 0;
}

bool
phys_node_is(xmlNodePtr n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE &&
	    strcmp((const char *)n->name, name) == 0;
}

static xmlNodePtr
first_element(xmlNodePtr n, const char *name)
{
	for (; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE &&
		    (!name || strcmp((const char *)n->name, name) == 0))
			return n;
	return NULL;
}

xmlNodePtr
phys_child(xmlNodePtr parent, const char *name)
{
	return parent ? first_element(parent->children, name) : NULL;
}

xmlNodePtr
phys_next(xmlNodePtr n, const char *name)
{
	return n ? first_element(n->next, name) : NULL;
}

xmlNodePtr
phys_path_find(xmlNodePtr owner, const char *path)
{
	char part[128];
	const char *dot;
	size_t len;

	while (owner && *path) {
		dot = strchr(path, '.');
		len = dot ? (size_t)(dot - path) : strlen(path);
		if (len >= sizeof part)
			return NULL;
		memcpy(part, path, len);
		part[len] = '\0';
		owner = phys_child(owner, part);
		path += len + (dot != NULL);
	}
	return owner;
}

char *
phys_node_text(xmlNodePtr n)
{
	xmlChar *raw = xmlNodeGetContent(n);
	const char *s = raw ? (const char *)raw : "";
	size_t len;
	char *out;

	while (isspace((unsigned char)*s))
		s++;
	len = strlen(s);
	while (len > 0 && isspace((unsigned char)s[len - 1]))
		len--;
	out = xstrndup(s, len);
	xmlFree(raw);
	return out;
}

char *
phys_node_attr(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	char *out;

	if (!v)
		return NULL;
	out = xstrdup((const char *)v);
	xmlFree(v);
	return out;
}

void
phys_doc_free(struct phys_doc *d)
{
	if (d->xml)
		xmlFreeDoc(d->xml);
	free(d->name);
	free(d->path);
	free(d->text);
	phys_doc_edits_free(d);
	memset(d, 0, sizeof *d);
}
