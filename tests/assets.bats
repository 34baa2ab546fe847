#!/usr/bin/env bats
# Hostile meshes and terrains: files that crashed, hung or exhausted the
# program, made here by the test (never fetched). Each is refused before
# it is decoded, or decoded where a crash cannot reach the program, with
# "prog: world:line: mesh: FILE: reason" and status 1.

load helper
bats_require_minimum_version 1.5.0

setup_file() {
	GEN="$BATS_FILE_TMPDIR/gen"
	mkdir -p "$GEN"
	cc "$BATS_TEST_DIRNAME/data/geomgen.c" $(pkg-config --cflags --libs gdal) \
	    -lm -o "$BATS_FILE_TMPDIR/geomgen"
	"$BATS_FILE_TMPDIR/geomgen" "$GEN"
}

setup() {
	GEN="$BATS_FILE_TMPDIR/gen"
}

# drop_world FILE GEOMETRY: a static model of GEOMETRY (on line 6) and a ball
# dropped above it, with an "ode" and a "bullet" profile.
drop_world() {
	cat > "$1" <<EOF
<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><gravity>0 0 -9.81</gravity>
<physics name="ode" type="ode"><max_step_size>0.001</max_step_size></physics>
<physics name="bullet" type="bullet"><max_step_size>0.001</max_step_size></physics>
<model name="ground"><static>true</static><link name="link"><collision name="c"><geometry>
$2
</geometry></collision></link></model>
<model name="ball"><pose>0 0 3 0 0 0</pose><link name="link"><inertial><mass>1</mass>
<inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial>
<collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision></link></model>
</world></sdf>
EOF
}

mesh() {
	drop_world "$TMP/w.sdf" "<mesh><uri>$1</uri>${2:+<submesh><name>$2</name></submesh>}</mesh>"
}

# refused CMD... : status 1 and stderr "PROG: w.sdf:6: $want", where want
# may hold a glob.
refused() {
	run -1 --separate-stderr timeout 60 "$@"
	[[ "$stderr" == ${1}": $TMP/w.sdf:6: "$want ]] || fail "$*: $stderr"
	[ -z "$output" ]
}

# collada FILE BODY: a Collada document of one triangle (geometry "g",
# named GEOM) and the visual scene BODY.
collada() {
	cat > "$1" <<EOF
<?xml version="1.0"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
<library_geometries><geometry id="g" name="${GEOM:-g}"><mesh>
<source id="p"><float_array id="pa" count="${COUNT:-9}">0 0 0 1 0 0 0 1 0</float_array>
<technique_common><accessor source="#pa" count="3" stride="3"><param name="X" type="float"/>
<param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
<vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
<triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>
</mesh></geometry></library_geometries>
$2
<scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
EOF
}

# ---- a decoder that crashes or loops cannot take the program down ----

# A skin whose weights cover one vertex of a mesh of a thousand: assimp
# 5.2 indexes its table of weights by vertex and reads far past it.
skin_crash() {
	awk 'BEGIN {
		n = 999
		print "<?xml version=\"1.0\"?>"
		print "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">"
		printf "<library_geometries><geometry id=\"g\" name=\"g\"><mesh><source id=\"p\"><float_array id=\"pa\" count=\"%d\">", 3 * n
		for (i = 0; i < n; i++) printf " %d 0 %d", i, i % 7
		printf "</float_array><technique_common><accessor source=\"#pa\" count=\"%d\" stride=\"3\"><param name=\"X\" type=\"float\"/><param name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/></accessor></technique_common></source>\n", n
		printf "<vertices id=\"v\"><input semantic=\"POSITION\" source=\"#p\"/></vertices><triangles count=\"%d\"><input semantic=\"VERTEX\" source=\"#v\" offset=\"0\"/><p>", n / 3
		for (i = 0; i < n; i++) printf " %d", i
		print "</p></triangles></mesh></geometry></library_geometries>"
		print "<library_controllers><controller id=\"c\"><skin source=\"#g\">"
		print "<source id=\"j\"><Name_array id=\"ja\" count=\"1\">bone</Name_array><technique_common><accessor source=\"#ja\" count=\"1\" stride=\"1\"><param name=\"JOINT\" type=\"name\"/></accessor></technique_common></source>"
		print "<source id=\"m\"><float_array id=\"ma\" count=\"16\">1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</float_array><technique_common><accessor source=\"#ma\" count=\"1\" stride=\"16\"><param name=\"TRANSFORM\" type=\"float4x4\"/></accessor></technique_common></source>"
		print "<source id=\"w\"><float_array id=\"wa\" count=\"1\">1</float_array><technique_common><accessor source=\"#wa\" count=\"1\" stride=\"1\"><param name=\"WEIGHT\" type=\"float\"/></accessor></technique_common></source>"
		print "<joints><input semantic=\"JOINT\" source=\"#j\"/><input semantic=\"INV_BIND_MATRIX\" source=\"#m\"/></joints>"
		print "<vertex_weights count=\"1\"><input semantic=\"JOINT\" source=\"#j\" offset=\"0\"/><input semantic=\"WEIGHT\" source=\"#w\" offset=\"1\"/><vcount>1</vcount><v>0 0</v></vertex_weights>"
		print "</skin></controller></library_controllers>"
		print "<library_visual_scenes><visual_scene id=\"s\"><node id=\"bone\" name=\"bone\" type=\"JOINT\"/><node id=\"n\" name=\"N\"><instance_controller url=\"#c\"><skeleton>#bone</skeleton></instance_controller></node></visual_scene></library_visual_scenes>"
		print "<scene><instance_visual_scene url=\"#s\"/></scene></COLLADA>" }' > "$1"
}

@test "a mesh on which assimp crashes: every command that loads the world says so and exits 1 (phys-inertia check after checking the rest)" {
	skin_crash "$TMP/skin.dae"
	mesh "$TMP/skin.dae"
	want="mesh: $TMP/skin.dae: the mesh decoder (assimp) crashed on it (SIGSEGV)"
	refused phys-param get gravity "$TMP/w.sdf"
	refused phys-step -n 1 "$TMP/w.sdf"
	refused phys-step -n 1 -p bullet "$TMP/w.sdf"
	# check checks the inertias without that geometry, and says why
	run -1 --separate-stderr timeout 60 phys-inertia check "$TMP/w.sdf"
	[ "$stderr" = "phys-inertia: $TMP/w.sdf:6: $want; link 'ground::link' checked without its geometry" ]
	[ "$(jq -r 'select(.link == "ground::link") | .unread' <<<"$output")" = "$TMP/w.sdf:6: $want" ]
}

@test "a mesh on which assimp would loop for minutes stops at its time limit" {
	# one face of 60000 corners: assimp's triangulation is quadratic
	awk 'BEGIN { n = 60000
		for (i = 0; i < n; i++) printf "v %.6f %.6f 0\n", cos(6.283185307 * i / n), sin(6.283185307 * i / n)
		printf "f"; for (i = 1; i <= n; i++) printf " %d", i; print "" }' > "$TMP/poly.obj"
	mesh "$TMP/poly.obj"
	want="mesh: $TMP/poly.obj: decoding took more than the 2 s of processor time a mesh of its size may take"
	refused phys-param get gravity "$TMP/w.sdf"
}

@test "an OBJ whose material library is a FIFO loads at once: the decoder opens no other file" {
	mkfifo "$TMP/lib.mtl"
	printf 'mtllib %s\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' "$TMP/lib.mtl" > "$TMP/t.obj"
	mesh "$TMP/t.obj"
	run -0 timeout -k 5 20 phys-param get gravity "$TMP/w.sdf"
}

# ---- files counted before a decoder sees them ----

@test "Collada instances that never end, 10000 nested nodes, a count of -5: refused before decoding" {
	collada "$TMP/self.dae" '<library_visual_scenes><visual_scene id="s"><node id="n" name="N"><instance_geometry url="#g"/><instance_node url="#n"/></node></visual_scene></library_visual_scenes>'
	mesh "$TMP/self.dae"
	want="mesh: $TMP/self.dae: Collada line 10: node 'N' contains itself (through <instance_node>): its instances never end"
	refused phys-param get gravity "$TMP/w.sdf"
	# through the name alone, as assimp resolves an instance it finds no id for
	collada "$TMP/self.dae" '<library_visual_scenes><visual_scene id="s"><node name="N"><instance_geometry url="#g"/><instance_node url="#N"/></node></visual_scene></library_visual_scenes>'
	refused phys-param get gravity "$TMP/w.sdf"
	collada "$TMP/deep.dae" "<library_visual_scenes><visual_scene id=\"s\">$(printf '<node>%.0s' $(seq 10000))<instance_geometry url=\"#g\"/>$(printf '</node>%.0s' $(seq 10000))</visual_scene></library_visual_scenes>"
	mesh "$TMP/deep.dae"
	want="mesh: $TMP/deep.dae: Collada line 10: nodes nested deeper than 256 levels"
	refused phys-param get gravity "$TMP/w.sdf"
	# 256 levels still load
	collada "$TMP/deep.dae" "<library_visual_scenes><visual_scene id=\"s\">$(printf '<node>%.0s' $(seq 256))<instance_geometry url=\"#g\"/>$(printf '</node>%.0s' $(seq 256))</visual_scene></library_visual_scenes>"
	run -0 phys-param get gravity "$TMP/w.sdf"
	COUNT=-5 collada "$TMP/neg.dae" '<library_visual_scenes><visual_scene id="s"><node><instance_geometry url="#g"/></node></visual_scene></library_visual_scenes>'
	mesh "$TMP/neg.dae"
	want="mesh: $TMP/neg.dae: Collada line 4: <float_array> count=\"-5\" is not a count"
	refused phys-param get gravity "$TMP/w.sdf"
}

@test "small files that would take gigabytes: a million instances, a count of 10^8, a sparse 1 GB STL; refused, little memory" {
	local rss lib='<library_nodes><node id="l0"><instance_geometry url="#g"/></node>' i k
	# 1 KB: six levels of ten instances each, a million nodes
	for i in 1 2 3 4 5 6; do
		lib="$lib<node id=\"l$i\">"
		for k in $(seq 10); do lib="$lib<instance_node url=\"#l$((i - 1))\"/>"; done
		lib="$lib</node>"
	done
	collada "$TMP/fan.dae" "$lib</library_nodes><library_visual_scenes><visual_scene id=\"s\"><node><instance_node url=\"#l6\"/></node></visual_scene></library_visual_scenes>"
	mesh "$TMP/fan.dae"
	rss=$(max_rss_kb timeout 60 phys-param get gravity "$TMP/w.sdf")
	[ "$(cat "$TMP/err")" = "phys-param: $TMP/w.sdf:6: mesh: $TMP/fan.dae: Collada: more than 100000 nodes once instances are counted" ]
	[ "$rss" -lt 204800 ] || fail "peak RSS $rss kB"
	COUNT=100000000 collada "$TMP/count.dae" '<library_visual_scenes><visual_scene id="s"><node><instance_geometry url="#g"/></node></visual_scene></library_visual_scenes>'
	mesh "$TMP/count.dae"
	rss=$(max_rss_kb timeout 60 phys-param get gravity "$TMP/w.sdf")
	[ "$(cat "$TMP/err")" = "phys-param: $TMP/w.sdf:6: mesh: $TMP/count.dae: Collada line 4: an array's count 100000000 is more than the 9 values it holds" ]
	[ "$rss" -lt 204800 ] || fail "peak RSS $rss kB"
	truncate -s 1G "$TMP/sparse.stl"
	mesh "$TMP/sparse.stl"
	rss=$(max_rss_kb timeout 60 phys-param get gravity "$TMP/w.sdf")
	[ "$(cat "$TMP/err")" = "phys-param: $TMP/w.sdf:6: mesh: $TMP/sparse.stl: 1073741824 bytes, more than the 256 MB of a mesh file" ]
	[ "$rss" -lt 204800 ] || fail "peak RSS $rss kB"
}

# gltf_variant NAME JQ: the glTF cube, its JSON changed by JQ, beside its
# buffer in $TMP.
gltf_variant() {
	cp "$GEN/cube data.bin" "$TMP/"
	jq -c "$2" "$GEN/cube.gltf" > "$TMP/$1"
}

@test "glTF that would loop, take gigabytes or wait: a node its own ancestor, 2^40 instances, counts past their bytes, a buffer that is a FIFO or a URL; refused before decoding, at once" {
	local name edit
	mkfifo "$TMP/fifo.bin"
	# NAME, the JQ edit of the cube, and the reason after "glTF", by tabs
	while IFS=$'\t' read -r name edit want; do
		gltf_variant "$name" "$edit"
		mesh "$TMP/$name"
		want="mesh: $TMP/$name: glTF${want//TMP/$TMP}"
		refused phys-step -n 1 "$TMP/w.sdf"
	done <<'CASES'
cycle.gltf	.nodes[1].children = [0]	: node 0 is its own ancestor
shared.gltf	.nodes = [range(40) | {children: [. + 1, . + 1]}] + [{mesh: 0}] | .scenes[0].nodes = [0]	: more than 100000 nodes once instances are counted
long.gltf	.accessors[0].count = 80000	: accessor 0: 80000 elements of 12 bytes end at byte 960000 of bufferView 0, which holds 96
zeros.gltf	.accessors[0] |= (del(.bufferView) | .count = 100000000)	: its accessors hold more than the 256 MB of a mesh file
view.gltf	.bufferViews[1].byteLength = 720	: bufferView 1: bytes 96 to 816 of buffer 0, which holds 168
short.gltf	.buffers[0].byteLength = 1000 | .bufferViews[1].byteLength = 720	: buffer 0: TMP/cube data.bin holds fewer than the 1000 bytes its byteLength says
fifo.gltf	.buffers[0].uri = "fifo.bin"	: buffer 0: TMP/fifo.bin: not a regular file (a FIFO)
url.gltf	.buffers[0].uri = "https://example.com/cube.bin"	: buffer 0: 'https://example.com/cube.bin' is not a file beside the mesh
draco.gltf	.extensionsRequired = ["KHR_draco_mesh_compression"]	: it requires the extension KHR_draco_mesh_compression, which phys does not read
old.gltf	.asset.version = "1.0"	 1.0: phys reads glTF 2.0
CASES
	# a GLB whose header claims more bytes than it has
	head -c 900 "$GEN/cube.glb" > "$TMP/cut.glb"
	mesh "$TMP/cut.glb"
	want="mesh: $TMP/cut.glb: GLB: its header says 984 bytes, the file has 900"
	refused phys-step -n 1 "$TMP/w.sdf"
	# a view's byteStride of 0 (below the specification's 4, written by
	# some exporters) is read as packed, as assimp reads it
	gltf_variant stride0.gltf '.bufferViews[0].byteStride = 0'
	mesh "$TMP/stride0.gltf"
	phys-step -t 1 -i ball::link/pose "$TMP/w.sdf" 2> /dev/null | tail -1 > "$TMP/last"
	near "$(jq '.items["ball::link/pose"].z' "$TMP/last")" 0.6 0.002
	# the image the material names is never opened: a FIFO there is no wait
	mkfifo "$TMP/no such image.png"
	cp "$GEN/cube.gltf" "$TMP/ok.gltf"
	mesh "$TMP/ok.gltf"
	phys-step -t 1 -i ball::link/pose "$TMP/w.sdf" 2> /dev/null | tail -1 > "$TMP/last"
	near "$(jq '.items["ball::link/pose"].z' "$TMP/last")" 0.6 0.002
}

@test "only Collada, STL, OBJ and glTF, told by content: a PLY is refused under any name; a Collada file named .stl reads as Collada" {
	local f
	printf 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n' > "$TMP/t.ply"
	for f in t.ply t.stl t.dae t.obj; do
		[ "$f" = t.ply ] || cp "$TMP/t.ply" "$TMP/$f"
		mesh "$TMP/$f"
		want="mesh: $TMP/$f: not a Collada, STL, OBJ or glTF file, the mesh formats phys reads (recognised by their content)"
		refused phys-param get gravity "$TMP/w.sdf"
	done
	# content decides, not the name: the Collada cube (in centimetres,
	# turned by its node) still rests the ball on its top at 0.5 m
	cp "$GEN/cube.dae" "$TMP/cube.stl"
	mesh "$TMP/cube.stl"
	phys-step -t 1.5 -i ball::link/pose "$TMP/w.sdf" | tail -1 > "$TMP/last"
	near "$(jq '.items["ball::link/pose"].z' "$TMP/last")" 0.6 0.002
}

# ---- what is left after welding ----

@test "meshes whose triangles all collapse are refused under ODE and Bullet; NaN and infinite vertices too" {
	local p f
	printf 'v 1 1 1\nv 1 1 1\nv 1 1 1\nf 1 2 3\nf 3 2 1\n' > "$TMP/point.obj"
	printf 'v 0 0 0\nv 1e-50 0 0\nv 0 1e-50 0\nf 1 2 3\n' > "$TMP/tiny.obj"
	sed 's|<unit meter="0.01" name="cm"/>|<unit meter="0" name="none"/>|' "$GEN/cube.dae" > "$TMP/unit0.dae"
	sed 's|<translate>0 0 50</translate><rotate>0 0 1 90</rotate>|<matrix>0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1</matrix>|' "$GEN/cube.dae" > "$TMP/matrix0.dae"
	grep -q 'meter="0"' "$TMP/unit0.dae"
	grep -q '<matrix>' "$TMP/matrix0.dae"
	for f in point.obj tiny.obj unit0.dae matrix0.dae; do
		mesh "$TMP/$f"
		want="mesh: $TMP/$f: the mesh has no triangles (once triangles whose corners coincide are dropped)"
		for p in ode bullet; do
			refused phys-step -n 10 -p "$p" "$TMP/w.sdf"
		done
	done
	printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0 1 nan\nf 1 2 3\nf 1 2 4\nf 1 4 5\n' > "$TMP/nan.obj"
	printf 'v 0 0 0\nv 1 0 0\nv 0 1 1e39\nf 1 2 3\n' > "$TMP/inf.obj"
	for f in nan.obj inf.obj; do
		mesh "$TMP/$f"
		want="mesh: $TMP/$f: vertex * has a coordinate that is not a finite number (NaN or infinite)"
		for p in ode bullet; do
			refused phys-step -n 10 -p "$p" "$TMP/w.sdf"
		done
	done
	# a mesh whose every triangle lies on one line
	printf 'v 0 0 0\nv 1 0 0\nv 2 0 0\nv 3 0 0\nf 1 2 3\nf 2 3 4\n' > "$TMP/line.obj"
	mesh "$TMP/line.obj"
	want="mesh: $TMP/line.obj: no triangle of the mesh has an area: they all lie on one line"
	refused phys-step -n 10 -p bullet "$TMP/w.sdf"
}

# ---- Collada names ----

@test "a Collada submesh is found by its name, not assimp's ids; a missing one lists the names the mesh has" {
	local scene='<library_visual_scenes><visual_scene id="s"><node id="node-Wing" name="Wing"><instance_geometry url="#geom-Wing"/></node><node id="node-Body" name="Body"><translate>0 0 5</translate><instance_geometry url="#geom-Body"/></node></visual_scene></library_visual_scenes>'
	# two geometries: the wing a triangle at z = 0, the body one lifted 5 m
	collada "$TMP/plane.dae" "$scene"
	sed -i 's|<geometry id="g" name="g">|<geometry id="geom-Wing" name="WingShape">|' "$TMP/plane.dae"
	sed -i 's|</library_geometries>|<geometry id="geom-Body" name="BodyShape"><mesh><source id="q"><float_array id="qa" count="9">0 0 0 2 0 0 0 2 0</float_array><technique_common><accessor source="#qa" count="3" stride="3"><param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source><vertices id="w"><input semantic="POSITION" source="#q"/></vertices><triangles count="1"><input semantic="VERTEX" source="#w" offset="0"/><p>0 1 2</p></triangles></mesh></geometry></library_geometries>|' "$TMP/plane.dae"
	# by the node's name or the geometry's: the ball, dropped at (0.3,
	# 0.3), rests on the body's triangle 5 m up or on the wing's at 0
	for name in Body:5.1 BodyShape:5.1 Wing:0.1 WingShape:0.1; do
		mesh "$TMP/plane.dae" "${name%:*}"
		sed -i 's|<pose>0 0 3 0 0 0</pose>|<pose>0.3 0.3 7 0 0 0</pose>|' "$TMP/w.sdf"
		phys-step -t 1.5 -i ball::link/pose "$TMP/w.sdf" | tail -1 > "$TMP/last"
		near "$(jq '.items["ball::link/pose"].z' "$TMP/last")" "${name#*:}" 0.003
	done
	for name in node-Wing geom-Wing; do
		mesh "$TMP/plane.dae" "$name"
		want="mesh: $TMP/plane.dae: no submesh named '$name'; the mesh has 'Wing', 'WingShape', 'Body', 'BodyShape'"
		refused phys-param get gravity "$TMP/w.sdf"
	done
}

@test "a Collada file assimp refuses for a leading space in <color> is read anyway" {
	collada "$TMP/color.dae" '<library_effects><effect id="e"><profile_COMMON><technique sid="c"><phong><diffuse><color> 0.8 0.8 0.8 1</color></diffuse></phong></technique></profile_COMMON></effect></library_effects><library_materials><material id="m"><instance_effect url="#e"/></material></library_materials><library_visual_scenes><visual_scene id="s"><node id="n" name="N"><scale>10 10 1</scale><translate>-0.05 -0.05 1</translate><instance_geometry url="#g"><bind_material><technique_common><instance_material symbol="x" target="#m"/></technique_common></bind_material></instance_geometry></node></visual_scene></library_visual_scenes>'
	mesh "$TMP/color.dae"
	# the ball lands on the triangle, 1 m up
	sed -i 's|<pose>0 0 3 0 0 0</pose>|<pose>1 1 3 0 0 0</pose>|' "$TMP/w.sdf"
	phys-step -t 1.5 -i ball::link/pose "$TMP/w.sdf" | tail -1 > "$TMP/last"
	near "$(jq '.items["ball::link/pose"].z' "$TMP/last")" 1.1 0.002
}

# ---- terrain ----

heightmap() {
	drop_world "$TMP/w.sdf" "<heightmap><uri>$1</uri>${2:+<size>$2</size>}${3:+<pos>$3</pos>}</heightmap>"
}

@test "terrain with a NaN or 1e308 pixel size, elevations of +-1e308, a size or pos of 1e308: refused under ODE and Bullet" {
	local p
	for p in ode bullet; do
		heightmap "$GEN/nan_pixel.tif"
		want="heightmap: $GEN/nan_pixel.tif: its pixel size (*nan by *nan) makes an extent of *nan by *nan m; it must be above 0 and within 2.6e+08 m"
		refused phys-step -n 10 -p "$p" "$TMP/w.sdf"
		heightmap "$GEN/huge_pixel.tif"
		want="heightmap: $GEN/huge_pixel.tif: its pixel size (1e+308 by -1e+308) makes an extent of inf by inf m; it must be above 0 and within 2.6e+08 m"
		refused phys-step -n 10 -p "$p" "$TMP/w.sdf"
		heightmap "$GEN/huge_elev.tif"
		want="heightmap: $GEN/huge_elev.tif: its elevations run from -1e+308 to 1e+308, a range beyond any number"
		refused phys-step -n 10 -p "$p" "$TMP/w.sdf"
		heightmap "$GEN/bowl.tif" "1e308 1e308 1"
		want="<size>: 1e+308 is beyond the 2.6e+08 m a terrain may reach"
		refused phys-step -n 10 -p "$p" "$TMP/w.sdf"
		heightmap "$GEN/bowl.tif" "8 8 1" "0 0 1e308"
		want="<pos>: 1e+308 is beyond the 2.6e+08 m a terrain may reach"
		refused phys-step -n 10 -p "$p" "$TMP/w.sdf"
	done
	# the bowl itself, under both: the ball comes to rest on it
	for p in ode bullet; do
		heightmap "$GEN/bowl.tif" "8 8 1"
		phys-step -t 3 -p "$p" -i ball::link/pose "$TMP/w.sdf" | tail -1 > "$TMP/last"
		near "$(jq '.items["ball::link/pose"].z' "$TMP/last")" 0.1 0.01
	done
}

# terrains N FILE: a world of N collisions naming one heightmap file, on
# the ground (the first collision), not the ball.
terrains() {
	local i c=
	for i in $(seq "$1"); do
		c="$c<collision name=\"c$i\"><geometry><heightmap><uri>$2</uri></heightmap></geometry></collision>"
	done
	sed "0,/<collision name=\"c\"><geometry>/s||$c&|" "$TMP/one.sdf" > "$TMP/w.sdf"
}

@test "twelve collisions naming one 2049x2049 terrain of a kilobyte decode it once; the world's terrains share one budget" {
	local one twelve i c
	heightmap "$GEN/bowl.tif" "8 8 1"
	cp "$TMP/w.sdf" "$TMP/one.sdf"
	terrains 1 "$GEN/sparse.tif"
	one=$(max_rss_kb phys-step -q -n 1 "$TMP/w.sdf")
	[ ! -s "$TMP/err" ] || fail "$(cat "$TMP/err")"	# it ran
	terrains 12 "$GEN/sparse.tif"
	twelve=$(max_rss_kb phys-step -q -n 1 "$TMP/w.sdf")
	[ ! -s "$TMP/err" ] || fail "$(cat "$TMP/err")"
	# each decode would hold 2049^2 doubles (32 MB) more, as Bullet's
	# copy of the rows did
	[ "$twelve" -lt $((one + 20000)) ] || fail "one terrain: $one kB, twelve: $twelve kB"
	twelve=$(max_rss_kb phys-step -q -n 1 -p bullet "$TMP/w.sdf")
	[ ! -s "$TMP/err" ] || fail "$(cat "$TMP/err")"
	[ "$twelve" -lt $((one + 20000)) ] || fail "one terrain: $one kB, twelve under Bullet: $twelve kB"
	# the world's terrains share one budget of 2^25 samples: each of
	# eight files of 2049^2 samples is read and made into a terrain of its
	# samples; the eighth is one too many
	c=
	for i in 1 2 3 4 5 6 7 8; do
		cp "$GEN/sparse.tif" "$TMP/s$i.tif"
		c="$c<collision name=\"c$i\"><geometry><heightmap><uri>$TMP/s$i.tif</uri></heightmap></geometry></collision>"
	done
	sed "0,/<collision name=\"c\"><geometry>/s||$c&|" "$TMP/one.sdf" > "$TMP/w.sdf"
	run -1 --separate-stderr phys-step -n 1 "$TMP/w.sdf"
	[ "$stderr" = "phys-step: $TMP/w.sdf:5: heightmap: $TMP/s8.tif: the world's heightmaps would hold more than 33554432 samples (256 MB)" ]
}

@test "terrains past what the process's memory limit leaves are refused at the heightmap's line, under ODE and Bullet alike" {
	sanitized && skip "the sanitizer reserves more address space than the bound"
	local i c= p
	heightmap "$GEN/bowl.tif" "8 8 1"
	cp "$TMP/w.sdf" "$TMP/one.sdf"
	# seven files of 2049^2 samples, 235 MB together, within the
	# world's budget: within 300 MB of address space the loader ran out
	# of memory, saying only that
	for i in 1 2 3 4 5 6 7; do
		cp "$GEN/sparse.tif" "$TMP/s$i.tif"
		c="$c<collision name=\"c$i\"><geometry><heightmap><uri>$TMP/s$i.tif</uri></heightmap></geometry></collision>"
	done
	# (the ground's collision, not the ball's)
	sed "0,/<collision name=\"c\"><geometry>/s||$c&|" "$TMP/one.sdf" > "$TMP/w.sdf"
	for p in ode bullet; do
		run -1 --separate-stderr bash -c 'ulimit -v 307200 && exec phys-step -q -p "$1" -n 1 "$2"' _ "$p" "$TMP/w.sdf"
		[[ "$stderr" =~ ^phys-step:\ $TMP/w.sdf:5:\ heightmap:\ $TMP/s([2-7]).tif:\ its\ 4198401\ samples\ would\ take\ 33\ MB,\ more\ than\ the\ ([0-9]+)\ MB\ the\ process.s\ memory\ limit\ of\ 300\ MB\ leaves$ ]] ||
		    fail "$p: $stderr"
		[ "${BASH_REMATCH[2]}" -lt 33 ]
	done
	# without the limit, the world runs: the ball falls freely above
	# the flat terrains, g h^2 in one step
	run -0 phys-step -q -n 1 -i ball::link/pose "$TMP/w.sdf"
	near "$(tail -1 <<< "$output" | jq '.items["ball::link/pose"].z')" \
	    "$(awk 'BEGIN { printf "%.12f", 3 - 9.81e-6 }')" 1e-12
}

@test "a terrain of 4097x4097 samples from a file of kilobytes: ODE and Bullet run it, DART refuses it, each within 300 MB" {
	local e p rss
	heightmap "$GEN/sparse4097.tif" "100 100 2"
	# the samples once as the map's own (a copy besides took 325 MB,
	# Bullet's rows reversed 332 MB); the ball falls freely above the
	# flat terrain, g h^2 in one step
	for p in ode bullet; do
		/usr/bin/time -f %M -o "$TMP/rss" phys-step -p $p -n 1 \
		    -i ball::link/pose "$TMP/w.sdf" > "$TMP/out" ||
		    fail "$p: status $?"
		rss=$(tail -1 "$TMP/rss")
		[ "$rss" -lt 300000 ] || fail "$p: $rss kB"
		near "$(tail -1 "$TMP/out" | jq '.items["ball::link/pose"].z')" \
		    "$(awk 'BEGIN { printf "%.12f", 3 - 9.81e-6 }')" 1e-12
	done
	sed 's|<physics name="ode"|<physics name="dart" type="dart"><max_step_size>0.001</max_step_size></physics>&|' "$TMP/w.sdf" > "$TMP/d.sdf"
	rss=$(max_rss_kb phys-step -p dart -n 1 "$TMP/d.sdf")
	[ "$rss" -lt 300000 ] || fail "DART: $rss kB"
	grep -q "4097 x 4097 samples; the DART engine takes at most 131072" "$TMP/err" ||
	    fail "$(cat "$TMP/err")"
}

@test "a 245-byte TIFF of 65281 bands whose block GDAL would read whole (11 GB): refused before reading, little memory" {
	cp "$BATS_TEST_DIRNAME/../fuzz/regress/terrain/bands-11gb" "$TMP/t.tif"
	cat > "$TMP/w.sdf" <<-'EOF2'
	<?xml version="1.0"?>
	<sdf version="1.9">
	  <world name="w">
	    <model name="g"><static>true</static><link name="l">
	      <collision name="c"><geometry><heightmap><uri>t.tif</uri><size>10 10 1</size></heightmap></geometry></collision>
	    </link></model>
	  </world>
	</sdf>
	EOF2
	rss=$(max_rss_kb timeout 60 phys-param get gravity "$TMP/w.sdf")
	[ "$(cat "$TMP/err")" = "phys-param: $TMP/w.sdf:5: heightmap: $TMP/t.tif: its blocks of 21825x1 pixels in 65281 bands would take more than 256 MB to read" ]
	[ "$rss" -lt 204800 ] || fail "peak RSS $rss kB"
}
