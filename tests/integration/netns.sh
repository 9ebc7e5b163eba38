# netns.sh - network namespaces for the network-fault tests (POSIX sh;
# sourced by tests/integration/t_partition_*.sh in place of lib.sh, which it
# sources).
#
# Every role runs in a network namespace of its own, joined by a veth to a
# bridge in a hub namespace:
#
#     <p>-coordinator 10.77.0.1    <p>-committer 10.77.0.2
#     <p>-writer-<i>  10.77.0.(10+i)   <p>-spare-<i> 10.77.0.(100+i)
#     <p>-hub         10.77.0.254 on the bridge; `zsink cluster` runs here
#
# <p> = zsp<pid of the test shell>, so parallel runs never share a name; the
# subnet is the same in every run, but each run's bridge is a separate
# network in its own namespace (the root namespace has no address on it,
# and its own iptables, e.g. a FORWARD policy of DROP, never sees it).
#
# Why `zsink cluster --role-wrapper` rather than a supervisor loop in the
# script: the cluster already restarts what dies (exit 75/137, signals),
# forwards the logs the tests grep, and ends with the job; the wrapper only
# execs `ip netns exec <p>-<role> BINARY ARGS…`, so every pid, log line and
# helper of lib.sh (role_pid, kill_role, wait_for_count, the oracle) stays
# as in the other integration tests.
#
# Faults are iptables rules in the namespaces (DROP in INPUT at both ends
# of a link, so packets leave the sender and are lost on the way, as on a
# broken wire; the sender's own stack never refuses them):
#   net_cut A B        partition A from B, both directions
#   net_isolate A      partition A from every other namespace
#   net_heal A [B]     remove those rules again
#   net_loss P         drop each packet arriving in any role namespace with
#                      probability P (iptables -m statistic --mode random)
#   net_rate RATE      tbf on every role's veth (egress): a rate limit with
#                      queueing delay
# This kernel has no sch_netem (no `tc netem delay/loss`): loss is the
# iptables statistic match, and latency the fail points' delay action plus
# tbf's queueing, as docs/reliability.md says.
#
# The namespaces (and with them the veths, the bridge and every rule) are
# deleted on exit, also on failure or a signal.

# Not root, or no ip netns / iptables: skipped (ctest SKIP_RETURN_CODE 77).
net_skip () {
    echo "SKIP $(basename "$0" .sh): $1"
    exit 77
}
[ "$(id -u)" = 0 ] || net_skip "needs root (ip netns, iptables)"
command -v ip >/dev/null 2>&1 || net_skip "no ip (iproute2)"
command -v iptables >/dev/null 2>&1 || net_skip "no iptables"
_probe=zsp$$-probe
ip netns add "$_probe" 2>/dev/null || net_skip "ip netns add does not work here"
if ! ip netns exec "$_probe" iptables -S INPUT >/dev/null 2>&1; then
    ip netns del "$_probe"
    net_skip "iptables does not work inside a network namespace"
fi
ip netns del "$_probe"

. "$(dirname "$0")/lib.sh"

NSP=zsp$$
NET_NS=
NET_BR_IP=10.77.0.254

net_ns () { echo "$NSP-$1"; }

net_ip () {
    case $1 in
    hub) echo $NET_BR_IP ;;
    coordinator) echo 10.77.0.1 ;;
    committer) echo 10.77.0.2 ;;
    writer-*) echo "10.77.0.$((10 + ${1#writer-}))" ;;
    spare-*) echo "10.77.0.$((100 + ${1#spare-}))" ;;
    *) fail net "no address for namespace $1" ;;
    esac
}

# run a command in a role's namespace
nsx () {
    _n=$1
    shift
    ip netns exec "$(net_ns "$_n")" "$@"
}

# net_add NAME: a namespace with lo up and a veth into the hub's bridge.
net_add () {
    _ns=$(net_ns "$1")
    ip netns add "$_ns" || fail net "ip netns add $_ns failed"
    NET_NS="$NET_NS $_ns"
    ip -n "$_ns" link set lo up
    if [ "$1" = hub ]; then
        ip -n "$_ns" link add br0 type bridge &&
            ip -n "$_ns" addr add "$NET_BR_IP/24" dev br0 &&
            ip -n "$_ns" link set br0 up || fail net "cannot make the bridge in $_ns"
        return
    fi
    _hub=$(net_ns hub)
    ip -n "$_hub" link add "v-$1" type veth peer name eth0 netns "$_ns" &&
        ip -n "$_hub" link set "v-$1" master br0 up &&
        ip -n "$_ns" addr add "$(net_ip "$1")/24" dev eth0 &&
        ip -n "$_ns" link set eth0 up || fail net "cannot connect $_ns to the bridge"
}

# net_setup P [SPARES]: hub, coordinator, committer, P writers, and SPARES
# spare namespaces (for replacement processes started by hand). Writes
# $SCRATCH/in-hub (zsink in the hub namespace; lib.sh's $ZSINK from here on)
# and $SCRATCH/role-wrap (the cluster's --role-wrapper).
net_setup () {
    net_add hub
    net_add coordinator
    net_add committer
    _i=0
    while [ $_i -lt "$1" ]; do
        net_add "writer-$_i"
        _i=$((_i + 1))
    done
    _i=0
    while [ $_i -lt "${2:-0}" ]; do
        net_add "spare-$_i"
        _i=$((_i + 1))
    done
    printf '#!/bin/sh\nexec ip netns exec %s %s "$@"\n' "$(net_ns hub)" "$BIN/zsink" \
        >"$SCRATCH/in-hub"
    printf '#!/bin/sh\nname=$1\nshift\nexec ip netns exec %s-"$name" "$@"\n' "$NSP" \
        >"$SCRATCH/role-wrap"
    chmod +x "$SCRATCH/in-hub" "$SCRATCH/role-wrap"
    ZSINK=$SCRATCH/in-hub
    # every role namespace reaches the bridge (a refused connection is an
    # answer; a timeout is not)
    for _r in $(net_roles); do
        nsx "$_r" "$PY" -c 'import socket, sys
try:
    socket.create_connection((sys.argv[1], 1), timeout=3)
except ConnectionRefusedError:
    sys.exit(0)
sys.exit(1)' "$NET_BR_IP" || fail net "no route from $_r to the hub"
    done
    echo "[net] namespaces$NET_NS"
}

# net_start VARIANT: start_cluster with every role in its namespace.
net_start () {
    start_cluster "$1" --role-wrapper "$SCRATCH/role-wrap" \
        --coordinator-host "$(net_ip coordinator)" --committer-host "$(net_ip committer)"
}

# the namespaces other than the hub (where the roles run)
net_roles () {
    for _ns in $NET_NS; do
        case $_ns in *-hub) ;; *) echo "${_ns#"$NSP"-}" ;; esac
    done
}

# net_rules -I|-D A [B]: insert or delete the DROP rules that cut A from B
# (both ends), or without B from every other namespace.
net_rules () {
    _op=$1
    shift
    if [ $# -eq 2 ]; then
        nsx "$1" iptables "$_op" INPUT -s "$(net_ip "$2")" -j DROP &&
            nsx "$2" iptables "$_op" INPUT -s "$(net_ip "$1")" -j DROP ||
            fail net "iptables $_op failed for $1 <-> $2"
        return
    fi
    nsx "$1" iptables "$_op" INPUT ! -i lo -j DROP || fail net "iptables $_op failed in $1"
    for _r in $(net_roles) hub; do
        [ "$_r" = "$1" ] || nsx "$_r" iptables "$_op" INPUT -s "$(net_ip "$1")" -j DROP ||
            fail net "iptables $_op failed in $_r"
    done
}

net_cut () {
    net_rules -I "$1" "$2"
    echo "[net] t=$(elapsed)s cut $1 <-> $2"
}

net_isolate () {
    net_rules -I "$1"
    echo "[net] t=$(elapsed)s isolated $1 from every other namespace"
}

# net_heal A [B]: undo net_cut A B, or net_isolate A.
net_heal () {
    net_rules -D "$@"
    echo "[net] t=$(elapsed)s healed $*"
}

net_loss () {
    for _r in $(net_roles); do
        nsx "$_r" iptables -A INPUT ! -i lo -m statistic --mode random --probability "$1" \
            -j DROP || fail net "cannot add random loss in $_r"
    done
    echo "[net] t=$(elapsed)s random loss $1 on every packet into a role namespace"
}

net_rate () {
    for _r in $(net_roles); do
        nsx "$_r" tc qdisc add dev eth0 root tbf rate "$1" burst 4kb latency 400ms ||
            fail net "cannot add tbf in $_r"
    done
    echo "[net] t=$(elapsed)s tbf rate $1 on every role's veth"
}

# counter: packets a namespace's INPUT rules dropped so far (all rules)
net_dropped () {
    nsx "$1" iptables -L INPUT -v -n -x | awk 'NR > 2 && $3 == "DROP" { n += $1 } END { print n + 0 }'
}

# Kill what is left in our namespaces (processes we started: the cluster's
# children, replacements), then delete the namespaces; the veths, the bridge
# and the rules go with them.
net_cleanup () {
    cleanup
    for _ns in $NET_NS; do
        for _p in $(ip netns pids "$_ns" 2>/dev/null); do kill -9 "$_p" 2>/dev/null; done
    done
    for _ns in $NET_NS; do ip netns del "$_ns" 2>/dev/null; done
    NET_NS=
}
trap 'net_cleanup' EXIT
trap 'exit 1' INT TERM

# net_replacement VARIANT INDEX SPARE: start a writer with the given index in
# the spare namespace by hand, with the endpoints the cluster gives its own
# (cluster.json), as an orchestrator would start a replacement on another
# node while the old process lives on. Its pid in $RPID, its log in
# replacement.log of the variant.
net_replacement () {
    _cj=$(vdir "$1")/chk/cluster.json
    ip netns exec "$(net_ns "$3")" "$BIN/zsink-writer" \
        --coordinator "$(json_get "$_cj" coordinator)" --committer "$(json_get "$_cj" committer)" \
        --index "$2" >"$(vdir "$1")/replacement.log" 2>&1 &
    RPID=$!
    EXTRA_PIDS="$EXTRA_PIDS $RPID"
    echo "[$1] t=$(elapsed)s replacement writer-$2 pid $RPID in $(net_ns "$3")"
}

# wait_gone PID DEADLINE_S: until the process has exited.
wait_gone () {
    _end=$(($(now) + $2))
    while kill -0 "$1" 2>/dev/null; do
        [ "$(now)" -lt "$_end" ] || return 1
        sleep 0.1
    done
}

# zombie_start VARIANT N [yaml lines ...]: a 2-writer job of N rows with one
# spare namespace, running until two checkpoints have completed; writer 1's
# pid (the zombie to be) in $ZPID, the time in $T_CUT for the figures.
zombie_start () {
    _zv=$1 _zn=$2
    shift 2
    net_setup 2 1
    write_fault_job "$_zv" 2 "datagen.number-of-rows: $_zn" "$@"
    net_start "$_zv"
    wait_for_count "$_zv" 'Completed checkpoint [0-9]+ for job' 2 30
    ZPID=$(role_pid "$_zv" writer-1)
    [ -n "$ZPID" ] || fail "$_zv" "no writer-1"
    T_CUT=$(elapsed)
}

# zombie_end VARIANT N REPLACEMENT_PID FAILOVERS_BEFORE_HEAL: heal writer 1
# while the zombie is alive; it must be refused as superseded and exit on
# its own, the heal must cause no failover, the job must finish (by the
# replacement) exactly once.
zombie_end () {
    _zv=$1 _zn=$2 _zr=$3 _zf=$4
    kill -0 "$ZPID" 2>/dev/null || fail "$_zv" "the zombie (pid $ZPID) is not alive before the heal"
    net_heal writer-1
    wait_for_log "$_zv" "\\[writer-1\\] the coordinator refused us: superseded: writer-1 is pid $_zr" 20
    wait_gone "$ZPID" 20 || fail "$_zv" "the zombie (pid $ZPID) did not exit after it was refused"
    echo "[$_zv] t=$(elapsed)s the zombie (pid $ZPID) exited"
    expect_exit "$_zv" 90 0
    wait_gone "$_zr" 10 || fail "$_zv" "the replacement is still running after the job"
    [ "$(grep -c "Registered writer-1 (pid $ZPID," "$(clog "$_zv")")" = 1 ] ||
        fail "$_zv" "the zombie registered again after it was replaced"
    _za=$(count_log "$_zv" 'switched from state [A-Z]+ to RESTARTING')
    [ "$_za" = "$_zf" ] || fail "$_zv" "the heal caused $((_za - _zf)) more failover(s)"
    grep -q "Shutdown: finished" "$(vdir "$_zv")/replacement.log" ||
        fail "$_zv" "the replacement did not finish the job"
    oracle "$_zv" "$_zn" --last-max
    echo "[$_zv] figures: partition at t=${T_CUT}s, failovers $_zf, job done at t=$(elapsed)s"
}
