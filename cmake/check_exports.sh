#!/bin/sh
# check_exports.sh NM ARCHIVE PREFIX... — the naming rule for a library's exported symbols:
# fails, listing them, when ARCHIVE defines a global symbol whose name starts with none of the
# PREFIXes (or defines no such symbol at all, which means the archive or nm is not what we
# think). Run by ctest for every library (cmake/OspreyExports.cmake); stack/README.md
# "Exported names" says why.
nm=$1
lib=$2
shift 2
[ $# -gt 0 ] || { echo "usage: $0 NM ARCHIVE PREFIX..." >&2; exit 2; }
re=""
for p in "$@"; do
    re="$re${re:+|}^$p"
done
want=$(echo "$*" | sed 's/ /, /g')
# the machine code's names: nm reads GCC's IR instead when the objects carry some (OSPREY_LTO)
# and its LTO plugin is installed, unless told the object format
fmt=$(objdump -f "$lib" 2>/dev/null | sed -n 's/.*file format //p' | head -n 1)
syms=$("$nm" ${fmt:+--target="$fmt"} -g --defined-only "$lib") || { echo "$lib: $nm failed" >&2; exit 2; }
# (GCC's LTO labels of a file's early debug information, `rule.c.1a2b3c4d`, are no C names)
names=$(printf '%s\n' "$syms" | awk 'NF == 3 { print $3 }' | grep -Ev '\.c\.[0-9a-f]+$' | sort -u)
bad=$(printf '%s\n' "$names" | grep -Ev "$re")
good=$(printf '%s\n' "$names" | grep -Ec "$re")
if [ -n "$bad" ]; then
    echo "$lib: $(printf '%s\n' "$bad" | wc -l) global symbols without $want:"
    printf '%s\n' "$bad" | sed 's/^/  /'
    exit 1
fi
if [ "$good" -eq 0 ]; then
    echo "$lib: no global $want symbol at all"
    exit 1
fi
echo "$lib: $good global symbols, all $want"
