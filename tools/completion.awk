# completion.awk - a bash completion script for one fftools program, made
# from its option table: the getopt_long call's short options and the
# `struct option longopts[]` entries of bin/PROG.c.
#   awk -v prog=ffbuild -f tools/completion.awk bin/ffbuild.c
# make install writes one per program to
# PREFIX/share/bash-completion/completions/PROG, where bash-completion
# loads it the first time PROG is completed.  The script offers the long
# options when the word begins with -, and file names otherwise and after
# an option that takes an argument.
/struct option longopts\[\] = \{/ { in_table = 1; next }
in_table && /^[ \t]*\};/ { in_table = 0; next }
in_table && match($0, /\{ *"[a-z0-9-]+", *(no|required|optional)_argument/) {
    entry = substr($0, RSTART, RLENGTH)
    name = entry
    sub(/^\{ *"/, "", name)
    sub(/".*/, "", name)
    long = long " --" name
    if (entry ~ /required_argument/)
        takes = takes "|--" name
    next
}
/getopt_long\(argc, argv, "/ {
    s = $0
    sub(/.*getopt_long\(argc, argv, "/, "", s)
    sub(/".*/, "", s)
    sub(/^:/, "", s)
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c == ":")
            continue
        if (substr(s, i + 1, 1) == ":")
            takes = takes "|-" c
    }
}
END {
    if (long == "") {
        print "completion.awk: no option table in " FILENAME > "/dev/stderr"
        exit 1
    }
    fn = "_" prog
    gsub(/-/, "_", fn)
    sub(/^\|/, "", takes)
    sub(/^ /, "", long)
    printf "# bash completion for %s, made from the option table of bin/%s.c\n", prog, prog
    printf "# by tools/completion.awk (make install).\n"
    printf "%s()\n{\n", fn
    printf "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
    if (takes != "") {
        printf "    case $prev in\n"
        printf "    %s)\n", takes
        printf "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
        printf "        return\n"
        printf "        ;;\n"
        printf "    esac\n"
    }
    printf "    case $cur in\n"
    printf "    -*) COMPREPLY=($(compgen -W '%s' -- \"$cur\")) ;;\n", long
    printf "    *) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
    printf "    esac\n"
    printf "}\n"
    printf "complete -o filenames -F %s %s\n", fn, prog
}
