# netns-pair.sh — sourced by the DLNA benchmarks (dlna-bench.sh, dlna-instructions.sh, dlna-stills.sh): a server's
# network namespace and a client's, joined by a veth pair (multicast works there; nothing touches the machine's own
# network), as DLNAClientTests makes them. Root needed.

# netns_pair SERVER CLIENT PREFIX: namespaces SERVER and CLIENT, each with lo and an eth0 up; the server is
# PREFIX.1 and the client PREFIX.2 (/24), e.g. `netns_pair s c 10.44.0`.
netns_pair() {
    ip netns add "$1"; ip netns add "$2"
    ip link add name eth0 netns "$1" type veth peer name eth0 netns "$2"
    ip -n "$1" addr add "$3.1/24" dev eth0; ip -n "$2" addr add "$3.2/24" dev eth0
    local ns
    for ns in "$1" "$2"; do ip -n "$ns" link set lo up; ip -n "$ns" link set eth0 up; done
}

# netns_remove NS ...: ends what still runs in each namespace and deletes it (quiet where there is none).
netns_remove() {
    local ns
    for ns in "$@"; do ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null || true; done
    for ns in "$@"; do ip netns del "$ns" 2>/dev/null || true; done
}
