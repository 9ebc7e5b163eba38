/*  zsink-coordinator - thin main: all logic is in coordinator.c (library zsink_coordinator). */
#include "coordinator.h"

int
main (int argc, char **argv)
{
    return zs_coordinator_main (argc, argv);
}
