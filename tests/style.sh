#!/bin/sh
# style.sh SOURCE_DIR - every tracked .c/.h file is formatted as the
# checked-in .clang-format says (clang-format --dry-run --Werror). Prints
# the files that drift and how to fix them.
cd "$1" || exit 1
command -v clang-format >/dev/null || { echo "SKIP: clang-format not installed"; exit 77; }
git rev-parse --git-dir >/dev/null 2>&1 || { echo "SKIP: not a git checkout"; exit 77; }
files=$(git ls-files '*.c' '*.h')
bad=
for f in $files; do
    clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad="$bad $f"
done
if [ -n "$bad" ]; then
    echo "not formatted (fix: clang-format -i FILE):$bad"
    exit 1
fi
echo "$(echo "$files" | wc -l) files formatted"
