/*  zsink-fsloss - the power cut, after the fact (integration tests).

    usage: zsink-fsloss JOURNAL

    Once every process that ran with ZSINK_FS_JOURNAL=JOURNAL is dead, drops
    what the disk would have lost had the machine lost power at that moment:
    bytes written after a file's last fsync, and names created, renamed or
    removed in a directory that was not fsynced since (tests/tools/fsloss_lib.c).
    Then removes the journal. Prints what it undid; exit 0, 1 on error,
    2 on bad usage.
*/
#include "fs.h"
#include "fsloss.h"
#include <stdio.h>

int
main (int argc, char **argv)
{
    if (argc != 2) {
        fprintf (stderr, "usage: zsink-fsloss JOURNAL\n");
        return 2;
    }
    zs_fs_loss_t loss;
    char err[ZS_ERRLEN];
    if (zs_fs_lose_unsynced (argv[1], &loss, err, sizeof err) != 0) {
        fprintf (stderr, "zsink-fsloss: %s\n", err);
        return 1;
    }
    printf ("power cut: %lld journal lines; undone: %lld creates, %lld renames, %lld links, "
            "%lld unlinks, %lld mkdirs; %lld files cut back by %lld bytes\n",
            (long long) loss.lines, (long long) loss.creates, (long long) loss.renames,
            (long long) loss.links, (long long) loss.unlinks, (long long) loss.mkdirs,
            (long long) loss.truncated, (long long) loss.bytes_dropped);
    return 0;
}
