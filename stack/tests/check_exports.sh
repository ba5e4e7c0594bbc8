#!/bin/sh
# check_exports.sh NM ARCHIVE — libmon's naming rule for exported symbols: fails, listing
# them, when ARCHIVE defines a global symbol whose name does not start with mon_ (or defines
# no mon_ symbol at all, which means the archive or nm is not what we think).
# Run by ctest (stack/CMakeLists.txt); stack/README.md "Exported names" says why.
nm=$1
lib=$2
syms=$("$nm" -g --defined-only "$lib") || { echo "$lib: $nm failed" >&2; exit 2; }
names=$(printf '%s\n' "$syms" | awk 'NF == 3 { print $3 }' | sort -u)
bad=$(printf '%s\n' "$names" | grep -v '^mon_')
good=$(printf '%s\n' "$names" | grep -c '^mon_')
if [ -n "$bad" ]; then
    echo "$lib: $(printf '%s\n' "$bad" | wc -l) global symbols without mon_:"
    printf '%s\n' "$bad" | sed 's/^/  /'
    exit 1
fi
if [ "$good" -eq 0 ]; then
    echo "$lib: no global mon_ symbol at all"
    exit 1
fi
echo "$lib: $good global symbols, all mon_"
