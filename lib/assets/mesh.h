/*
 * mesh.h - triangle meshes for collision geometry: loaded from Collada,
 * STL, OBJ and glTF files (through assimp) and MuJoCo's MSH files (msh.h),
 * given as lists, extruded from polylines or tessellated from
 * ellipsoids; and their volume, centre of mass and inertia by the
 * divergence theorem.
 *
 * Functions return NULL or -1 with the reason in phys_error().
 */
#ifndef PHYS_MESH_H
#define PHYS_MESH_H

#include <stdbool.h>
#include <stddef.h>

#include "geom.h"
#include "trimesh.h"	/* struct phys_mesh */

/* What a <mesh> element asks for. */
struct phys_mesh_spec {
	const char *path;	/* resolved file */
	const char *submesh;	/* NULL: the whole scene */
	bool first_object;	/* an OBJ's first object only, as MuJoCo's */
	bool center;		/* submesh centred on its bounding box */
	phys_vec3 scale;
};

/* What a world loading a glTF mesh says once: its vertices are taken in
 * the file's axes, every node's transform applied, as Gazebo takes them. */
#define PHYS_GLTF_AXES "glTF meshes are read in their files' axes, as " \
	"Gazebo reads them; glTF's convention is y up, which Drake and newer " \
	"RViz turn to z up: a mesh exported y up lies on its side here (turn " \
	"its collision +90 degrees about x)"

/* Every mesh a world loads, each once (keyed by path, submesh and scale). */
struct phys_mesh_cache {
	struct phys_mesh_entry *e;
	size_t n, cap;
};

const struct phys_mesh *phys_mesh_cache_get(struct phys_mesh_cache *c,
    const struct phys_mesh_spec *spec);
/* Takes ownership of m (from the generators below). */
const struct phys_mesh *phys_mesh_cache_keep(struct phys_mesh_cache *c,
    struct phys_mesh *m);
/* The convex hull of m, a mesh of c (phys_mesh_hull), made once. */
const struct phys_mesh *phys_mesh_cache_hull(struct phys_mesh_cache *c,
    const struct phys_mesh *m);
void phys_mesh_cache_free(struct phys_mesh_cache *c);

struct phys_mesh *phys_mesh_load(const struct phys_mesh_spec *spec);

/*
 * Polygons (n points each, x y pairs) extruded from z = 0 to z = height
 * into one closed mesh per polygon: ear clipping, so concave ones too.
 * Polygons must be simple; one inside another is a hole in it (and one
 * inside a hole an island), as Gazebo extrudes them.
 */
struct phys_mesh *phys_mesh_extrude(const double *const *xy,
    const size_t *npoints, size_t npolygons, double height);

/* A closed polyhedron inscribed in the ellipsoid of semi-axes a b c,
 * with vertices on its axes' ends. */
struct phys_mesh *phys_mesh_ellipsoid(double a, double b, double c);

/* A closed pyramid of 32 sides inscribed in the cone of base radius r
 * at z = -length/2 and apex at z = length/2 (SDF 1.11's <cone>). */
struct phys_mesh *phys_mesh_cone(double r, double length);

/*
 * For each triangle t's edge k (vertex k to k + 1), at 3 t + k, the
 * triangle across it: -1 where none is, or more than one (free()d by the
 * caller). The mesh is welded, so a neighbour shares the edge's vertices.
 */
int *phys_mesh_neighbours(const struct phys_mesh *m);

/*
 * The normal n (from the mesh to the body) of a contact at point p on
 * triangle t of m (nb its neighbours) with a body whose origin is at side,
 * all in m's frame, as the faces there allow it: a body meeting two
 * triangles where they lie flat, or in a valley between them, meets the
 * face, whatever normal a collider gave its edge; over a ridge the normal
 * turns between the two faces' and no further. n on the mesh's border is
 * kept. A point within reach of an edge is on it (a collider that places
 * its point between the two bodies, as deep as they overlap).
 */
phys_vec3 phys_mesh_edge_normal(const struct phys_mesh *m, const int *nb,
    size_t t, phys_vec3 p, phys_vec3 n, phys_vec3 side, double reach);

/* The point of triangle t of m nearest to p: in its plane where p is over
 * it, else on its nearest edge. */
phys_vec3 phys_mesh_nearest_on_triangle(const struct phys_mesh *m, size_t t,
    phys_vec3 p);

/* A copy of m with every vertex multiplied by s (no factor 0). */
struct phys_mesh *phys_mesh_scaled(const struct phys_mesh *m, phys_vec3 s);

/* A copy of m with every vertex carried by the pose p. */
struct phys_mesh *phys_mesh_moved(const struct phys_mesh *m, phys_pose p);

/*
 * The mesh of nv numbers v (three a vertex) and nf numbers face (three
 * vertex indices a triangle), times scale, checked as a file's: an MJCF
 * mesh given by its attributes. No faces: the vertices' convex hull, as
 * MuJoCo makes it.
 */
struct phys_mesh *phys_mesh_of_lists(const double *v, size_t nv,
    const double *face, size_t nf, phys_vec3 scale);

void phys_mesh_free(struct phys_mesh *m);

/*
 * The convex hull of m's vertices (hull.c, through qhull), a closed mesh
 * of triangles turned outwards; NULL for a flat mesh, saying so.
 */
struct phys_mesh *phys_mesh_hull(const struct phys_mesh *m);
/* Whether m's vertices lie in one plane, to within a millionth of their
 * extent (a mesh file's single precision): its hull has no volume. qhull
 * makes one a few rounding errors thick of a tilted plane's grid, and
 * bodies fell through it. */
bool phys_mesh_flat(const struct phys_mesh *m);

/*
 * Of the solid the closed mesh bounds: volume, centre of mass, and the
 * inertia tensor about the centre of mass at unit density (multiply by
 * the density). Fails on an open mesh, saying so.
 */
int phys_mesh_mass(const struct phys_mesh *m, double *volume, phys_vec3 *com,
    phys_mat3 *I);

#endif
