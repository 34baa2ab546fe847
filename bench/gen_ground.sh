#!/bin/sh
# gen_ground.sh N: an OBJ ground of 2 N^2 triangles, N x N cells over
# -1..4 m in x and y (under gen_boxes.sh's grid), gently waved by 1 cm.
n=${1:-100}
awk -v n="$n" 'BEGIN {
	for (j = 0; j <= n; j++)
		for (i = 0; i <= n; i++) {
			x = -1 + 5 * i / n; y = -1 + 5 * j / n
			printf "v %.6f %.6f %.6f\n", x, y, 0.01 * sin(3 * x) * cos(3 * y)
		}
	for (j = 0; j < n; j++)
		for (i = 0; i < n; i++) {
			a = j * (n + 1) + i + 1; b = a + 1; c = a + n + 2; d = a + n + 1
			printf "f %d %d %d\nf %d %d %d\n", a, b, c, a, c, d
		}
}'
