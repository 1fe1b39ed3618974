#!/bin/sh
# Bash completion: each program's script, made from its option table by
# tools/completion.awk (as make install makes it), offers exactly the long
# options that the program's --help lists, completes a prefix, and
# completes file names after an option that takes an argument.
. "$(dirname "$0")/lib.sh"
if ! command -v bash >/dev/null 2>&1; then
    echo "# no bash: completion not checked"
    finish
    exit
fi
mkdir -p "$TMP/files"
: >"$TMP/files/field.ff"
# complete PROG WORD...: the completions bash offers for the last WORD of
# the command line PROG WORD..., one a line, sorted.
complete_words() {
    bash -c '
        . "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        fn=$(complete -p "$1" | sed "s/.*-F \([^ ]*\) .*/\1/")
        "$fn"
        printf "%s\n" "${COMPREPLY[@]}" | sort' complete "$TMP/$1.bash" "$@"
}
for prog in ffbuild ffdir ffexport fffunnel ffinfo ffpng ffpull ffquery ffsim; do
    run "$prog: the script is made" 0 "awk -v prog=$prog -f tools/completion.awk bin/$prog.c > $TMP/$prog.bash"
    run "$prog: bash reads it" 0 "bash -n $TMP/$prog.bash"
    want=$("$BIN/$prog" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
    check "$prog: --help lists long options" -n "$want"
    got=$(complete_words "$prog" --)
    check "$prog: '--' offers the long options of --help" "$got" = "$want"
done
check "ffquery: '--ma' offers --map and --max-cells" "$(complete_words ffquery --ma | tr '\n' ' ')" = "--map --max-cells "
check "ffpng: '--no' offers --no-legend" "$(complete_words ffpng --no)" = "--no-legend"
check "ffbuild: after -o, file names" "$(cd "$TMP/files" && complete_words ffbuild -o fi)" = "field.ff"
check "ffbuild: after --goal-sets, file names" "$(cd "$TMP/files" && complete_words ffbuild --goal-sets fi)" = "field.ff"
check "ffdir: a word without a dash, file names" "$(cd "$TMP/files" && complete_words ffdir fi)" = "field.ff"
check "ffdir: after --text (no argument), options" "$(complete_words ffdir --text --ou)" = "--output"
finish
