/*  zsink.pml - a Promela model of zsink's two-phase commit (the one of
    Apache Paimon's Flink sink), checked with spin 6.5 by check.sh.
    docs/protocol.md is the protocol modelled (shared/DESIGN.md its
    design); README.md here says what is modelled, what is abstracted away
    and why, and the figures measured.  Message and step names in comments
    are the protocol's: Barrier, Committable, BarrierMarker, WriterAck,
    CommitterAck, chk-N, Notify, Reset, Ready, Start, EndOfInput, Finished,
    Committed, Failure, filterCommitted.

    Cast (one proctype each):
      Coordinator  zsink-coordinator: triggers Barrier(N), collects the N+1
                   acks, writes chk-N (source positions + committer state),
                   sends Notify(N); the job ends on Committed(INT64_MAX).
      Writer(w)    zsink-writer w (w = 0, 1): reads its split of ROWS rows;
                   on Barrier(N): Committable(N, files) + BarrierMarker(N)
                   to the committer, then WriterAck(N, position).
      Committer    zsink-committer: keeps committables by checkpoint id,
                   sends CommitterAck(N, state), commits every pending
                   id <= N on Notify(N), re-commits on Reset.
      Faults       a crash of any process at any step.  The whole job is
                   one failover region, so any crash (or Failure) is a
                   failover: everything restarts from the last completed
                   checkpoint; what is durable (table, chk-N, the
                   checkpoint counter) survives, nothing else does.

    BOUNDS (defaults; each can be changed with -D on the spin command line)
      NW = 2 writers, ROWS = 2 rows each: 4 rows, one bit each
      MAXREG   = 1  regular checkpoint (id 1), triggered at any time; after
                    it only final checkpoints, once every writer has
                    finished (ids up to MAXID)
      MAXCRASH = 2  crashes, each of any process at any step: also during
                    a restore and between two snapshots of one commit or
                    re-commit (so a crash during the re-commit of a crash)
      MAXLOSS  = 1  Notify lost
      MAXABORT = 1  checkpoint expired and tolerated (tolerable-failed-
                    checkpoints > 0): aborted without a failover
      MAXID    = MAXREG + 1 + MAXCRASH + MAXLOSS + MAXABORT checkpoint ids:
                    room for the final checkpoint to be retried after every
                    fault (were it too small, the job could not end and
                    spin would report an invalid end state)
    check.sh also verifies MAXREG=2 MAXCRASH=2 MAXLOSS=1 MAXABORT=0 and
    the FINISHING_TRIGGERS variant with MAXCRASH=1 MAXABORT=0.
    The search is exhaustive for these bounds: pan runs without bitstate
    or hash-compact (-DCOLLAPSE is lossless), with a depth limit that is
    never reached, and check.sh requires "errors: 0"; a -DNP run shows that
    no execution cycles, so every execution reaches an end state, and the
    safety run shows every end state is valid: the job FINISHED, where P1
    is asserted.

    PROPERTIES (assertions)
      P1  no row is ever in the table twice (checked at every snapshot);
          when the job ends every row is in the table: exactly once.
      P2  along the table's snapshot sequence, the identifiers of a commit
          user strictly increase (checked at every snapshot).
      and some protocol facts: the CommitterAck payload is the state of
      the checkpoint acked; a commit refused because the user has already
      committed INT64_MAX only happens after Committed(INT64_MAX) is sent;
      channel capacities are never exceeded.

    MUTANTS (-D on the spin command line), each must give a counterexample
      NO_FILTER      the re-commit after a Reset skips filterCommitted
      COMMIT_EARLY   the committer commits checkpoint N as soon as it has
                     sent CommitterAck(N), before chk-N is complete
      COMMIT_ONLY_N  Notify(N) commits checkpoint N only, not every pending
                     id <= N (wrong once a Notify is lost)
    and a variant of the real protocol:
      FINISHING_TRIGGERS  the coordinator keeps triggering checkpoints after
                     the final one until Committed(INT64_MAX) arrives, as
                     the real one does (see MORE_CHECKPOINTS)
*/

/* ---- bounds ------------------------------------------------------------ */
#ifndef MAXREG
#define MAXREG   1
#endif
#ifndef MAXCRASH
#define MAXCRASH 2
#endif
#ifndef MAXLOSS
#define MAXLOSS  1
#endif
#ifndef MAXABORT
#define MAXABORT 1
#endif

#define NW       2                  /* writers (parallelism) */
#define ROWS     2                  /* rows per writer */
#define ALLROWS  15                 /* every row: (1 << NW*ROWS) - 1 */
#define ROW(w,k) (1 << ((w) * ROWS + (k)))
#define MAXID    (MAXREG + 1 + MAXCRASH + MAXLOSS + MAXABORT)
#define END      (MAXID + 1)        /* the identifier INT64_MAX */
#define NIDS     (MAXID + 1)        /* checkpoint ids 1..MAXID (0 unused) */
#define NOTENDED 255                /* ended_at = -1 in committer.c */
#define NUSERS   1                  /* commit users writing to the table */
#define USER     0                  /* the job's commit user */

/* ---- mutants and variants ---------------------------------------------- */
#ifdef NO_FILTER
#define RECOMMIT_FILTERS false
#else
#define RECOMMIT_FILTERS true
#endif

/* The real coordinator keeps triggering checkpoints in FINISHING until
   Committed(INT64_MAX) arrives.  Once the Notify of a checkpoint in which
   every writer had finished has been sent, another checkpoint holds no
   rows, and its commit after INT64_MAX is refused (ZS_EFINISHED): a
   Failure the coordinator never acts on, as it has read Committed(
   INT64_MAX) first (commitFailed asserts this).  By default the model
   stops triggering at that point (a state-space cut);
   -DFINISHING_TRIGGERS keeps the real behaviour. */
#ifdef FINISHING_TRIGGERS
#define MORE_CHECKPOINTS true
#else
#define MORE_CHECKPOINTS (!finalNotified)
#endif

/* ---- job states (coordinator; docs/protocol.md "Job states") ------------ */
#define RUNNING   1     /* RUNNING, FINISHING */
#define RESTORING 2     /* Reset sent, waiting for the committer's Ready */
#define FINISHED  3
#define FAILING   4     /* a process died in the middle of a step, or the
                           coordinator got a Failure: the failover comes
                           next (Faults does it; nothing else moves) */

/* ---- messages ------------------------------------------------------------ */
mtype = {
    COMMITTABLE,    /* data pipe  Committable(N, files): files = their rows */
    MARKER,         /* data pipe  BarrierMarker(N, count)                   */
    EOI,            /* data pipe  EndOfInput(count)                         */
    WACK,           /* control    WriterAck(N, position)                    */
    WFINISHED,      /* control    Finished(position)                        */
    CACK,           /* control    CommitterAck(N, state)                    */
    COMMITTED,      /* control    Committed(INT64_MAX)                      */
    FAILURE         /* control    Failure(reason), from the committer       */
};

/* One FIFO channel per ZeroMQ pipe (ZeroMQ keeps order within a pipe,
   not across pipes, so messages of different senders may overtake each
   other).  Capacities are asserted before every send. */
chan barrier[NW] = [3] of { byte };                   /* Barrier(N): coordinator -> writer w */
chan data[NW]    = [6] of { mtype, byte, byte };      /* writer w -> committer: kind, N, rows */
chan wctl[NW]    = [3] of { mtype, byte, byte, bool };/* writer w -> coordinator: kind, N, position, finished */
chan cctl        = [4] of { mtype, byte };            /* committer -> coordinator: kind, N (the
                                                         CommitterAck state travels in ackBuf) */
chan notify      = [NIDS] of { byte };                /* Notify(N): coordinator -> committer */

/* CommitterState: (commit user) + every committable not yet committed,
   grouped by checkpoint id (ManifestCommittable) + the ended writers. */
typedef CkState {
    byte id;                /* the checkpoint it is the state of */
    byte rows[NIDS];        /* pending committables' rows, by checkpoint id */
    bool has[NIDS];         /* id pending (also when empty: empty snapshot) */
    byte endRows[NW];       /* pending INT64_MAX committables, by writer */
    bool ended[NW];         /* EndOfInput of writer w is in this state */
};

/* ---- durable state --------------------------------------------------------- */
/* The table.  Each snapshot records commit user, identifier, rows added,
   and carries forward every commit user's last identifier; the model
   keeps what the latest snapshot says (filterCommitted reads just that). */
byte tblLast[NUSERS];       /* last identifier committed, per user; 0 none */
byte tblRows;               /* rows in the table (union of all snapshots) */

/* The coordinator's checkpoint directory: job.json + the latest chk-N. */
byte nextId = 1;            /* next checkpoint id, never reused */
byte chkPos[NW];            /* chk-N: source positions (rows read) ... */
bool chkFin[NW];            /*        ... with the finished flag */
CkState chk;                /*        committer state (chk.id = N, 0 none) */

/* ---- the environment ----------------------------------------------------- */
byte jobState = RUNNING;
byte crashes;               /* faults used so far */
byte lost;
byte aborts;

/* ---- in-memory state (lost at a failover) ------------------------------ */
/* coordinator */
byte inflight;              /* checkpoint in flight, 0 none */
byte acks;                  /* acks received for it, of NW + 1 */
byte ackPos[NW];            /* positions from the WriterAcks */
bool ackFin[NW];
CkState inState;            /* state from the CommitterAck */
bool finW[NW];              /* Finished(w) received (all: FINISHING) */
bool finalNotified;         /* Notify sent of a checkpoint with every writer
                               finished (see MORE_CHECKPOINTS) */
/* payload of the CommitterAck in cctl; it is always the latest one: the
   next checkpoint cannot be triggered before this one is read */
CkState ackBuf;

/* writers: source position = rows read; buf = rows in open data files */
byte pos[NW];
byte buf[NW];
bool fin[NW];

/* committer (committer.c: pending map, writers[], phase) */
byte prow[NIDS];            /* pending committables' rows, by checkpoint id */
bool phas[NIDS];            /* pending ids (touched when markers are in) */
byte pend[NW];              /* pending INT64_MAX committables, by writer */
byte endedAt[NW] = NOTENDED;/* writer's last marker when its EndOfInput came */
byte lastMarker[NW];
bool cFailed;               /* FAILED: nothing accepted until the next Reset */
bool endSent;               /* ghost: Committed(INT64_MAX) sent in this epoch */

/* ---- helpers ----------------------------------------------------------------- */

/* s_all_ended(n): every writer's EndOfInput came before its marker n */
#define allEndedBefore(k) (endedAt[0] < (k) && endedAt[1] < (k))

inline copyState(dst, src) {
    dst.id = src.id;
    for (i : 0 .. NIDS - 1) { dst.rows[i] = src.rows[i]; dst.has[i] = src.has[i] }
    for (i : 0 .. NW - 1) { dst.endRows[i] = src.endRows[i]; dst.ended[i] = src.ended[i] }
    i = 0
}

inline clearState(s) {
    s.id = 0;
    for (i : 0 .. NIDS - 1) { s.rows[i] = 0; s.has[i] = false }
    for (i : 0 .. NW - 1) { s.endRows[i] = 0; s.ended[i] = false }
    i = 0
}

/* The job ends (Committed(INT64_MAX) read by the coordinator, or a Ready
   whose last_committed is INT64_MAX).  P1, no loss: */
inline jobFinished() {
    printf("MSC: job FINISHED, rows in the table %d\n", tblRows);
    assert(tblRows == ALLROWS);
    jobState = FINISHED
}

/* Failover (docs/protocol.md "Restore"): every in-memory state is lost,
   every message in flight is of an older epoch and dropped by its
   receiver (here: the channels are emptied), and every participant gets
   Reset(R = latest completed checkpoint). */
inline failover() {
    for (i : 0 .. NW - 1) {
        do :: nempty(barrier[i]) -> barrier[i]?_ :: empty(barrier[i]) -> break od;
        do :: nempty(data[i]) -> data[i]?_,_,_ :: empty(data[i]) -> break od;
        do :: nempty(wctl[i]) -> wctl[i]?_,_,_,_ :: empty(wctl[i]) -> break od
    }
    do :: nempty(cctl) -> cctl?_,_ :: empty(cctl) -> break od;
    do :: nempty(notify) -> notify?_ :: empty(notify) -> break od;
    clearState(ackBuf);
    /* coordinator: the checkpoint in flight is aborted; finished writers
       known from chk-R */
    inflight = 0; acks = 0; finalNotified = false;
    clearState(inState);
    for (i : 0 .. NW - 1) {
        ackPos[i] = 0; ackFin[i] = false;
        finW[i] = chkFin[i];
        /* writer i, Reset(R, position): drop buffers and open files (and
           its files written after barrier R), seek the source */
        pos[i] = chkPos[i]; fin[i] = chkFin[i]; buf[i] = 0;
        /* committer, Reset(R, state): the ended writers, as ended before
           any marker of this epoch, and their INT64_MAX committables */
        lastMarker[i] = 0;
        pend[i] = chk.endRows[i];
        endedAt[i] = (chk.ended[i] -> 0 : NOTENDED)
    }
    /* committer: the pending committables of chk-R; the re-commit is the
       committer's RESTORING step */
    for (i : 1 .. MAXID) { prow[i] = chk.rows[i]; phas[i] = chk.has[i] }
    i = 0;
    cFailed = false; endSent = false;
    jobState = RESTORING
}

/* ===== Coordinator ============================================================ */

/* The last of the N+1 acks is in: write chk-N atomically ("Completed
   checkpoint N"), then Notify(N), which may be lost.  (A crash between
   the two is the same as a crash after the Notify is sent and before it
   is read: the failover drops it.) */
inline completeCheckpoint() {
    for (i : 0 .. NW - 1) {
        chkPos[i] = ackPos[i]; chkFin[i] = ackFin[i];
        ackPos[i] = 0; ackFin[i] = false
    }
    copyState(chk, inState); clearState(inState);
    printf("MSC: coordinator: Completed checkpoint %d\n", inflight);
    if
    :: true ->
         printf("MSC: coordinator -> Notify(%d)\n", inflight);
         assert(len(notify) < NIDS); notify!inflight;
         finalNotified = chkFin[0] && chkFin[1]
    :: lost < MAXLOSS ->
         printf("MSC: Notify(%d) lost\n", inflight);
         lost++
    fi;
    inflight = 0; acks = 0
}

/* WriterAck(N, position) / Finished(position) from writer w */
inline onWriterMsg(w) {
    if
    :: m == WACK && n == inflight ->
         ackPos[w] = p; ackFin[w] = f; acks++;
         if :: acks == NW + 1 -> completeCheckpoint() :: else fi
    :: m == WACK && n != inflight -> skip    /* of an aborted checkpoint */
    :: m == WFINISHED -> finW[w] = true      /* all finished: FINISHING */
    fi
}

/* CommitterAck(N, state) / Committed(INT64_MAX) / Failure */
inline onCommitterMsg() {
    if
    :: m == CACK && n == inflight ->
         assert(ackBuf.id == n);             /* the payload is state N */
         copyState(inState, ackBuf); clearState(ackBuf); acks++;
         if :: acks == NW + 1 -> completeCheckpoint() :: else fi
    :: m == CACK && n != inflight -> skip    /* of an aborted checkpoint */
    :: m == COMMITTED -> assert(n == END); jobFinished()
    :: m == FAILURE ->
         printf("MSC: coordinator <- Failure\n");
         jobState = FAILING
    fi
}

proctype Coordinator() {
    byte i, w, n, p;
    bool f;
    mtype m;
    do
    /* Trigger: at most one checkpoint in flight; the counter is persisted
       first, then Barrier(N) to every writer.  (A crash in between only
       skips an id, as one after the barriers are sent.) */
    :: atomic { jobState == RUNNING && inflight == 0 && MORE_CHECKPOINTS &&
                (nextId <= MAXREG || (finW[0] && finW[1] && nextId <= MAXID)) ->
           inflight = nextId; nextId++; acks = 0;
           assert(len(barrier[0]) < 3 && len(barrier[1]) < 3);
           barrier[0]!inflight; barrier[1]!inflight;
           printf("MSC: coordinator -> Barrier(%d)\n", inflight)
       }
    /* the next message from writer 0 or writer 1 */
    :: atomic { jobState == RUNNING && (len(wctl[0]) > 0 || len(wctl[1]) > 0) ->
           if
           :: len(wctl[0]) > 0 -> w = 0
           :: len(wctl[1]) > 0 -> w = 1
           fi;
           wctl[w]?m,n,p,f; onWriterMsg(w); m = 0; n = 0; p = 0; f = false; w = 0 }
    :: atomic { jobState == RUNNING && nempty(cctl) ->
           cctl?m,n; onCommitterMsg(); m = 0; n = 0 }
    /* Checkpoint N expired, the failure tolerated: aborted.  Its
       committables stay with the committer and go with the next completed
       checkpoint; its late acks are ignored. */
    :: atomic { jobState == RUNNING && inflight != 0 && aborts < MAXABORT ->
           printf("MSC: coordinator: checkpoint %d expired (tolerated)\n", inflight);
           aborts++; inflight = 0; acks = 0; clearState(inState);
           for (i : 0 .. NW - 1) { ackPos[i] = 0; ackFin[i] = false }
           i = 0
       }
    :: jobState == FINISHED -> break
    od
}

/* ===== Writer w ================================================================ */

/* Read some more rows (any number that is left) into the open data files.
   Reading is only observable at the writer's next Barrier or end of input
   (a failover overwrites pos and buf), so the rows read since the last
   event are read at once, when that next event is handled. */
inline readSome(w) {
    do
    :: pos[w] < ROWS -> buf[w] = buf[w] | ROW(w, pos[w]); pos[w]++
    :: true -> break
    od
}

proctype Writer(byte w) {
    byte n;
    do
    /* Barrier(N), at a record boundary: record the position, close the
       files, Committable(N, files) (none without rows), BarrierMarker(N),
       then WriterAck(N, position); rows read later belong to N+1.  One
       step: a crash between the sends is the same as a crash after them
       with the messages not yet read (the failover drops them). */
    :: atomic { jobState == RUNNING && nempty(barrier[w]) ->
           barrier[w]?n;
           readSome(w);
           assert(len(data[w]) < 5 && len(wctl[w]) < 3);
           if
           :: buf[w] != 0 ->
                data[w]!COMMITTABLE,n,buf[w];
                printf("MSC: writer %d: Committable(%d, rows %d)\n", w, n, buf[w])
           :: else
           fi;
           data[w]!MARKER,n,0;
           wctl[w]!WACK,n,pos[w],fin[w];
           printf("MSC: writer %d: BarrierMarker(%d), WriterAck(%d, position %d)\n", w, n, n, pos[w]);
           buf[w] = 0; n = 0
       }
    /* End of input: Committable(INT64_MAX, files) if any, EndOfInput on
       the data pipe, then Finished(position).  A finished writer answers
       later barriers with no files (the step above). */
    :: atomic { jobState == RUNNING && !fin[w] ->
           do :: pos[w] < ROWS -> buf[w] = buf[w] | ROW(w, pos[w]); pos[w]++
              :: else -> break
           od;
           assert(len(data[w]) < 5 && len(wctl[w]) < 3);
           if
           :: buf[w] != 0 ->
                data[w]!COMMITTABLE,END,buf[w];
                printf("MSC: writer %d: Committable(INT64_MAX, rows %d)\n", w, buf[w])
           :: else
           fi;
           data[w]!EOI,0,0;
           wctl[w]!WFINISHED,0,pos[w],true;
           printf("MSC: writer %d: EndOfInput, Finished(position %d)\n", w, pos[w]);
           fin[w] = true; buf[w] = 0
       }
    :: jobState == FINISHED -> break
    od
}

/* ===== Committer ================================================================= */

/* The table's commit of one ManifestCommittable as one snapshot
   (zs_table_commit) with identifier cid, adding the rows crows.
   res: COMMIT_DONE; COMMIT_FILTERED (filterCommitted on a re-commit, or
   ZS_EFINISHED on a re-commit); COMMIT_REFUSED (ZS_EFINISHED on a Notify
   commit: the commit user has already committed INT64_MAX). */
#define COMMIT_DONE     1
#define COMMIT_FILTERED 2
#define COMMIT_REFUSED  3

inline tableCommit(cid, crows) {
    last = tblLast[USER];
    if
    :: last == END && recommit -> res = COMMIT_FILTERED
    :: last == END && !recommit -> res = COMMIT_REFUSED
    /* filterCommitted: drop an identifier <= the user's last one.  Only
       the re-commit of a Reset filters here; the real table filters every
       commit, and on the Notify path the model asserts (P2) instead that
       there is never anything to filter. */
    :: last != END && recommit && RECOMMIT_FILTERS && cid <= last ->
         printf("MSC: filterCommitted: identifier %d dropped (last %d)\n", cid, last);
         res = COMMIT_FILTERED
    :: else ->
         printf("MSC: snapshot: user %d identifier %d rows %d\n", USER, cid, crows);
         assert((tblRows & crows) == 0);     /* P1: never a duplicate row */
         assert(cid > last);                 /* P2: identifiers increase */
         tblLast[USER] = cid;                /* create snapshot-<latest+1> */
         tblRows = tblRows | crows;
         res = COMMIT_DONE
    fi;
    last = 0
}

/* A commit error (here only ZS_EFINISHED on a Notify commit): Failure,
   and nothing more until the next Reset.  Only possible once this
   committer has sent Committed(INT64_MAX), which the coordinator reads
   first (same pipe) and ends the job on. */
inline commitFailed() {
    printf("MSC: committer: commit refused (user finished) -> Failure\n");
    assert(endSent);
    cFailed = true;
    assert(len(cctl) < 4); cctl!FAILURE,0
}

/* s_commit: every pending id <= upto in ascending order, one snapshot
   each with identifier = checkpoint id, then INT64_MAX when withEnd (made
   even when empty: it is how the job learns that it has ended).  The
   committer may die between two snapshots (died). */
inline commitAll() {
    died = false;
    do
    :: true ->
#ifdef COMMIT_ONLY_N
         i = (recommit -> 1 : upto);   /* MUTANT: Notify(N) commits N only */
#else
         i = 1;
#endif
         do
         :: i <= upto && !phas[i] -> i++
         :: else -> break
         od;
         if
         :: i <= upto ->
              tableCommit(i, prow[i]);
              if
              :: res == COMMIT_REFUSED -> commitFailed(); break
              :: else -> phas[i] = false; prow[i] = 0
              fi
         :: i > upto && withEnd ->
              tableCommit(END, (pend[0] | pend[1]));
              if
              :: res == COMMIT_REFUSED -> commitFailed(); break
              :: else ->
                   pend[0] = 0; pend[1] = 0; withEnd = false;
                   if
                   :: res == COMMIT_DONE && !recommit ->
                        printf("MSC: committer -> Committed(INT64_MAX)\n");
                        assert(len(cctl) < 4); cctl!COMMITTED,END; endSent = true
                   :: else
                   fi
              fi
         :: else -> break
         fi;
         /* a crash of the committer right after this snapshot */
         if
         :: crashes < MAXCRASH ->
              crashes++;
              printf("MSC: CRASH of the committer in the middle of a commit\n");
              jobState = FAILING; died = true; break
         :: true
         fi
    od;
    i = 0; res = 0
}

/* Markers N from every writer: touch N (an empty checkpoint still makes a
   snapshot) and CommitterAck(N, state), state = the pending ids <= N and
   the INT64_MAX committables and EndOfInputs that came before the writer's
   marker N (what came later belongs to a later checkpoint). */
inline ackCheckpoint(k) {
    phas[k] = true;
    ackBuf.id = k;
    for (i : 1 .. MAXID) {
        ackBuf.rows[i] = (i <= k -> prow[i] : 0);
        ackBuf.has[i] = (i <= k -> phas[i] : false)
    }
    for (i : 0 .. NW - 1) {
        ackBuf.ended[i] = (endedAt[i] < k);
        ackBuf.endRows[i] = (endedAt[i] < k -> pend[i] : 0)
    }
    i = 0;
    assert(len(cctl) < 4); cctl!CACK,k;
    printf("MSC: committer -> CommitterAck(%d)\n", k);
#ifdef COMMIT_EARLY
    /* MUTANT: commit checkpoint N now, before chk-N is complete */
    upto = k; withEnd = allEndedBefore(k); recommit = false;
    commitAll();
#endif
    skip
}

/* The next message of writer w's data pipe.  A Committable is always
   followed by the BarrierMarker or EndOfInput sent in the same writer
   step; both are taken in one step (nothing observes the state between). */
inline onData(w) {
    data[w]?m,n,r;
    if
    :: m == COMMITTABLE ->
         if
         :: n == END -> pend[w] = pend[w] | r
         :: else -> prow[n] = prow[n] | r
         fi;
         data[w]?m,n,r
    :: else
    fi;
    if
    :: m == EOI ->
         if
         :: endedAt[w] == NOTENDED -> endedAt[w] = lastMarker[w]
         :: else                              /* a repeated one: no-op */
         fi
    :: m == MARKER ->
         lastMarker[w] = n;
         if
         :: lastMarker[0] >= n && lastMarker[1] >= n -> ackCheckpoint(n)
         :: else
         fi
    fi;
    m = 0; n = 0; r = 0
}

proctype Committer() {
    byte i, w, n, r, last, res, upto;
    bool withEnd, recommit, died;
    mtype m;
    do
    /* the next message from writer 0's or writer 1's data pipe */
    :: atomic { jobState == RUNNING && !cFailed && (len(data[0]) > 0 || len(data[1]) > 0) ->
           if
           :: len(data[0]) > 0 -> w = 0
           :: len(data[1]) > 0 -> w = 1
           fi;
           onData(w); w = 0 }
    /* Notify(N): commit every pending id <= N, and INT64_MAX if every
       writer had ended before its marker N.
       Reset(R, state), whose state the failover has loaded: re-commit
       every restored pending id with filterCommitted (INT64_MAX only if
       every writer had ended), then Ready(last_committed): the
       coordinator Starts the job, or ends it if that is INT64_MAX. */
    :: atomic { (jobState == RESTORING || (jobState == RUNNING && !cFailed && len(notify) > 0)) ->
           if
           :: jobState == RESTORING ->
                upto = MAXID; withEnd = allEndedBefore(END); recommit = true
           :: else ->
                notify?n;
                printf("MSC: committer <- Notify(%d)\n", n);
                upto = n; withEnd = allEndedBefore(n); recommit = false
           fi;
           commitAll();
           if
           :: recommit && !died ->
                printf("MSC: committer -> Ready(last_committed %d)\n", tblLast[USER]);
                if
                :: tblLast[USER] == END -> jobFinished()
                :: else -> jobState = RUNNING      /* Start */
                fi
           :: else
           fi;
           n = 0; upto = 0; withEnd = false; recommit = false; died = false
       }
    :: jobState == FINISHED -> break
    od
}

/* ===== Faults ==================================================================== */
/* A crash of any process (coordinator, a writer, the committer) between
   any two of the steps above; a crash inside a step is modelled where it
   makes a difference (the committer between two snapshots: FAILING).
   Then the failover. */
proctype Faults() {
    byte i;
    do
    :: atomic { jobState == FAILING || (jobState != FINISHED && crashes < MAXCRASH) ->
           if
           :: jobState != FAILING ->
                crashes++;
                printf("MSC: CRASH\n")
           :: else
           fi;
           printf("MSC: failover, Reset(%d)\n", chk.id);
           failover() }
    :: jobState == FINISHED -> break
    od
}

init {
    atomic {
        run Coordinator();
        run Writer(0);
        run Writer(1);
        run Committer();
        run Faults()
    }
}
