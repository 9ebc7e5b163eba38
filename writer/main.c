/*  zsink-writer - thin main: all logic is in writer.c (library zsink_writer). */
#include "writer.h"

int
main (int argc, char **argv)
{
    return zs_writer_main (argc, argv);
}
