/*  zsink-committer - thin main: all logic is in committer.c (library zsink_committer). */
#include "committer.h"

int
main (int argc, char **argv)
{
    return zs_committer_main (argc, argv);
}
