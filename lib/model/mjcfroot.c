/*
 * mjcfroot.c - the root element of a document, looked at without
 * parsing it.
 */
#include <ctype.h>
#include <string.h>

#include "mjcfroot.h"

bool
phys_xml_root_is(const char *text, size_t len, const char *name)
{
	const char *p = text, *end = text + len, *q;
	size_t n = strlen(name);

	while (p < end) {
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (end - p >= 4 && memcmp(p, "<!--", 4) == 0)
			q = memmem(p + 4, (size_t)(end - p - 4), "-->", 3);
		else if (end - p >= 2 && (memcmp(p, "<?", 2) == 0 ||
		    memcmp(p, "<!", 2) == 0))
			q = memchr(p, '>', (size_t)(end - p));
		else
			break;
		if (!q)
			return false;
		p = q + (*q == '-' ? 3 : 1);
	}
	return (size_t)(end - p) > n + 1 && *p == '<' &&
	    memcmp(p + 1, name, n) == 0 && (isspace((unsigned char)p[1 + n]) ||
	    p[1 + n] == '>' || p[1 + n] == '/');
}

bool
phys_mjcf_text(const char *text, size_t len)
{
	return phys_xml_root_is(text, len, "mujoco");
}
