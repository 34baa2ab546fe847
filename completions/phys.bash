# bash completion for phys-step, phys-preset, phys-param, phys-inertia,
# phys-introspect, phys-sdf and phys-sweep.
#
# Profile, parameter and item names come from the commands themselves, for
# the world file (*.sdf, *.world, *.urdf, MJCF *.xml) already on the command
# line; when a command is missing or fails, nothing is offered and
# nothing is printed.

# Words of the line up to the cursor, split at blanks only, so that
# "box::link/pose" and "iters=5" stay whole: sets _phys_words, _phys_cword,
# _phys_after (the words after the cursor), cur and prev. A word being
# completed inside quotes ('box5::link/p, as the manual pages quote
# selectors) is completed without its opening quote, which readline keeps
# (and closes), and whole: within quotes ':' and '=' break no word.
_phys_split()
{
	local line
	_phys_after=()
	if [[ -n ${COMP_LINE-} && -n ${COMP_POINT-} ]]; then
		line=${COMP_LINE:0:COMP_POINT}
		read -r -a _phys_words <<< "$line"
		if [[ ${#_phys_words[@]} -eq 0 || $line == *[[:blank:]] ]]; then
			_phys_words+=("")
		fi
		read -r -a _phys_after <<< "${COMP_LINE:COMP_POINT}"
		_phys_split_line=1
	else
		_phys_words=("${COMP_WORDS[@]}")
		if [[ ${#_phys_words[@]} -le ${COMP_CWORD:-0} ]]; then
			_phys_words+=("")
		fi
		_phys_after=("${_phys_words[@]:COMP_CWORD+1}")
		_phys_words=("${_phys_words[@]:0:COMP_CWORD+1}")
		_phys_split_line=0
	fi
	_phys_cword=$((${#_phys_words[@]} - 1))
	cur=${_phys_words[_phys_cword]}
	_phys_quoted=0
	if [[ $cur == [\'\"]* ]]; then
		_phys_quoted=1
		cur=${cur:1}
	fi
	prev=
	if [[ $_phys_cword -gt 0 ]]; then
		prev=${_phys_words[_phys_cword - 1]}
	fi
}

# The first readable world file named on the line, other than the word
# being completed.
_phys_world()
{
	local w
	for w in "${_phys_words[@]:1:_phys_cword-1}" "${_phys_after[@]}"; do
		w=${w//\"/}
		w=${w//\'/}
		# shellcheck disable=SC2088 # a literal ~/ typed on the line
		[[ $w == "~/"* ]] && w=$HOME/${w#\~/}
		case $w in
		*.sdf | *.world | *.urdf | *.xml)
			if [[ -f $w && -r $w ]]; then
				printf '%s\n' "$w"
				return 0
			fi
			;;
		esac
	done
	return 1
}

# Add the lines of standard input that start with $cur to COMPREPLY.
_phys_add()
{
	local c
	while IFS= read -r c; do
		[[ -n $c && $c == "$cur"* ]] && COMPREPLY+=("$c")
	done
	return 0
}

_phys_words_add()
{
	_phys_add < <(printf '%s\n' "$@")
}

# Run a phys command quietly; nothing when it is missing or fails.
_phys_run()
{
	command -v "$1" > /dev/null 2>&1 || return 0
	"$@" < /dev/null 2> /dev/null
}

_phys_profiles()
{
	local world
	world=$(_phys_world) || return 0
	_phys_add < <(_phys_run phys-preset list -1 "$world")
}

# Parameter names: those of the world on the line, else the registry's
# names and aliases. With an argument, each name gets it as a suffix.
_phys_param_names()
{
	local world
	if world=$(_phys_world); then
		_phys_run phys-param list "$world" |
		    sed -n 's/^.*"name":"\([^"]*\)".*$/\1/p'
		_phys_run phys-param list |
		    sed -n 's/^.*"alias":"\([^"]*\)","scope":"physics".*$/\1/p'
	else
		_phys_run phys-param list | sed -n -e h \
		    -e 's/^{"name":"\([^"]*\)".*$/\1/p' -e g \
		    -e 's/^.*,"alias":"\([^"]*\)".*$/\1/p'
	fi
}

_phys_params()
{
	_phys_add < <(_phys_param_names |
	    awk -v s="${1-}" '!seen[$0]++ { print $0 s }')
}

_phys_items()
{
	local world
	world=$(_phys_world) || return 0
	_phys_add < <(_phys_run phys-introspect items "$world" |
	    sed -n 's/^.*"name":"\([^"]*\)".*$/\1/p')
}

# The fields (ITEM.FIELD) and items of the state lines of file $1, from
# its first line, in line order; nothing when it cannot be read.
_phys_fields_of()
{
	command -v phys-introspect > /dev/null 2>&1 || return 0
	[[ -f $1 && -r $1 ]] || return 0
	head -n 1 -- "$1" 2> /dev/null |
	    phys-introspect filter --csv '*' 2> /dev/null | head -n 1 |
	    tr ',' '\n' | sed 1d | awk '{ f[++n] = $0
		if (index($0, "/") && match($0, /\.[^.\/]*$/)) {
			it = substr($0, 1, RSTART - 1)
			if (!seen[it]++) i[++m] = it
		} }
		END { for (k = 1; k <= m; k++) print i[k]; for (k = 1; k <= n; k++) print f[k] }'
}

# The run the line reads: the first -f FILE (--file), else diff's first
# operand.
_phys_run_file()
{
	local i w next=0
	for ((i = 1; i < _phys_cword; i++)); do
		w=${_phys_words[i]}
		w=${w//\"/}
		w=${w//\'/}
		if ((next)); then
			printf '%s\n' "$w"
			return 0
		fi
		case $w in
		-f | --file) next=1 ;;
		--file=*) printf '%s\n' "${w#--file=}"; return 0 ;;
		-f?*) printf '%s\n' "${w#-f}"; return 0 ;;
		esac
	done
	if [[ $_phys_sub == diff ]] && ((_phys_subi + 1 < _phys_cword)); then
		w=${_phys_words[_phys_subi + 1]}
		w=${w//\"/}
		printf '%s\n' "${w//\'/}"
		return 0
	fi
	return 1
}

# Selectors: the fields and items of the run on the line.
_phys_fields()
{
	local f
	f=$(_phys_run_file) || return 0
	_phys_add < <(_phys_fields_of "$f")
}

# Files: world, model and robot files (*.sdf, *.world, *.urdf, MJCF *.xml)
# with "world", any file otherwise;
# directories always.
_phys_files()
{
	local f
	compopt -o filenames 2> /dev/null
	while IFS= read -r f; do
		if [[ -d $f ]]; then
			COMPREPLY+=("$f")
		elif [[ $1 != world || $f == *.sdf || $f == *.world ||
		    $f == *.urdf || $f == *.xml ]]; then
			COMPREPLY+=("$f")
		fi
	done < <(compgen -f -- "$cur" 2> /dev/null)
	return 0
}

# The first operand after the command name, skipping options and the
# values of the options in $1 (a |-separated list); sets _phys_sub and
# _phys_subi (0 when there is none yet).
_phys_subcommand()
{
	local i w skip=0
	_phys_sub='' _phys_subi=0
	for ((i = 1; i < _phys_cword; i++)); do
		w=${_phys_words[i]}
		if ((skip)); then
			skip=0
			continue
		fi
		case $w in
		--*=*) continue ;;
		-*)
			[[ "|$1|" == *"|$w|"* ]] && skip=1
			continue
			;;
		esac
		_phys_sub=$w _phys_subi=$i
		return 0
	done
	return 0
}

# With --opt=value, complete the value as for "--opt value".
_phys_long_value()
{
	local opt=${cur%%=*} save=$cur n
	[[ $cur == --*=* ]] || return 1
	cur=${cur#*=}
	n=${#COMPREPLY[@]}
	"$@" "$opt"
	local i
	for ((i = n; i < ${#COMPREPLY[@]}; i++)); do
		COMPREPLY[i]=$opt=${COMPREPLY[i]}
	done
	cur=$save
	return 0
}

# Bash completes only the part of a word after its last COMP_WORDBREAKS
# character (':' and '=' among them): cut that much from each candidate.
_phys_trim()
{
	local k pre='' i
	((_phys_split_line && !_phys_quoted)) || return 0
	for ((k = ${#cur} - 1; k >= 0; k--)); do
		if [[ ${COMP_WORDBREAKS-} == *"${cur:k:1}"* ]]; then
			pre=${cur:0:k+1}
			break
		fi
	done
	[[ -n $pre ]] || return 0
	for i in "${!COMPREPLY[@]}"; do
		COMPREPLY[i]=${COMPREPLY[i]#"$pre"}
	done
}

_phys_nospace_if_eq()
{
	local c
	for c in "${COMPREPLY[@]}"; do
		if [[ $c == *= ]]; then
			compopt -o nospace 2> /dev/null
			return 0
		fi
	done
	return 0
}

# ---- phys-step ----

_phys_step_value()
{
	case $1 in
	-c | --control) _phys_files any ;;
	--save-to) _phys_files world ;;
	--plot) _phys_files any ;;
	--plot-fields) _phys_items ;;
	--runs) compopt -o filenames 2> /dev/null
		_phys_add < <(compgen -d -- "$cur" 2> /dev/null) ;;
	--engines) _phys_words_add all ode bullet mujoco dart ;;
	-p | --preset) _phys_profiles ;;
	-i | --items) _phys_items ;;
	-s | --set) [[ $cur == *=* ]] || _phys_params '=' ;;
	--keyframe) ;;	# a name in the model
	esac
}

_phys_step()
{
	case $prev in
	-c | --control | -p | --preset | -i | --items | -s | --set | --save-to | \
	    --plot | --plot-fields | --runs | --engines | --keyframe)
		_phys_step_value "$prev"
		return
		;;
	-e | --every | -n | --steps | -r | --rate | -t | --duration | \
	    --tolerance | --rel-tolerance)
		return
		;;
	esac
	_phys_long_value _phys_step_value && return
	if [[ $cur == -* ]]; then
		_phys_words_add -c --control -e --every -i --items -n --steps \
		    -p --preset -r --rate -s --set -t --duration --keyframe \
		    --lockstep \
		    --realtime --save-to --skip-unsupported --engines \
		    --tolerance --rel-tolerance --plot --plot-fields --runs -q \
		    --quiet --help --version
		return
	fi
	_phys_files world
}

# ---- phys-preset ----

# How many operands precede the word being completed, after the command,
# not counting world files.
_phys_operand_index()
{
	local i n=0 skip=0 w
	for ((i = _phys_subi + 1; i < _phys_cword; i++)); do
		w=${_phys_words[i]}
		if ((skip)); then
			skip=0
			continue
		fi
		case $w in
		--*=* | *.sdf | *.world | *.urdf | *.xml) ;;
		-*) [[ "|$1|" == *"|$w|"* ]] && skip=1 ;;
		*) n=$((n + 1)) ;;
		esac
	done
	printf '%s\n' "$n"
}

_phys_preset()
{
	local n
	case $prev in
	--copy)
		_phys_profiles
		return
		;;
	--engine)
		_phys_words_add ode bullet mujoco simbody dart
		return
		;;
	esac
	if [[ $cur == --copy=* ]]; then
		_phys_long_value _phys_profiles
		return
	fi
	_phys_subcommand '--copy|--engine'
	if [[ $cur == -* ]]; then
		case $_phys_sub in
		'') _phys_words_add --help --version ;;
		list) _phys_words_add -1 ;;
		add) _phys_words_add --in-place --engine --copy ;;
		use | remove | rename | import)
			_phys_words_add --in-place ;;
		esac
		_phys_words_add -q --quiet --help
		return
	fi
	n=$(_phys_operand_index '--copy|--engine')
	case $_phys_sub in
	'')
		_phys_words_add list show use add remove rename export \
		    import diff
		;;
	list) _phys_files world ;;
	show | use | remove | export)
		((n == 0)) && _phys_profiles
		_phys_files world
		;;
	rename)
		((n == 0)) && _phys_profiles
		((n != 1)) && _phys_files world
		;;
	diff)
		((n < 2)) && _phys_profiles
		_phys_files world
		;;
	add)
		if ((n > 0)) && [[ $cur != *=* ]]; then
			_phys_params '='
			_phys_files world
		fi
		;;
	import)
		if ((n == 0)); then
			_phys_files any
		else
			_phys_files world
		fi
		;;
	esac
}

# ---- phys-param ----

_phys_param_value()
{
	case $1 in
	-p | --preset) _phys_profiles ;;
	-f | --file) _phys_files any ;;
	esac
}

_phys_param()
{
	case $prev in
	-p | --preset | -f | --file)
		_phys_param_value "$prev"
		return
		;;
	esac
	_phys_long_value _phys_param_value && return
	_phys_subcommand '-p|--preset|-f|--file'
	if [[ $cur == -* ]]; then
		case $_phys_sub in
		list) _phys_words_add -d --doc ;;
		get) _phys_words_add -d --doc -p --preset ;;
		set) _phys_words_add --in-place -p --preset -f --file ;;
		doc) ;;
		*) _phys_words_add -d --doc -f --file --in-place -p \
		    --preset --version ;;
		esac
		_phys_words_add -q --quiet --help
		return
	fi
	case $_phys_sub in
	'') _phys_words_add list get set doc ;;
	list)
		if _phys_world > /dev/null; then
			_phys_params
		else
			[[ -n $cur ]] && _phys_params
			_phys_files world
		fi
		;;
	get)
		_phys_params
		_phys_files world
		;;
	set)
		if [[ $cur != *=* ]]; then
			_phys_params '='
			_phys_files world
		fi
		;;
	esac
}

# ---- phys-inertia ----

_phys_inertia()
{
	local shapes=(box sphere cylinder capsule ellipsoid hollow-sphere
	    hollow-cylinder)
	case $prev in
	--density | --mass | --density-factor | --mass-factor | --size-factor | --ratio | \
	    --ixx | --ixy | --ixz | --iyy | --iyz | --izz)
		return
		;;
	-o | --output | --script)
		_phys_files any
		return
		;;
	esac
	if [[ $_phys_cword -eq 1 ]]; then
		if [[ $cur == -* ]]; then
			_phys_words_add -q --quiet --help --version
		else
			_phys_words_add "${shapes[@]}" principal box-equivalent scale \
			    check fix show
		fi
		return
	fi
	case ${_phys_words[1]} in
	box | sphere | cylinder | capsule | ellipsoid | hollow-sphere | \
	    hollow-cylinder)
		[[ $cur == -* ]] && _phys_words_add --density --mass -q --quiet --help
		;;
	principal | box-equivalent)
		if [[ $cur == -* ]]; then
			_phys_words_add --ixx --ixy --ixz --iyy --iyz --izz \
			    --mass -q --quiet --help
		else
			_phys_files any
		fi
		;;
	scale)
		if [[ $cur == -* ]]; then
			_phys_words_add --density-factor --fixed-density --mass \
			    --mass-factor --size-factor -q --quiet --help
		else
			_phys_files any
		fi
		;;
	check | fix | show)
		if [[ $cur == -* ]]; then
			_phys_words_add -q --quiet --help
			if [[ ${_phys_words[1]} == check ]]; then
				_phys_words_add --ratio
			elif [[ ${_phys_words[1]} == show ]]; then
				_phys_words_add -o --output --ratio --script
			else
				_phys_words_add --all --auto --density --keep-mass \
				    --in-place
			fi
		else
			_phys_files world
		fi
		;;
	esac
}

# ---- phys-introspect ----

_phys_introspect()
{
	local valued='-f|--file|-o|--output|--every|--from|--rate|--to|--window|--tolerance|--rel-tolerance|--selection|--save-selection|--background|--color|--format|--interval|--logscale|--script|--size|--terminal|--title|--xmin|--xmax|--ymin|--ymax'
	case $prev in
	-f | --file | -o | --output | --selection | --save-selection | --script)
		_phys_files any
		return
		;;
	--format)
		_phys_words_add png svg pdf
		return
		;;
	--logscale)
		_phys_words_add x y
		return
		;;
	--terminal)
		_phys_words_add text sixel window
		return
		;;
	--every | --from | --rate | --to | --window | --tolerance | \
	    --rel-tolerance | --background | --color | --interval | --size | \
	    --title | --xmin | --xmax | --ymin | --ymax)
		return
		;;
	esac
	case $cur in
	--file=* | --output=* | --selection=* | --save-selection=* | --script=*)
		_phys_long_value _phys_files any
		return
		;;
	esac
	_phys_subcommand "$valued"
	if [[ $cur == -* ]]; then
		local sel=(--selection --save-selection)
		local samp=(--every --from --rate --to --window)
		case $_phys_sub in
		filter) _phys_words_add -f --file --csv --tsv "${samp[@]}" "${sel[@]}" ;;
		derive) _phys_words_add -f --file --csv --tsv --keep "${samp[@]}" \
		    "${sel[@]}" ;;
		at | delta) _phys_words_add -f --file --csv --tsv "${sel[@]}" ;;
		diff) _phys_words_add --tolerance --rel-tolerance --series \
		    "${sel[@]}" ;;
		plot) _phys_words_add -f --file -o --output "${samp[@]}" "${sel[@]}" \
		    --live --interval --xmin --xmax --ymin --ymax --title --size \
		    --logscale --color --format --background --script \
		    --terminal ;;
		items) ;;
		*) _phys_words_add -V --version ;;
		esac
		_phys_words_add -q --quiet -h --help
		return
	fi
	case $_phys_sub in
	'') _phys_words_add items filter derive at delta diff plot ;;
	items) ((_phys_cword == _phys_subi + 1)) && _phys_files world ;;
	diff)
		if ((_phys_cword <= _phys_subi + 2)); then
			_phys_files any
		else
			_phys_fields
		fi
		;;
	filter | derive | plot) [[ $cur == *=* ]] || _phys_fields ;;
	at) ((_phys_cword > _phys_subi + 1)) && _phys_fields ;;
	delta) ((_phys_cword > _phys_subi + 2)) && _phys_fields ;;
	esac
}

# ---- phys-sdf ----

_phys_sdf()
{
	_phys_subcommand '-o|--output|--pose|--format'
	case $prev in
	-o | --output) _phys_files world; return ;;
	--pose) return ;;
	--format) _phys_words_add sdf mjcf; return ;;
	esac
	if [[ $cur == -* ]]; then
		_phys_words_add -q --quiet --help --version
		[[ $_phys_sub == world ]] && _phys_words_add --ground --pose -o \
		    --output
		[[ $_phys_sub == print ]] && _phys_words_add --format -o \
		    --output
		return
	fi
	case $_phys_sub in
	'') _phys_words_add check print world ;;
	check | print) ((_phys_cword == _phys_subi + 1)) && _phys_files world ;;
	world) _phys_files world ;;
	esac
}

# ---- phys-sweep ----

_phys_sweep()
{
	local valued='-c|--control|-e|--every|-i|--items|-j|--jobs|-k|--top|-l|--list|-n|--steps|-o|--output|-p|--preset|-r|--rate|-s|--set|-t|--duration|--dir|--format|--lhs|--logscale|--random|--save-as|--script|--seed|--size|--terminal|--title'
	_phys_subcommand "$valued"
	case $prev in
	-c | --control | -l | --list | -o | --output | --script | --dir) _phys_files any; return ;;
	-e | --every | -j | --jobs | -k | --top | -n | --steps | -r | --rate | -t | --duration | --lhs | --random | --save-as | --seed | --size | --title) return ;;
	-i | --items) _phys_items; return ;;
	-s | --set) [[ $cur == *=* ]] || _phys_params '='; return ;;
	-p | --preset) _phys_profiles; return ;;
	--format) _phys_words_add png svg pdf; return ;;
	--logscale) _phys_words_add x y; return ;;
	--terminal) _phys_words_add text sixel window; return ;;
	esac
	if [[ $cur == -* ]]; then
		case $_phys_sub in
		plan) _phys_words_add -c --control -e --every -i --items -l --list --lhs -n --steps -p --preset -r --rate --random -s --set --seed -t --duration ;;
		run) _phys_words_add -j --jobs --dir --stream ;;
		run-one | score) _phys_words_add --dir ;;
		best) _phys_words_add -k --top --maximize --save-as --in-place ;;
		plot) _phys_words_add -o --output --format --logscale --maximize --script --size --terminal --title ;;
		'') _phys_words_add -V --version ;;
		esac
		_phys_words_add -q --quiet --help
		return
	fi
	case $_phys_sub in
	'') _phys_words_add plan run run-one score best plot ;;
	plan)
		if ((_phys_cword == _phys_subi + 1)); then
			_phys_files world
		elif [[ $cur != *=* ]]; then
			# NAME=VALUES after the world: its parameters
			_phys_params '='
		fi
		;;
	*) _phys_files any ;;
	esac
}

_phys()
{
	local cur prev _phys_words _phys_cword _phys_after _phys_split_line
	local _phys_sub _phys_subi _phys_quoted
	COMPREPLY=()
	_phys_split
	case ${_phys_words[0]##*/} in
	phys-step) _phys_step ;;
	phys-preset) _phys_preset ;;
	phys-param) _phys_param ;;
	phys-inertia) _phys_inertia ;;
	phys-introspect) _phys_introspect ;;
	phys-sdf) _phys_sdf ;;
	phys-sweep) _phys_sweep ;;
	esac
	_phys_nospace_if_eq
	_phys_trim
	return 0
}

complete -F _phys phys-step phys-preset phys-param phys-inertia phys-introspect phys-sdf phys-sweep
