/*
 * fuel.c - Gazebo Fuel URIs read from the local cache gz-sim fills.
 *
 * phys downloads nothing: a world that includes
 * https://fuel.gazebosim.org/1.0/OWNER/models/NAME[/VERSION][/files/PATH]
 * runs where a user's gz-sim (gz-fuel-tools) has cached the model, in
 * CACHE/HOST/OWNER/models/NAME/VERSION/, where CACHE is GZ_FUEL_CACHE_PATH
 * (IGN_FUEL_CACHE_PATH in the ignition releases), else ~/.gz/fuel, else
 * the older ~/.ignition/fuel. Owner and name are matched without regard
 * to case (the cache keeps them lowercased); the newest version is taken
 * unless the URI names one ("tip" is the newest).
 */
#include "fuel.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "base.h"

/* The parts of a Fuel URI: host, owner, model name, version (NULL for
 * the newest) and the path of a file within the model (NULL: the model). */
struct fuel_uri {
	char *host, *owner, *name, *version, *file;
};

static void
fuel_uri_free(struct fuel_uri *u)
{
	free(u->host);
	free(u->owner);
	free(u->name);
	free(u->version);
	free(u->file);
}

/* The next path segment of *s, advancing past it; NULL at the end. */
static char *
segment(const char **s)
{
	const char *p = *s;
	size_t n;

	while (*p == '/')
		p++;
	n = strcspn(p, "/?#");
	if (n == 0)
		return NULL;
	*s = p + n;
	return phys_xstrndup(p, n);
}

static bool
all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* host/1.0/OWNER/models/NAME[/VERSION][/files/PATH] */
static bool
parse(const char *uri, struct fuel_uri *u)
{
	const char *s;
	char *api = NULL, *kind = NULL, *files = NULL;
	bool ok = false;

	memset(u, 0, sizeof *u);
	if (strncmp(uri, "https://", 8) == 0)
		s = uri + 8;
	else if (strncmp(uri, "http://", 7) == 0)
		s = uri + 7;
	else
		return false;
	if (!(u->host = segment(&s)) || !(api = segment(&s)) ||
	    !(u->owner = segment(&s)) || !(kind = segment(&s)) ||
	    strcmp(kind, "models") != 0 || !(u->name = segment(&s)))
		goto done;
	if ((u->version = segment(&s)) && strcmp(u->version, "files") == 0) {
		files = u->version;
		u->version = NULL;
	} else if (u->version && (files = segment(&s)) &&
	    strcmp(files, "files") != 0) {
		goto done;
	}
	if (u->version && (strcmp(u->version, "tip") == 0 ||
	    !all_digits(u->version))) {
		if (strcmp(u->version, "tip") != 0)
			goto done;
		free(u->version);
		u->version = NULL;
	}
	while (files && *s == '/')
		s++;
	if (files && *s)
		u->file = phys_xstrndup(s, strcspn(s, "?#"));
	ok = !files || u->file;
done:
	free(api);
	free(kind);
	free(files);
	if (!ok)
		fuel_uri_free(u);
	return ok;
}

bool
phys_fuel_uri(const char *uri)
{
	struct fuel_uri u;

	if (!parse(uri, &u))
		return false;
	fuel_uri_free(&u);
	return true;
}

/* The entry of dir named name, whatever its case; NULL when none is. */
static char *
entry(const char *dir, const char *name)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *path = NULL;

	if (!d)
		return NULL;
	while (!path && (e = readdir(d)))
		if (strcasecmp(e->d_name, name) == 0)
			path = phys_xasprintf("%s/%s", dir, e->d_name);
	closedir(d);
	return path;
}

/* The highest numbered version directory of a model, or NULL. */
static char *
newest(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	long best = -1, v;
	char *path = NULL;

	if (!d)
		return NULL;
	while ((e = readdir(d)))
		if (all_digits(e->d_name) && strlen(e->d_name) < 10 &&
		    (v = atol(e->d_name)) > best)
			best = v;
	closedir(d);
	if (best >= 0)
		path = phys_xasprintf("%s/%ld", dir, best);
	return path;
}

/* The cache directories, in the order they are searched; each caller
 * frees the list with free_caches. */
static size_t
caches(char *out[4])
{
	const char *home = getenv("HOME");
	const char *var[] = { "GZ_FUEL_CACHE_PATH", "IGN_FUEL_CACHE_PATH" };
	size_t n = 0, i;

	for (i = 0; i < 2; i++)
		if (getenv(var[i]) && *getenv(var[i]))
			out[n++] = phys_xstrdup(getenv(var[i]));
	if (home && *home) {
		out[n++] = phys_xasprintf("%s/.gz/fuel", home);
		out[n++] = phys_xasprintf("%s/.ignition/fuel", home);
	}
	return n;
}

static void
free_caches(char *c[4], size_t n)
{
	while (n--)
		free(c[n]);
}

static bool
exists(const char *path, bool want_dir)
{
	struct stat st;

	return stat(path, &st) == 0 &&
	    (want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
}

/* The model's directory (its version's) in one cache, or NULL. */
static char *
in_cache(const char *cache, const struct fuel_uri *u, const char *host)
{
	char *h, *o = NULL, *m = NULL, *n = NULL, *v = NULL;

	if (!(h = entry(cache, host)))
		return NULL;
	if ((o = entry(h, u->owner)))
		m = entry(o, "models");
	if (m)
		n = entry(m, u->name);
	if (n)
		v = u->version ? entry(n, u->version) : newest(n);
	free(h);
	free(o);
	free(m);
	free(n);
	return v;
}

char *
phys_fuel_find(const char *uri, bool want_dir)
{
	/* the Fuel server's older name keeps its models under the new one */
	static const char *const hosts[] = { "fuel.gazebosim.org",
		"fuel.ignitionrobotics.org" };
	struct fuel_uri u;
	char *c[4], *dir = NULL, *path = NULL;
	size_t n, i, k;

	if (!parse(uri, &u))
		return NULL;
	n = caches(c);
	for (i = 0; i < n && !dir; i++) {
		dir = in_cache(c[i], &u, u.host);
		for (k = 0; k < 2 && !dir; k++)
			if (strcasecmp(u.host, hosts[k]) == 0)
				dir = in_cache(c[i], &u, hosts[1 - k]);
	}
	free_caches(c, n);
	if (dir && u.file)
		path = phys_xasprintf("%s/%s", dir, u.file);
	else if (dir)
		path = phys_xstrdup(dir);
	free(dir);
	if (path && !exists(path, want_dir && !u.file)) {
		free(path);
		path = NULL;
	}
	fuel_uri_free(&u);
	return path;
}

char *
phys_fuel_caches(void)
{
	struct phys_buf b = { 0 };
	char *c[4];
	size_t n = caches(c), i;

	for (i = 0; i < n; i++)
		phys_buf_printf(&b, "%s%s", i ? ", " : "", c[i]);
	free_caches(c, n);
	phys_buf_reserve(&b, 0);
	return b.s ? b.s : phys_xstrdup("");
}
