# fish completion for phys-step, phys-preset, phys-param, phys-inertia,
# phys-introspect, phys-sdf and phys-sweep.
#
# Profile, parameter and item names come from the commands themselves, for
# the world file (*.sdf, *.world, *.urdf, MJCF *.xml) already on the command
# line; when a command is missing or fails, nothing is offered and
# nothing is printed.

# The first readable world file on the line, other than the current token.
function __phys_world
    set -l current (commandline -ct)
    for w in (commandline -o)[2..-1]
        set w (string trim -c '\'"' -- $w)
        set w (string replace -r '^~/' "$HOME/" -- $w)
        if test "$w" != "$current"; and string match -qr '\.(sdf|world|urdf|xml)$' -- $w
            if test -f "$w" -a -r "$w"
                echo $w
                return 0
            end
        end
    end
    return 1
end

# Run a phys command quietly; nothing when it is missing or fails.
function __phys_run
    type -q $argv[1]; or return 0
    command $argv </dev/null 2>/dev/null
end

function __phys_world_files
    __fish_complete_suffix .sdf
    __fish_complete_suffix .world
    __fish_complete_suffix .urdf
    __fish_complete_suffix .xml
end

function __phys_profiles
    set -l world (__phys_world); or return 0
    __phys_run phys-preset list -1 $world
end

# Parameter names: those of the world on the line, else the registry's
# names and aliases. With an argument, each name gets it as a suffix.
function __phys_params
    set -l suffix $argv[1]
    set -l world (__phys_world)
    begin
        if test -n "$world"
            __phys_run phys-param list $world |
                sed -n 's/^.*"name":"\([^"]*\)".*$/\1/p'
            __phys_run phys-param list |
                sed -n 's/^.*"alias":"\([^"]*\)","scope":"physics".*$/\1/p'
        else
            __phys_run phys-param list | sed -n -e h \
                -e 's/^{"name":"\([^"]*\)".*$/\1/p' -e g \
                -e 's/^.*,"alias":"\([^"]*\)".*$/\1/p'
        end
    end | awk -v s="$suffix" '!seen[$0]++ { print $0 s }'
end

function __phys_items
    set -l world (__phys_world); or return 0
    __phys_run phys-introspect items $world |
        sed -n 's/^.*"name":"\([^"]*\)".*$/\1/p'
end

# The run the line reads: the first -f FILE (--file), else diff's first
# operand.
function __phys_run_file
    set -l words (commandline -opc)
    set -l next 0
    for w in $words[2..-1]
        set w (string trim -c '\'"' -- $w)
        if test $next -eq 1
            echo $w
            return 0
        end
        switch $w
            case -f --file
                set next 1
            case '--file=*'
                string replace -- --file= '' $w
                return 0
        end
    end
    if contains -- diff $words
        set -l i (contains -i -- diff $words)
        set -l a $words[(math $i + 1)]
        if test -n "$a"
            string trim -c '\'"' -- $a
            return 0
        end
    end
    return 1
end

# Selectors: the items and fields of the run's first line, in line order.
function __phys_fields
    set -l file (__phys_run_file); or return 0
    test -f "$file" -a -r "$file"; or return 0
    type -q phys-introspect; or return 0
    head -n 1 -- $file 2>/dev/null |
        command phys-introspect filter --csv '*' 2>/dev/null | head -n 1 |
        tr ',' '\n' | sed 1d | awk '{ f[++n] = $0
            if (index($0, "/") && match($0, /\.[^.\/]*$/)) {
                it = substr($0, 1, RSTART - 1)
                if (!seen[it]++) i[++m] = it
            } }
            END { for (k = 1; k <= m; k++) print i[k]; for (k = 1; k <= n; k++) print f[k] }'
end

# The command's first operand (its subcommand), skipping options and the
# values of the options given as arguments.
function __phys_subcommand
    set -l skip 0
    for w in (commandline -opc)[2..-1]
        if test $skip -eq 1
            set skip 0
            continue
        end
        switch $w
            case '--*=*'
                continue
            case '-*'
                contains -- $w $argv; and set skip 1
                continue
        end
        echo $w
        return 0
    end
    return 1
end

# True when the subcommand is one of $argv (none given: when there is none).
function __phys_sub_is
    set -l cmd (commandline -opc)[1]
    set -l valued
    switch $cmd
        case phys-param
            set valued -p --preset -f --file
        case phys-preset
            set valued --copy --engine
        case phys-introspect
            set valued -f --file -o --output --every --from --rate --to \
                --window --tolerance --rel-tolerance --selection \
                --save-selection
        case phys-sweep
            set valued -c --control -e --every -i --items -j --jobs -k --top \
                -l --list -n --steps -o --output -p --preset -r --rate \
                -s --set -t --duration --dir --format --lhs --logscale \
                --random --save-as --script --seed --size --terminal --title
    end
    set -l sub (__phys_subcommand $valued)
    if test (count $argv) -eq 0
        test -z "$sub"
        return
    end
    contains -- "$sub" $argv
end

# Operands after the subcommand, before the current token, world files not
# counted.
function __phys_operands
    set -l n 0
    set -l seen 0
    set -l skip 0
    for w in (commandline -opc)[2..-1]
        if test $skip -eq 1
            set skip 0
            continue
        end
        switch $w
            case '--*=*' '*.sdf' '*.world' '*.urdf' '*.xml'
                continue
            case '--copy' '--engine'
                set skip 1
                continue
            case '-*'
                continue
        end
        if test $seen -eq 0
            set seen 1
        else
            set n (math $n + 1)
        end
    end
    echo $n
end

function __phys_operands_lt
    test (__phys_operands) -lt $argv[1]
end

# ---- phys-step ----

complete -c phys-step -f
complete -c phys-step -s c -l control -r -F -d 'Apply control lines from FILE at their times'
complete -c phys-step -s e -l every -x -d 'Write every Nth step'
complete -c phys-step -s i -l items -x -a '(__phys_items)' -d 'Items to write'
complete -c phys-step -s n -l steps -x -d 'Take N steps'
complete -c phys-step -s p -l preset -x -a '(__phys_profiles)' -d 'Start in physics profile NAME'
complete -c phys-step -s r -l rate -x -d 'Write at HZ samples per simulated second'
complete -c phys-step -s s -l set -x -a '(__phys_params =)' -d 'Override a parameter'
complete -c phys-step -s t -l duration -x -d 'Simulate SECONDS'
complete -c phys-step -l keyframe -x -d 'Start the models in their keyframe NAME'
complete -c phys-step -l lockstep -d 'After each state line, wait for one reply on -c'
complete -c phys-step -l realtime -d 'Pace the run by real_time_factor'
complete -c phys-step -l save-to -r -F -d 'World file that save control lines add profiles to'
complete -c phys-step -l skip-unsupported -d 'Skip unsupported collisions with a warning'
complete -c phys-step -l engines -x -a 'all ode bullet mujoco dart' -d 'Run under each engine of LIST and compare the runs'
complete -c phys-step -l tolerance -x -d 'Largest difference between engines that is none'
complete -c phys-step -l rel-tolerance -x -d 'Also allow R times the larger magnitude'
complete -c phys-step -l plot -r -F -d 'Plot the compared fields, a colour an engine, into FILE'
complete -c phys-step -l plot-fields -x -a '(__phys_items)' -d 'The fields to plot'
complete -c phys-step -l runs -x -a '(__fish_complete_directories)' -d "Keep each engine's state lines in DIR"
complete -c phys-step -s q -l quiet -d 'No warnings'
complete -c phys-step -s h -l help -d 'Show the help'
complete -c phys-step -s V -l version -d 'Show the version'
complete -c phys-step -k -a '(__phys_world_files)'

# ---- phys-preset ----

complete -c phys-preset -f
complete -c phys-preset -n '__phys_sub_is' -a list -d 'List the profiles'
complete -c phys-preset -n '__phys_sub_is' -a show -d 'Show one profile'
complete -c phys-preset -n '__phys_sub_is' -a use -d 'Make a profile the default'
complete -c phys-preset -n '__phys_sub_is' -a add -d 'Add a profile'
complete -c phys-preset -n '__phys_sub_is' -a remove -d 'Remove a profile'
complete -c phys-preset -n '__phys_sub_is' -a rename -d 'Rename a profile'
complete -c phys-preset -n '__phys_sub_is' -a export -d 'Write one profile'
complete -c phys-preset -n '__phys_sub_is' -a import -d 'Add a profile from a file'
complete -c phys-preset -n '__phys_sub_is' -a diff -d 'Compare two profiles'
complete -c phys-preset -n '__phys_sub_is list' -s 1 -d 'Bare profile names, one a line'
complete -c phys-preset -n '__phys_sub_is add' -l copy -x -a '(__phys_profiles)' -d 'Copy the new profile from PRESET'
complete -c phys-preset -n '__phys_sub_is add' -l engine -x -a 'ode bullet mujoco simbody dart' -d 'A profile for ENGINE'
complete -c phys-preset -n '__phys_sub_is use add remove rename import' -l in-place -d 'Replace WORLD'
complete -c phys-preset -s q -l quiet -d 'No warnings'
complete -c phys-preset -s h -l help -d 'Show the help'
complete -c phys-preset -n '__phys_sub_is' -s V -l version -d 'Show the version'
complete -c phys-preset -n '__phys_sub_is show use remove export rename; and __phys_operands_lt 1' -a '(__phys_profiles)' -d 'Profile'
complete -c phys-preset -n '__phys_sub_is diff; and __phys_operands_lt 2' -a '(__phys_profiles)' -d 'Profile'
complete -c phys-preset -n '__phys_sub_is add; and not __phys_operands_lt 1' -a '(__phys_params =)' -d 'Parameter'
complete -c phys-preset -n '__phys_sub_is import; and __phys_operands_lt 1' -F
complete -c phys-preset -n 'not __phys_sub_is' -k -a '(__phys_world_files)'

# ---- phys-param ----

complete -c phys-param -f
complete -c phys-param -n '__phys_sub_is' -a list -d 'The registry, or every parameter of a world'
complete -c phys-param -n '__phys_sub_is' -a get -d 'Parameter lines with the current values'
complete -c phys-param -n '__phys_sub_is' -a set -d 'The world with new values'
complete -c phys-param -n '__phys_sub_is' -a doc -d 'The registry as a manual page'
complete -c phys-param -n '__phys_sub_is list get' -s d -l doc -d 'Add units, default, range and doc'
complete -c phys-param -n '__phys_sub_is set' -s f -l file -r -F -d 'Read parameter lines to set'
complete -c phys-param -n '__phys_sub_is set' -l in-place -d 'Replace WORLD'
complete -c phys-param -n '__phys_sub_is get set' -s p -l preset -x -a '(__phys_profiles)' -d 'The physics profile'
complete -c phys-param -s q -l quiet -d 'No warnings'
complete -c phys-param -s h -l help -d 'Show the help'
complete -c phys-param -n '__phys_sub_is' -s V -l version -d 'Show the version'
complete -c phys-param -n '__phys_sub_is list get' -a '(__phys_params)' -d 'Parameter'
complete -c phys-param -n '__phys_sub_is set' -a '(__phys_params =)' -d 'Parameter'
complete -c phys-param -n '__phys_sub_is list get set' -k -a '(__phys_world_files)'

# ---- phys-inertia ----

set -l __phys_shapes box sphere cylinder capsule ellipsoid hollow-sphere hollow-cylinder
complete -c phys-inertia -f
complete -c phys-inertia -n '__fish_use_subcommand' -a box -d 'Inertia of a solid box X Y Z'
complete -c phys-inertia -n '__fish_use_subcommand' -a sphere -d 'Inertia of a solid sphere R'
complete -c phys-inertia -n '__fish_use_subcommand' -a cylinder -d 'Inertia of a solid cylinder R L along z'
complete -c phys-inertia -n '__fish_use_subcommand' -a capsule -d 'Inertia of a capsule R L along z'
complete -c phys-inertia -n '__fish_use_subcommand' -a ellipsoid -d 'Inertia of a solid ellipsoid A B C'
complete -c phys-inertia -n '__fish_use_subcommand' -a hollow-sphere -d 'Inertia of a thin spherical shell R'
complete -c phys-inertia -n '__fish_use_subcommand' -a hollow-cylinder -d 'Inertia of a thin tube R L along z'
complete -c phys-inertia -n '__fish_use_subcommand' -a principal -d 'Principal moments and axes'
complete -c phys-inertia -n '__fish_use_subcommand' -a box-equivalent -d 'The uniform box of the same inertia'
complete -c phys-inertia -n '__fish_use_subcommand' -a scale -d 'The inertia resized or of another mass'
complete -c phys-inertia -n '__fish_use_subcommand' -a check -d 'Check the inertias of a world'
complete -c phys-inertia -n '__fish_use_subcommand' -a fix -d 'Repair the inertias of a world'
complete -c phys-inertia -n '__fish_use_subcommand' -a show -d 'Draw shapes and boxes of equivalent inertia'
complete -c phys-inertia -s q -l quiet -d 'No warnings'
complete -c phys-inertia -s h -l help -d 'Show the help'
complete -c phys-inertia -n '__fish_use_subcommand' -s V -l version -d 'Show the version'
complete -c phys-inertia -n "__fish_seen_subcommand_from $__phys_shapes" -l density -x -d 'Density (kg/m^3; kg/m^2 for shells)'
complete -c phys-inertia -n "__fish_seen_subcommand_from $__phys_shapes principal box-equivalent scale" -l mass -x -d 'Mass (kg)'
for m in ixx ixy ixz iyy iyz izz
    complete -c phys-inertia -n '__fish_seen_subcommand_from principal box-equivalent' -l $m -x -d 'Tensor element (kg m^2)'
end
complete -c phys-inertia -n '__fish_seen_subcommand_from scale' -l density-factor -x -d 'Density times K'
complete -c phys-inertia -n '__fish_seen_subcommand_from scale' -l fixed-density -d 'Same density'
complete -c phys-inertia -n '__fish_seen_subcommand_from scale' -l mass-factor -x -d 'Mass times K'
complete -c phys-inertia -n '__fish_seen_subcommand_from scale' -l size-factor -x -d 'Resize by S or SX,SY,SZ'
complete -c phys-inertia -n '__fish_seen_subcommand_from principal box-equivalent scale' -F
complete -c phys-inertia -n '__fish_seen_subcommand_from check fix show' -k -a '(__phys_world_files)'
complete -c phys-inertia -n '__fish_seen_subcommand_from check' -l ratio -x -d 'Ratio across a joint worth a warning'
complete -c phys-inertia -n '__fish_seen_subcommand_from show' -s o -l output -r -F -d 'The image: FILE.png or FILE.svg'
complete -c phys-inertia -n '__fish_seen_subcommand_from show' -l ratio -x -d 'A box this many times off its shapes stands out'
complete -c phys-inertia -n '__fish_seen_subcommand_from show' -l script -r -F -d 'Write the gnuplot script instead'
complete -c phys-inertia -n '__fish_seen_subcommand_from fix' -l all -d 'Every selected link, valid or not'
complete -c phys-inertia -n '__fish_seen_subcommand_from fix' -l auto -d 'Write inertial auto="true" instead of numbers'
complete -c phys-inertia -n '__fish_seen_subcommand_from fix' -l density -x -d 'Density (kg/m^3)'
complete -c phys-inertia -n '__fish_seen_subcommand_from fix' -l keep-mass -d 'Keep each link mass'
complete -c phys-inertia -n '__fish_seen_subcommand_from fix' -l in-place -d 'Replace the world file'

# ---- phys-introspect ----

complete -c phys-introspect -f
complete -c phys-introspect -n '__phys_sub_is' -a items -d 'The plottable items of a world'
complete -c phys-introspect -n '__phys_sub_is' -a filter -d 'Choose items and fields of state lines'
complete -c phys-introspect -n '__phys_sub_is' -a derive -d 'Add fields computed from others'
complete -c phys-introspect -n '__phys_sub_is' -a at -d 'The values at a time'
complete -c phys-introspect -n '__phys_sub_is' -a delta -d 'The change between two times'
complete -c phys-introspect -n '__phys_sub_is' -a diff -d 'Compare two runs'
complete -c phys-introspect -n '__phys_sub_is' -a plot -d 'Plot fields over time'
complete -c phys-introspect -s q -l quiet -d 'No warnings'
complete -c phys-introspect -s h -l help -d 'Show the help'
complete -c phys-introspect -s V -l version -d 'Show the version'
complete -c phys-introspect -n '__phys_sub_is filter derive at delta' -l csv -d 'CSV with a header line'
complete -c phys-introspect -n '__phys_sub_is filter derive at delta' -l tsv -d 'Like --csv, with tabs'
complete -c phys-introspect -n '__phys_sub_is filter derive plot' -l every -x -d 'Keep the first line and every Nth after it'
complete -c phys-introspect -n '__phys_sub_is filter derive at delta plot' -s f -l file -r -F -d 'Read a run from FILE'
complete -c phys-introspect -n '__phys_sub_is filter derive plot' -l from -x -d 'Drop lines before sim time T'
complete -c phys-introspect -n '__phys_sub_is derive' -l keep -d 'Write the input items too'
complete -c phys-introspect -n '__phys_sub_is plot' -s o -l output -r -F -d 'Write FILE.png, FILE.svg or FILE.pdf'
complete -c phys-introspect -n '__phys_sub_is plot' -l background -x -d 'The image background'
complete -c phys-introspect -n '__phys_sub_is plot' -l color -x -d 'SELECTOR=COLOR: colour of the fields it matches'
complete -c phys-introspect -n '__phys_sub_is plot' -l format -x -a 'png svg pdf' -d 'The image format'
complete -c phys-introspect -n '__phys_sub_is plot' -l interval -x -d 'With --live: redraw at most this often'
complete -c phys-introspect -n '__phys_sub_is plot' -l live -d 'Redraw while lines come in'
complete -c phys-introspect -n '__phys_sub_is plot' -l logscale -x -a 'x y' -d 'A logarithmic axis'
complete -c phys-introspect -n '__phys_sub_is plot' -l script -r -F -d 'Write the gnuplot script to FILE'
complete -c phys-introspect -n '__phys_sub_is plot' -l size -x -d 'Image size WxH in pixels'
complete -c phys-introspect -n '__phys_sub_is plot' -l terminal -x -a 'text sixel window' -d 'Draw without -o as text, sixel or in a window'
complete -c phys-introspect -n '__phys_sub_is plot' -l title -x -d 'A title above the plot'
complete -c phys-introspect -n '__phys_sub_is plot' -l xmin -x -d 'Time axis start'
complete -c phys-introspect -n '__phys_sub_is plot' -l xmax -x -d 'Time axis end'
complete -c phys-introspect -n '__phys_sub_is plot' -l ymin -x -d 'Value axes start'
complete -c phys-introspect -n '__phys_sub_is plot' -l ymax -x -d 'Value axes end'
complete -c phys-introspect -n '__phys_sub_is filter derive plot' -l rate -x -d 'Keep a line each 1/HZ s of sim time'
complete -c phys-introspect -n '__phys_sub_is diff' -l rel-tolerance -x -d 'Also allow R times the larger magnitude'
complete -c phys-introspect -n '__phys_sub_is diff' -l series -d 'A - B at each time of A, as state lines'
complete -c phys-introspect -n 'not __phys_sub_is; and not __phys_sub_is items' -l save-selection -r -F -d 'Write the selectors to FILE'
complete -c phys-introspect -n 'not __phys_sub_is; and not __phys_sub_is items' -l selection -r -F -d 'Read selectors from FILE'
complete -c phys-introspect -n '__phys_sub_is filter derive plot' -l to -x -d 'Drop lines after sim time T'
complete -c phys-introspect -n '__phys_sub_is diff' -l tolerance -x -d 'Largest difference that is no change'
complete -c phys-introspect -n '__phys_sub_is filter derive plot' -l window -x -d 'Keep only the last N lines'
complete -c phys-introspect -n '__phys_sub_is items; and __phys_operands_lt 1' -k -a '(__phys_world_files)'
complete -c phys-introspect -n '__phys_sub_is diff; and __phys_operands_lt 2' -F
complete -c phys-introspect -n '__phys_sub_is filter derive plot' -k -a '(__phys_fields)'
complete -c phys-introspect -n '__phys_sub_is at; and not __phys_operands_lt 1' -k -a '(__phys_fields)'
complete -c phys-introspect -n '__phys_sub_is delta; and not __phys_operands_lt 2' -k -a '(__phys_fields)'
complete -c phys-introspect -n '__phys_sub_is diff; and not __phys_operands_lt 2' -k -a '(__phys_fields)'

# ---- phys-sdf ----

complete -c phys-sdf -f
complete -c phys-sdf -n '__phys_sub_is' -a check -d 'Report what is wrong with a world'
complete -c phys-sdf -n '__phys_sub_is' -a print -d 'Write the world whole, poses in one frame'
complete -c phys-sdf -n '__phys_sub_is' -a world -d 'Write a world that includes a model or URDF file'
complete -c phys-sdf -n '__phys_sub_is print' -l format -x -a 'sdf mjcf' -d 'The format written'
complete -c phys-sdf -n '__phys_sub_is world' -l ground -d "Add Gazebo's ground plane"
complete -c phys-sdf -n '__phys_sub_is world' -l pose -x -d 'Place the model at "X Y Z [ROLL PITCH YAW]"'
complete -c phys-sdf -n '__phys_sub_is world print' -s o -l output -r -F -d 'Write to FILE'
complete -c phys-sdf -s q -l quiet -d 'No warnings'
complete -c phys-sdf -s h -l help -d 'Show the help'
complete -c phys-sdf -s V -l version -d 'Show the version'
complete -c phys-sdf -n '__phys_sub_is check print world; and __phys_operands_lt 1' -k -a '(__phys_world_files)'

# ---- phys-sweep ----

complete -c phys-sweep -f
complete -c phys-sweep -n '__phys_sub_is' -a plan -d 'Expand a grid, a sample or a list into run lines'
complete -c phys-sweep -n '__phys_sub_is' -a run -d 'Run a plan on local workers, resuming'
complete -c phys-sweep -n '__phys_sub_is' -a run-one -d 'Run the runs of a plan with the given ids'
complete -c phys-sweep -n '__phys_sub_is' -a score -d 'Score each finished run'
complete -c phys-sweep -n '__phys_sub_is' -a best -d 'Rank scored runs, or save the best as a profile'
complete -c phys-sweep -n '__phys_sub_is' -a plot -d 'Plot the score against each swept parameter'
complete -c phys-sweep -s q -l quiet -d 'No warnings'
complete -c phys-sweep -s h -l help -d 'Show the help'
complete -c phys-sweep -n '__phys_sub_is' -s V -l version -d 'Show the version'
complete -c phys-sweep -n '__phys_sub_is plan' -s c -l control -r -F -d 'Control lines for every run'
complete -c phys-sweep -n '__phys_sub_is plan' -s e -l every -x -d 'Write every Nth step'
complete -c phys-sweep -n '__phys_sub_is plan' -s i -l items -x -a '(__phys_items)' -d 'Items to write'
complete -c phys-sweep -n '__phys_sub_is plan' -s l -l list -r -F -d 'Runs from a file of JSON objects'
complete -c phys-sweep -n '__phys_sub_is plan' -l lhs -x -d 'A Latin-hypercube sample of N runs'
complete -c phys-sweep -n '__phys_sub_is plan' -s n -l steps -x -d 'Steps of each run'
complete -c phys-sweep -n '__phys_sub_is plan' -s p -l preset -x -a '(__phys_profiles)' -d 'Starting profile'
complete -c phys-sweep -n '__phys_sub_is plan' -s r -l rate -x -d 'Samples per simulated second'
complete -c phys-sweep -n '__phys_sub_is plan' -l random -x -d 'N runs drawn uniformly'
complete -c phys-sweep -n '__phys_sub_is plan' -s s -l set -x -a '(__phys_params =)' -d 'One value of NAME for every run'
complete -c phys-sweep -n '__phys_sub_is plan' -l seed -x -d 'Seed of the sample'
complete -c phys-sweep -n '__phys_sub_is plan' -s t -l duration -x -d 'Simulated seconds'
complete -c phys-sweep -n '__phys_sub_is run' -s j -l jobs -x -d 'Runs at a time'
complete -c phys-sweep -n '__phys_sub_is run' -l stream -d 'Write every run on stdout too'
complete -c phys-sweep -n '__phys_sub_is run run-one score' -l dir -x -a '(__fish_complete_directories)' -d 'Where run states are'
complete -c phys-sweep -n '__phys_sub_is best' -s k -l top -x -d 'Print the N best runs'
complete -c phys-sweep -n '__phys_sub_is best plot' -l maximize -d 'A higher score is better'
complete -c phys-sweep -n '__phys_sub_is best' -l save-as -x -d 'Name of the new profile'
complete -c phys-sweep -n '__phys_sub_is best' -l in-place -d 'Replace the world'
complete -c phys-sweep -n '__phys_sub_is plot' -s o -l output -r -F -d 'The image: FILE.png, FILE.svg or FILE.pdf'
complete -c phys-sweep -n '__phys_sub_is plot' -l format -x -a 'png svg pdf' -d 'The image format'
complete -c phys-sweep -n '__phys_sub_is plot' -l logscale -x -a 'x y' -d 'A logarithmic axis'
complete -c phys-sweep -n '__phys_sub_is plot' -l script -r -F -d 'Write the gnuplot script to a file'
complete -c phys-sweep -n '__phys_sub_is plot' -l size -x -d 'Image size WxH in pixels'
complete -c phys-sweep -n '__phys_sub_is plot' -l terminal -x -a 'text sixel window' -d 'Draw as text, sixel or in a window'
complete -c phys-sweep -n '__phys_sub_is plot' -l title -x -d 'A title above the plot'
complete -c phys-sweep -n '__phys_sub_is plan; and __phys_operands_lt 1' -k -a '(__phys_world_files)'
complete -c phys-sweep -n '__phys_sub_is plan; and __phys_world >/dev/null' -a '(__phys_params =)'
complete -c phys-sweep -n '__phys_sub_is run run-one score best plot' -F
