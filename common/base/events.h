/*  events.h - a process's structured event log, for `zsink timeline`:
    one JSON object a line in <dir>/events-<name>.jsonl,

        {"t":1796326906913.512,"p":"writer-0","pid":123,"e":"barrier","id":7,…}

    t in milliseconds of wall clock (microsecond fraction), p the process's
    name, pid, e the event (barrier, ack, complete, notify, commit, compact,
    failure, reset, restore, …) and its fields. The coordinator writes into
    its job's checkpoint directory; the committer and the writers into the
    same directory when they can reach it (a shared file system), else
    nowhere. Appended with one write(2) a line, never fsynced: a picture of
    what happened, not state. `zsink cluster` writes events-cluster.jsonl:
    its children's ends ("exit": role, role_pid, and the signal or the exit
    status) and restarts ("spawn"), which no process can log of itself.
    At 4 MB a file is renamed to .1 (the one before is dropped), so a job
    that runs for weeks keeps at most 8 MB a process.
*/
#ifndef ZS_EVENTS_H_INCLUDED
#define ZS_EVENTS_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>

//  Start (or move) the log of this process: <dir>/events-<name>.jsonl.
//  A directory that does not exist leaves it off.
void zs_events_open (const char *dir, const char *name);
void zs_events_close (void);

//  True when this process's log is open (zs_events_open found its
//  directory): a process that opens it late (zsink cluster: the job's
//  directory is made by its coordinator) asks before trying again.
bool zs_events_on (void);

//  One event: fields is more JSON members without braces ("\"id\":7"), or
//  "" (printf-style). Nothing when the log is off.
void zs_event (const char *event, const char *fields, ...) __attribute__ ((format (printf, 2, 3)));

//  text as the inside of a JSON string (quotes, backslashes and control
//  characters escaped, cut to fit) in buf: for free text in fields.
const char *zs_event_str (const char *text, char *buf, size_t len);

#endif
