#!/bin/sh
# gridcube.sh N: a cube of 1 m, centred on the origin, as OBJ on standard
# output: each face an N x N grid of squares, two triangles each, turned
# counter-clockwise seen from outside (12 N^2 triangles).
awk -v n="$1" 'BEGIN {
	for (f = 0; f < 6; f++) {
		ax = int(f / 2); s = f % 2 ? 1 : -1
		for (i = 0; i <= n; i++)
			for (j = 0; j <= n; j++) {
				u = -0.5 + i / n; v = -0.5 + j / n
				if (ax == 0) { x = s * 0.5; y = u; z = v }
				if (ax == 1) { y = s * 0.5; z = u; x = v }
				if (ax == 2) { z = s * 0.5; x = u; y = v }
				printf "v %.6f %.6f %.6f\n", x, y, z
			}
	}
	for (f = 0; f < 6; f++) {
		s = f % 2 ? 1 : -1
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++) {
				a = f * (n + 1) * (n + 1) + i * (n + 1) + j + 1
				b = a + n + 1
				if (s > 0)
					printf "f %d %d %d\nf %d %d %d\n", a, b, b + 1, a, b + 1, a + 1
				else
					printf "f %d %d %d\nf %d %d %d\n", a, b + 1, b, a, a + 1, b + 1
			}
	}
}'
