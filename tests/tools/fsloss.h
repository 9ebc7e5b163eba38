/*  fsloss.h - the power cut, after the fact: what the disk-fault tests
    (test_diskfault, zsink-fsloss) do with the journal fs.c keeps.
*/
#ifndef ZS_FSLOSS_H_INCLUDED
#define ZS_FSLOSS_H_INCLUDED

#include "fs.h"

//  After every process writing the journal is dead: drop what a power cut
//  would have dropped (bytes written after a file's last fsync; names
//  created, renamed or removed in a directory not fsynced since), then
//  remove the journal and its shadow directory. fsloss_lib.c says how.
typedef struct {
    int64_t lines;                                    //  journal lines read
    int64_t creates, renames, links, unlinks, mkdirs; //  name changes undone
    int64_t truncated, bytes_dropped;                 //  files cut back
} zs_fs_loss_t;
int zs_fs_lose_unsynced (const char *journal, zs_fs_loss_t *loss, char *err, size_t errlen);

#endif
