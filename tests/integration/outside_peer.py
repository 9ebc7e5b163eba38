#!/usr/bin/python3
"""outside_peer.py - a stranger on the cluster's network.

A ZeroMQ client that shares no code with zsink: it speaks the wire protocol
(proto/zsink.proto) with its own protobuf encoder written from the field
numbers, over pyzmq (Debian's python3-zmq), and learns the live job id and
epoch the way anyone on the network could: an ordinary STATUS request to
the coordinator. The integration tests (t_outside_peer.sh) use it to check
that nothing it sends is ever applied: forged committables and markers on
connections that never registered, Failures and acks to the coordinator,
oversize frames, wrong frame counts.

    outside_peer.py status COORDINATOR
    outside_peer.py forge --committer EP --coordinator EP --checkpoint N
                          --file PATH:ROWS:SIZE [--seqs K]
    outside_peer.py flood --committer EP --coordinator EP --seconds S
    outside_peer.py junk --endpoint EP --name NAME

Each prints one line saying what it sent; exit 0 unless it could not send.
"""
import argparse
import json
import os
import sys
import time

import zmq

ROLE_WRITER, ROLE_CLIENT = 2, 4

# --- protobuf, by hand: varints and length-delimited fields -------------


def varint(n):
    if n < 0:
        n += 1 << 64  # int32/int64 negatives: ten bytes, two's complement
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def f_varint(field, n):
    return varint(field << 3) + varint(n)


def f_bytes(field, data):
    if isinstance(data, str):
        data = data.encode()
    return varint(field << 3 | 2) + varint(len(data)) + data


def envelope(job_id, epoch, seq, sender, index, body_field, body):
    msg = f_bytes(1, job_id) + f_varint(2, epoch) + f_varint(3, seq) + f_varint(4, sender)
    if index is not None:
        msg += f_varint(5, index)
    return msg + f_bytes(body_field, body)


def file_meta(path, rows, size):
    return f_bytes(1, path) + f_varint(2, rows) + f_varint(3, size)


def committable(checkpoint, writer, files):
    body = f_varint(1, checkpoint) + f_varint(2, writer) + f_varint(3, 0)
    for f in files:
        body += f_bytes(4, file_meta(*f))
    return body


def marker(checkpoint, count):
    return f_varint(1, checkpoint) + f_varint(2, count)


def parse(data):
    """One message level: {field: [values]} (ints for varints, bytes else)."""
    out, i = {}, 0
    while i < len(data):
        key, i = read_varint(data, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            val, i = read_varint(data, i)
        elif wire == 2:
            n, i = read_varint(data, i)
            val, i = data[i:i + n], i + n
        elif wire == 1:
            val, i = data[i:i + 8], i + 8
        elif wire == 5:
            val, i = data[i:i + 4], i + 4
        else:
            raise ValueError("wire type %d" % wire)
        out.setdefault(field, []).append(val)
    return out


def read_varint(data, i):
    n = shift = 0
    while True:
        b = data[i]
        i += 1
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return n, i


# --- talking -------------------------------------------------------------

CTX = zmq.Context()


def dealer(endpoint, name=None):
    s = CTX.socket(zmq.DEALER)
    if name is not None:
        s.setsockopt(zmq.IDENTITY, name.encode())
    s.setsockopt(zmq.LINGER, 2000)  # what we send must get out before we exit
    s.setsockopt(zmq.IMMEDIATE, 1)  # send only once connected (send_all retries)
    s.connect(endpoint)
    return s


def status(coordinator):
    s = dealer(coordinator, "outside-%d" % os.getpid())
    s.send(envelope("", 0, 1, ROLE_CLIENT, None, 40, f_varint(1, 0)))
    if not s.poll(5000):
        sys.exit("outside_peer: no status reply from %s" % coordinator)
    reply = parse(parse(s.recv())[41][0])
    s.close()
    return json.loads(reply[2][0].decode())


def send_all(sock, frames):
    """One message of these frames; retried until the DEALER has a peer and
    room (a flood meets the high-water mark; under a loaded machine the
    cluster drains it slowly: 30 s, a deadline, not a wait)."""
    deadline = time.time() + 30
    while True:
        try:
            for k, f in enumerate(frames):
                more = zmq.SNDMORE if k + 1 < len(frames) else 0
                sock.send(f, zmq.DONTWAIT | more)
            return
        except zmq.Again:
            if time.time() > deadline:
                sys.exit("outside_peer: cannot send")
            time.sleep(0.01)


def cmd_forge(a):
    st = status(a.coordinator)
    job, epoch = st["job_id"], st["epoch"]
    path, rows, size = a.file.rsplit(":", 2)
    tag = os.urandom(4).hex()
    w0 = dealer(a.committer, "writer-0-evil" + tag)
    w1 = dealer(a.committer, "writer-1-evil" + tag)
    # every sequence number up to K: one of them is the writer's next
    for seq in range(1, a.seqs + 1, 2):
        send_all(w0, [envelope(job, epoch, seq, ROLE_WRITER, 0, 30,
                               committable(a.checkpoint, 0, [(path, int(rows), int(size))]))])
        send_all(w0, [envelope(job, epoch, seq + 1, ROLE_WRITER, 0, 31, marker(a.checkpoint, 1))])
    for seq in range(1, a.seqs + 1):
        send_all(w1, [envelope(job, epoch, seq, ROLE_WRITER, 1, 31, marker(a.checkpoint, 0))])
    w0.close()
    w1.close()
    print("forged checkpoint %d of job %s epoch %d: %s, sequence numbers 1..%d, as "
          "writer-0-evil%s and writer-1-evil%s" % (a.checkpoint, job, epoch, path, a.seqs, tag, tag))


def cmd_flood(a):
    end = time.time() + a.seconds
    rounds = 0
    while time.time() < end:
        try:
            st = status(a.coordinator)
        except SystemExit:
            continue  # the coordinator is between processes
        job, epoch = st["job_id"], st["epoch"]
        n = st["last_completed_checkpoint"] + 1
        tag = os.urandom(4).hex()
        c = dealer(a.coordinator, "writer-0-flood" + tag)
        failure = f_bytes(1, "an outside peer says writer 0 failed") + f_varint(2, 1)
        ack = f_varint(1, n) + f_bytes(2, f_varint(1, 0) + f_varint(2, 999999999))
        for seq in range(1, 4):
            send_all(c, [envelope(job, epoch, seq, ROLE_WRITER, 0, 24, failure)])
            send_all(c, [envelope(job, epoch, seq, ROLE_WRITER, 0, 19, ack)])
        d = dealer(a.committer, "writer-0-flood" + tag)
        anon = dealer(a.committer)
        for seq in range(1, 6):
            for s in (d, anon):
                send_all(s, [envelope(job, epoch, seq, ROLE_WRITER, 0, 30,
                                      committable(n, 0, [("bucket-0/data-flood.parquet", 1, 1)]))])
                send_all(s, [envelope(job, epoch, seq, ROLE_WRITER, 0, 31, marker(n, 1))])
        for s in (c, d, anon):
            s.close()
        rounds += 1
        time.sleep(0.05)
    print("flooded for %d s: %d rounds of Failure, WriterAck, Committable and "
          "BarrierMarker with the live job id and epoch" % (a.seconds, rounds))


def cmd_junk(a):
    s = dealer(a.endpoint, a.name)
    send_all(s, [b"\0" * (17 * 1024 * 1024)])  # over the 16 MB limit
    send_all(s, [b"one", b"two", b"three"])     # the wrong number of frames
    s.close()
    print("sent an oversize frame and a 3-frame message to %s as %s" % (a.endpoint, a.name))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("status")
    s.add_argument("coordinator")
    f = sub.add_parser("forge")
    f.add_argument("--committer", required=True)
    f.add_argument("--coordinator", required=True)
    f.add_argument("--checkpoint", type=int, required=True)
    f.add_argument("--file", required=True)
    f.add_argument("--seqs", type=int, default=40)
    fl = sub.add_parser("flood")
    fl.add_argument("--committer", required=True)
    fl.add_argument("--coordinator", required=True)
    fl.add_argument("--seconds", type=float, required=True)
    j = sub.add_parser("junk")
    j.add_argument("--endpoint", required=True)
    j.add_argument("--name", required=True)
    a = p.parse_args()
    if a.cmd == "status":
        print(json.dumps(status(a.coordinator)))
    else:
        {"forge": cmd_forge, "flood": cmd_flood, "junk": cmd_junk}[a.cmd](a)
    CTX.term()


if __name__ == "__main__":
    main()
