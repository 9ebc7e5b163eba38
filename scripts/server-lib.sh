# server-lib.sh - what the tests' server scripts share (scripts/s3-server.sh,
# scripts/kafka-server.sh; POSIX sh, sourced). The caller sets:
#   SERVER   its name, for messages ("s3-server")
#   DIR      the server's state directory (pid, ports, log in it)
#   server_mark  a function printing a line of the server's command line
#            that names DIR, so that a pid file whose number the system gave
#            to another process since never gets that process killed
#   NPORTS   how many ports it listens on

die () {
    echo "$SERVER: $*" >&2
    exit 1
}

# Is the server's process there (a zombie nobody reaped yet is gone)?
running () {
    kill -0 "$1" 2>/dev/null && [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" != Z ] &&
        tr '\0' '\n' <"/proc/$1/cmdline" 2>/dev/null | grep -qxF -- "$(server_mark)"
}

alive () {
    [ -f "$DIR/pid" ] && running "$(cat "$DIR/pid")"
}

# Is TCP port $1 free on 127.0.0.1 (nobody listening)?
port_free () {
    [ -z "$(ss -Htln "sport = :$1" 2>/dev/null)" ]
}

# NPORTS distinct free ports (below the ephemeral range), the first $1 if given.
pick_ports () {
    ports=${1:-}
    n=$(echo $ports | wc -w)
    tries=0
    while [ "$n" -lt "$NPORTS" ]; do
        tries=$((tries + 1))
        [ $tries -lt 1000 ] || die "no free ports found"
        p=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 12000))
        case " $ports " in *" $p "*) continue ;; esac
        port_free $p || continue
        ports="$ports $p"
        n=$((n + 1))
    done
    echo $ports
}

# Waits (deadline $1 s) until the process is gone.
wait_gone () {
    pid=$(cat "$DIR/pid")
    end=$(($(date +%s) + $1))
    while running "$pid"; do
        [ "$(date +%s)" -lt "$end" ] || return 1
        sleep 0.05
    done
    return 0
}

# Waits (10 s) until every port of DIR/ports is free again: a killed
# server's sockets may close a moment after it is gone.
wait_ports_free () {
    end=$(($(date +%s) + 10))
    for p in $(cat "$DIR/ports"); do
        while ! port_free "$p"; do
            [ "$(date +%s)" -lt "$end" ] || die "port $p is taken (ports: $DIR/ports)"
            sleep 0.05
        done
    done
}
