/*
 * meshdec.c - assimp in a process of its own; see meshdec.h.
 *
 * The program never opens assimp: its decoder process does, after it has
 * dropped everything it inherited that a crash could harm (signal
 * handlers that remove the program's temporary files, open files, the
 * terminal) and taken its limits. Requests and replies go through a
 * socket, so that a decoder that died fails a send instead of raising
 * SIGPIPE in the program.
 *
 *	request: struct request, the submesh name, the file's bytes
 *	reply:   struct reply, then the reason (status 1), or nv vertices
 *	         as three doubles and ntri triangles as three uint32_t
 */
#include "meshdec.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/metadata.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include "base.h"
#include "dl.h"
#include "trimesh.h"

#ifndef PHYS_ASSIMP_SONAME
#define PHYS_ASSIMP_SONAME "libassimp.so"
#endif
#define ASSIMP_CALLS(X) X(aiCreatePropertyStore) \
	X(aiSetImportPropertyInteger) X(aiImportFileFromMemoryWithProperties) \
	X(aiReleasePropertyStore) X(aiGetErrorString) X(aiReleaseImport)
static struct { ASSIMP_CALLS(PHYS_DL_POINTER) } ai;
static const char *const ai_names[] = { ASSIMP_CALLS(PHYS_DL_NAME) };

/* Sanitizers reserve terabytes of address space: no RLIMIT_AS there. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif

enum {
	REQUEST_MAGIC = 0x71687370,	/* "pshq" */
	REPLY_MAGIC = 0x72687370,	/* "pshr" */
	MAX_NAME = 4096,		/* a submesh name */
	MAX_REASON = 4096
};

struct request {
	uint32_t magic, format, seconds, name_len;
	uint64_t len;
};

struct reply {
	uint32_t magic, status, reason_len, pad;
	uint64_t nv, ntri;
};

unsigned
phys_mesh_decode_seconds(size_t len)
{
	return 2 + (unsigned)(len >> 22);	/* 2 s and 1 s per 4 MB */
}

unsigned
phys_mesh_decode_wall_seconds(size_t len)
{
	return 60 + 10 * phys_mesh_decode_seconds(len);
}

/* ---- the wire ---- */

static int
send_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	ssize_t k;

	while (n > 0) {
		k = send(fd, c, n, MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

/* n bytes: 1; the end before any: 0; a short read or an error: -1. */
static int
recv_all(int fd, void *p, size_t n)
{
	char *c = p;
	size_t got = 0;
	ssize_t k;

	while (got < n) {
		k = recv(fd, c + got, n - got, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k == 0 && got == 0 ? 0 : -1;
		got += (size_t)k;
	}
	return 1;
}

/* As recv_all, but giving up at the deadline (phys_seconds()): -2. */
static int
recv_until(int fd, void *p, size_t n, double deadline)
{
	struct pollfd pf = { fd, POLLIN, 0 };
	char *c = p;
	size_t got = 0;
	ssize_t k;
	double left;

	while (got < n) {
		left = deadline - phys_seconds();
		if (left <= 0)
			return -2;
		k = poll(&pf, 1, (int)(left * 1000) + 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k == 0)
			return -2;
		k = recv(fd, c + got, n - got, MSG_DONTWAIT);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (k <= 0)
			return k == 0 && got == 0 ? 0 : -1;
		got += (size_t)k;
	}
	return 1;
}

/* ---- the decoder's side ---- */

/* What one request builds; plain allocation, so that running out of
 * memory is a reply and not an exit. */
struct build {
	double *v;
	uint32_t *tri;
	size_t nv, ntri, capv, capt;
	const char *want;	/* submesh, or NULL */
	bool matched;
	char *names;		/* of nodes and meshes, for a missing one */
	size_t names_len, names_n;
	const char *err;
	char errbuf[MAX_REASON];
};

static bool
grow(void **p, size_t *cap, size_t need, size_t each)
{
	size_t n = *cap ? *cap : 1024;
	void *q;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * each);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

static void
build_fail(struct build *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
build_fail(struct build *b, const char *fmt, ...)
{
	va_list ap;

	if (b->err)
		return;
	va_start(ap, fmt);
	vsnprintf(b->errbuf, sizeof b->errbuf, fmt, ap);
	va_end(ap);
	b->err = b->errbuf;
}

static void
matrix_mul(struct aiMatrix4x4 *out, const struct aiMatrix4x4 *a,
    const struct aiMatrix4x4 *b)
{
	const float *p = &a->a1, *q = &b->a1;
	float r[16];
	int i, j, k;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++) {
			r[4 * i + j] = 0;
			for (k = 0; k < 4; k++)
				r[4 * i + j] += p[4 * i + k] * q[4 * k + j];
		}
	memcpy(&out->a1, r, sizeof r);
}

static void
add_ai_mesh(struct build *b, const struct aiMesh *am,
    const struct aiMatrix4x4 *t)
{
	size_t base = b->nv, f, k;

	if (am->mNumFaces > PHYS_MESH_MAX_TRIANGLES - b->ntri ||
	    am->mNumVertices > 3 * (size_t)PHYS_MESH_MAX_TRIANGLES - b->nv) {
		build_fail(b, "more than %u triangles once instances are "
		    "counted", PHYS_MESH_MAX_TRIANGLES);
		return;
	}
	if (!grow((void **)&b->v, &b->capv, b->nv + am->mNumVertices,
	    3 * sizeof *b->v) ||
	    !grow((void **)&b->tri, &b->capt, b->ntri + am->mNumFaces,
	    3 * sizeof *b->tri)) {
		build_fail(b, "out of memory");
		return;
	}
	for (k = 0; k < am->mNumVertices; k++) {
		const struct aiVector3D *p = &am->mVertices[k];
		double *o = b->v + 3 * b->nv++;

		o[0] = t->a1 * p->x + t->a2 * p->y + t->a3 * p->z + t->a4;
		o[1] = t->b1 * p->x + t->b2 * p->y + t->b3 * p->z + t->b4;
		o[2] = t->c1 * p->x + t->c2 * p->y + t->c3 * p->z + t->c4;
	}
	for (f = 0; f < am->mNumFaces; f++) {
		const struct aiFace *face = &am->mFaces[f];
		uint32_t *o;

		if (face->mNumIndices != 3)
			continue;	/* points and lines bound no volume */
		if (face->mIndices[0] >= am->mNumVertices ||
		    face->mIndices[1] >= am->mNumVertices ||
		    face->mIndices[2] >= am->mNumVertices)
			continue;
		o = b->tri + 3 * b->ntri++;
		o[0] = (uint32_t)(base + face->mIndices[0]);
		o[1] = (uint32_t)(base + face->mIndices[1]);
		o[2] = (uint32_t)(base + face->mIndices[2]);
	}
}

static bool
name_is(const struct aiString *s, const char *name)
{
	return strlen(name) == s->length && memcmp(s->data, name, s->length) == 0;
}

/* The names a submesh may take, each once, for the message when the one
 * asked for is missing; assimp's own names ("$...") are not the file's. */
static void
note_name(struct build *b, const struct aiString *s)
{
	size_t n = s->length, i;
	char *q;

	if (n == 0 || n > 200 || s->data[0] == '$' || b->names_n >= 1000)
		return;
	for (i = 0; i < b->names_len; i += strlen(b->names + i) + 1)
		if (strlen(b->names + i) == n && memcmp(b->names + i, s->data,
		    n) == 0)
			return;
	q = realloc(b->names, b->names_len + n + 1);
	if (!q)
		return;
	b->names = q;
	memcpy(b->names + b->names_len, s->data, n);
	b->names[b->names_len + n] = '\0';
	b->names_len += n + 1;
	b->names_n++;
}

/* A node's meshes with its transform; a submesh is chosen by the name of
 * its mesh or of the node holding it. */
static void
walk(struct build *b, const struct aiScene *sc, const struct aiNode *node,
    const struct aiMatrix4x4 *parent, int depth)
{
	struct aiMatrix4x4 t;
	unsigned i;

	if (b->err)
		return;
	if (depth > PHYS_MESH_MAX_DEPTH) {
		build_fail(b, "nodes nested deeper than %d levels",
		    PHYS_MESH_MAX_DEPTH);
		return;
	}
	matrix_mul(&t, parent, &node->mTransformation);
	if (depth > 0)
		note_name(b, &node->mName);
	for (i = 0; i < node->mNumMeshes && !b->err; i++) {
		const struct aiMesh *am;

		if (node->mMeshes[i] >= sc->mNumMeshes)
			continue;
		am = sc->mMeshes[node->mMeshes[i]];
		note_name(b, &am->mName);
		if (b->want && !name_is(&am->mName, b->want) &&
		    !name_is(&node->mName, b->want))
			continue;
		b->matched = true;
		add_ai_mesh(b, am, &t);
	}
	for (i = 0; i < node->mNumChildren; i++)
		walk(b, sc, node->mChildren[i], &t, depth + 1);
}

static void
missing_submesh(struct build *b)
{
	char list[2048];
	size_t i, n = 0, shown = 0;

	list[0] = '\0';
	for (i = 0; i < b->names_len; i += strlen(b->names + i) + 1) {
		if (n + strlen(b->names + i) + 16 >= sizeof list)
			break;
		n += (size_t)snprintf(list + n, sizeof list - n, "%s'%s'",
		    shown ? ", " : "", b->names + i);
		shown++;
	}
	if (shown < b->names_n)
		snprintf(list + n, sizeof list - n, " and %zu more",
		    b->names_n - shown);
	if (shown)
		build_fail(b, "no submesh named '%s'; the mesh has %s", b->want,
		    list);
	else
		build_fail(b, "no submesh named '%s'; the mesh names no part",
		    b->want);
}

static const char *const importer_names[] = {
	[PHYS_MESH_COLLADA] = "Collada Importer",
	[PHYS_MESH_STL] = "Stereolithography (STL) Importer",
	[PHYS_MESH_OBJ] = "Wavefront Object Importer",
	[PHYS_MESH_GLTF] = "glTF2 Importer",
};
static const char *const hints[] = {
	[PHYS_MESH_COLLADA] = "dae",
	[PHYS_MESH_STL] = "stl",
	[PHYS_MESH_OBJ] = "obj",
	[PHYS_MESH_GLTF] = "glb",	/* packed (gltf.h) */
};

/* Did the importer the format names read the file? (assimp 5 records
 * it; a hint is a file name extension, and assimp could try others.) */
static bool
read_by(const struct aiScene *sc, enum phys_mesh_format f)
{
	const struct aiMetadata *m = sc->mMetaData;
	unsigned i;

	for (i = 0; m && i < m->mNumProperties; i++)
		if (name_is(&m->mKeys[i], "SourceAsset_Format") &&
		    m->mValues[i].mType == AI_AISTRING)
			return name_is(m->mValues[i].mData, importer_names[f]);
	return true;
}

/*
 * assimp refuses a Collada number list that starts with a blank
 * ("<color> 1 1 1 1</color>"), which Gazebo reads: the copy tried
 * next has the blanks between a '>' and a number removed.
 */
static char *
trimmed_copy(const char *in, size_t len, size_t *outlen)
{
	char *out = malloc(len ? len : 1);
	size_t i, j, n = 0;

	if (!out)
		return NULL;
	for (i = 0; i < len; i++) {
		out[n++] = in[i];
		if (in[i] != '>')
			continue;
		for (j = i + 1; j < len && strchr(" \t\r\n", in[j]); j++)
			;
		if (j > i + 1 && j < len && strchr("0123456789+-.", in[j]))
			i = j - 1;
	}
	*outlen = n;
	return out;
}

static const struct aiScene *
import(const char *data, size_t len, enum phys_mesh_format f)
{
	struct aiPropertyStore *props = ai.aiCreatePropertyStore();
	const struct aiScene *sc;

	/* Gazebo's worlds are z-up and take a Collada file's coordinates as
	 * they are; its <unit> scale and node transforms do apply. Its
	 * nodes and geometries are named by their names, not their ids. */
	ai.aiSetImportPropertyInteger(props,
	    AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, 1);
	ai.aiSetImportPropertyInteger(props,
	    AI_CONFIG_IMPORT_COLLADA_USE_COLLADA_NAMES, 1);
	sc = ai.aiImportFileFromMemoryWithProperties(data, (unsigned)len,
	    aiProcess_Triangulate, hints[f], props);
	ai.aiReleasePropertyStore(props);
	return sc;
}

static void
decode(struct build *b, const char *data, size_t len, enum phys_mesh_format f)
{
	static const struct aiMatrix4x4 identity = { 1, 0, 0, 0, 0, 1, 0, 0,
		0, 0, 1, 0, 0, 0, 0, 1 };
	const struct aiScene *sc = import(data, len, f);
	char first[MAX_REASON], *copy;
	size_t n;

	if (!sc) {
		snprintf(first, sizeof first, "%s", ai.aiGetErrorString());
		if (f == PHYS_MESH_COLLADA &&
		    (copy = trimmed_copy(data, len, &n))) {
			sc = import(copy, n, f);
			free(copy);
		}
		if (!sc) {
			build_fail(b, "assimp cannot read it: %s", first);
			return;
		}
	}
	if (!read_by(sc, f))
		build_fail(b, "assimp read it as another format than %s",
		    phys_mesh_format_name(f));
	else if (!sc->mRootNode)
		build_fail(b, "%s", "assimp found no scene in it");
	else
		walk(b, sc, sc->mRootNode, &identity, 0);
	ai.aiReleaseImport(sc);
	if (!b->err && b->want && !b->matched)
		missing_submesh(b);
}

static void
reply_fail(int fd, const char *why)
{
	struct reply r = { REPLY_MAGIC, 1, 0, 0, 0, 0 };

	r.reason_len = (uint32_t)strnlen(why, MAX_REASON - 1);
	if (send_all(fd, &r, sizeof r) < 0 ||
	    send_all(fd, why, r.reason_len) < 0)
		_exit(0);
}

static void
reply(int fd, const struct build *b)
{
	struct reply r = { REPLY_MAGIC, 0, 0, 0, 0, 0 };

	if (b->err) {
		reply_fail(fd, b->err);
		return;
	}
	r.nv = b->nv;
	r.ntri = b->ntri;
	if (send_all(fd, &r, sizeof r) < 0 ||
	    send_all(fd, b->v, 3 * b->nv * sizeof *b->v) < 0 ||
	    send_all(fd, b->tri, 3 * b->ntri * sizeof *b->tri) < 0)
		_exit(0);
}

/* This request's share of processor time, on top of what was used. */
static void
limit_time(unsigned seconds)
{
	struct rusage ru;
	struct rlimit rl;
	rlim_t used;

	if (getrusage(RUSAGE_SELF, &ru) < 0 ||
	    getrlimit(RLIMIT_CPU, &rl) < 0)
		return;
	used = (rlim_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + 1);
	rl.rlim_cur = used + seconds;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_cur > rl.rlim_max)
		rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_CPU, &rl);
}

/* One request: its bytes read whatever happens, so that the next
 * request starts where this one ends. */
static void
serve_one(int fd, const struct request *rq, const char *unusable)
{
	struct build b;
	char *data = NULL, name[MAX_NAME + 1];

	memset(&b, 0, sizeof b);
	if (rq->magic != REQUEST_MAGIC || rq->len == 0 ||
	    rq->len > PHYS_MESH_MAX_BYTES || rq->name_len > MAX_NAME ||
	    rq->format < PHYS_MESH_COLLADA || rq->format > PHYS_MESH_GLTF)
		_exit(0);
	if (recv_all(fd, name, rq->name_len) < 0)
		_exit(0);
	name[rq->name_len] = '\0';
	b.want = rq->name_len ? name : NULL;
	if (!(data = malloc(rq->len)) || recv_all(fd, data, rq->len) <= 0)
		_exit(0);
	limit_time(rq->seconds);
	if (unusable)
		build_fail(&b, "%s", unusable);
	else
		decode(&b, data, rq->len, rq->format);
	free(data);
	reply(fd, &b);
	free(b.v);
	free(b.tri);
	free(b.names);
}

/* No more address space than it has now and PHYS_MESH_DECODER_MB:
 * what assimp allocates past that fails. */
static void
limit_memory(void)
{
#ifndef SANITIZED
	size_t mapped = phys_mem_mapped(NULL);
	struct rlimit rl;

	if (mapped == 0)
		return;
	rl.rlim_cur = rl.rlim_max = (rlim_t)mapped +
	    ((rlim_t)PHYS_MESH_DECODER_MB << 20);
	setrlimit(RLIMIT_AS, &rl);
#endif
}

static void
take_limits(void)
{
	struct rlimit rl;

	rl.rlim_cur = rl.rlim_max = 0;
	setrlimit(RLIMIT_CORE, &rl);
	if (getrlimit(RLIMIT_STACK, &rl) == 0 &&
	    (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (8u << 20))) {
		rl.rlim_cur = 8u << 20;
		setrlimit(RLIMIT_STACK, &rl);
	}
	limit_memory();
}

/*
 * The decoder: its own signals (the program's handlers would remove the
 * program's temporary file), no core files, no inherited descriptors but
 * the socket; it ends with the program.
 */
static _Noreturn void
serve(int fd, pid_t parent)
{
	static struct phys_dl_state st;
	struct request rq;
	const char *unusable = NULL;
	sigset_t all;
	int sig, null;

	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	prctl(PR_SET_DUMPABLE, 0);
	if ((null = open("/dev/null", O_RDWR)) >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
	}
	if (dup2(fd, 3) < 0)
		_exit(0);
	closefrom(4);
	fd = 3;
	if (phys_dl_load(&st, PHYS_ASSIMP_SONAME, ai_names, (void **)&ai,
	    sizeof ai / sizeof(void *), "meshes need assimp") < 0)
		unusable = phys_error();
	take_limits();
	while (recv_all(fd, &rq, sizeof rq) > 0)
		serve_one(fd, &rq, unusable);
	_exit(0);
}

/* ---- the program's side ---- */

static struct {
	pid_t pid;		/* the decoder, or 0 */
	pid_t owner;		/* the process that started it */
	int fd;
	double deadline;	/* of the request under way (phys_seconds) */
} dec;

static void
end_decoder(int *status)
{
	pid_t pid = dec.pid;

	close(dec.fd);
	dec.pid = 0;
	kill(pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
}

/* At exit: waiting for the decoder leaves no process behind and counts
 * it in the program's usage. */
static void
reap_decoder(void)
{
	int status;

	if (dec.pid > 0 && dec.owner == getpid())
		end_decoder(&status);
}

static int
start_decoder(void)
{
	static bool registered;
	int sv[2];
	pid_t parent = getpid();

	if (!registered) {
		atexit(reap_decoder);
		registered = true;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return phys_fail("cannot start the mesh decoder: %s",
		    strerror(errno));
	dec.pid = fork();
	if (dec.pid < 0) {
		close(sv[0]);
		close(sv[1]);
		dec.pid = 0;
		return phys_fail("cannot start the mesh decoder: %s",
		    strerror(errno));
	}
	if (dec.pid == 0)
		serve(sv[1], parent);
	close(sv[1]);
	dec.fd = sv[0];
	dec.owner = parent;
	return 0;
}

/* How a request ended. */
enum answer {
	DECODED,	/* a mesh */
	REFUSED,	/* a reason; the decoder waits for the next */
	BROKEN,		/* a reply that breaks the rules: reason given */
	DIED,		/* no reply: the decoder ended */
	LATE		/* no reply in time: the decoder is blocked */
};

/* recv_until's answer as the request's. */
static enum answer
received(int rc)
{
	return rc == -2 ? LATE : rc <= 0 ? DIED : DECODED;
}

/* (phys_mesh_free is mesh.c's, which uses this file: not called here.) */
static void
drop(struct phys_mesh *m)
{
	free(m->v);
	free(m->tri);
	free(m);
}

/* The triangles of the reply, checked: every index names a vertex. */
static enum answer
receive_mesh(const struct reply *r, struct phys_mesh **out)
{
	struct phys_mesh *m;
	enum answer a;
	unsigned *tri;
	size_t i;

	if (r->ntri > PHYS_MESH_MAX_TRIANGLES ||
	    r->nv > 3 * (uint64_t)PHYS_MESH_MAX_TRIANGLES) {
		phys_fail("%s", "the mesh decoder answered more triangles "
		    "than a mesh may have");
		return BROKEN;
	}
	m = phys_xcalloc(1, sizeof *m);
	m->nv = (size_t)r->nv;
	m->ntri = (size_t)r->ntri;
	m->v = phys_xmalloc((m->nv ? m->nv : 1) * 3 * sizeof *m->v);
	m->tri = tri = phys_xmalloc((m->ntri ? m->ntri : 1) * 3 * sizeof *tri);
	if ((a = received(recv_until(dec.fd, m->v, m->nv * 3 * sizeof *m->v,
	    dec.deadline))) != DECODED || (a = received(recv_until(dec.fd, tri,
	    m->ntri * 3 * sizeof *tri, dec.deadline))) != DECODED) {
		drop(m);
		return a;
	}
	for (i = 0; i < 3 * m->ntri; i++)
		if (tri[i] >= m->nv) {
			drop(m);
			phys_fail("%s", "the mesh decoder answered a triangle "
			    "of vertices it did not send");
			return BROKEN;
		}
	*out = m;
	return DECODED;
}

static enum answer
await(struct phys_mesh **out)
{
	struct reply r;
	char why[MAX_REASON + 1];
	enum answer a;

	if ((a = received(recv_until(dec.fd, &r, sizeof r, dec.deadline))) !=
	    DECODED)
		return a;
	if (r.magic != REPLY_MAGIC) {
		phys_fail("%s", "the mesh decoder answered nonsense");
		return BROKEN;
	}
	if (r.status == 0)
		return receive_mesh(&r, out);
	if (r.reason_len > MAX_REASON)
		return DIED;
	if ((a = received(recv_until(dec.fd, why, r.reason_len,
	    dec.deadline))) != DECODED)
		return a;
	why[r.reason_len] = '\0';
	if (strstr(why, "bad_alloc"))
		phys_fail("decoding needs more than the %d MB of memory a "
		    "mesh decoder may use", PHYS_MESH_DECODER_MB);
	else
		phys_fail("%s", why);
	return REFUSED;
}

/* Why the decoder ended without an answer. */
static void
decoder_died(unsigned seconds)
{
	int status = 0, sig;

	end_decoder(&status);
	if (!WIFSIGNALED(status)) {
		phys_fail("the mesh decoder stopped (exit status %d) without "
		    "an answer", WEXITSTATUS(status));
		return;
	}
	sig = WTERMSIG(status);
	if (sig == SIGXCPU)
		phys_fail("decoding took more than the %u s of processor time "
		    "a mesh of its size may take", seconds);
	else
		phys_fail("the mesh decoder (assimp) crashed on it (%s)",
		    sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" :
		    sig == SIGABRT ? "SIGABRT" : sig == SIGFPE ? "SIGFPE" :
		    sig == SIGILL ? "SIGILL" : sig == SIGKILL ? "SIGKILL" :
		    strsignal(sig));
}

struct phys_mesh *
phys_mesh_decode(const char *data, size_t len, enum phys_mesh_format format,
    const char *submesh)
{
	struct request rq = { REQUEST_MAGIC, (uint32_t)format, 0, 0, len };
	struct phys_mesh *m = NULL;
	enum answer a;
	int status;

	rq.seconds = phys_mesh_decode_seconds(len);
	rq.name_len = submesh ? (uint32_t)strnlen(submesh, MAX_NAME + 1) : 0;
	if (rq.name_len > MAX_NAME) {
		phys_fail("%s", "the submesh name is too long");
		return NULL;
	}
	/* A decoder started by the process this one was forked from is
	 * not this one's to use. */
	if (dec.pid > 0 && dec.owner != getpid()) {
		close(dec.fd);
		dec.pid = 0;
	}
	if (dec.pid == 0 && start_decoder() < 0)
		return NULL;
	/* Processor time is the decoder's limit; a decoder blocked without
	 * using any (on a file it was made to open) is stopped here. */
	dec.deadline = phys_seconds() + phys_mesh_decode_wall_seconds(len);
	phys_wait_begin();
	if (send_all(dec.fd, &rq, sizeof rq) < 0 ||
	    send_all(dec.fd, submesh, rq.name_len) < 0 ||
	    send_all(dec.fd, data, len) < 0)
		a = DIED;
	else
		a = await(&m);
	phys_wait_end();
	if (a == DIED)
		decoder_died(rq.seconds);
	else if (a == BROKEN)
		end_decoder(&status);
	else if (a == LATE) {
		end_decoder(&status);
		phys_fail("decoding took more than %u s; the mesh decoder was "
		    "stopped", phys_mesh_decode_wall_seconds(len));
	}
	return m;
}
