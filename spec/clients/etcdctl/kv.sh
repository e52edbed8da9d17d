#!/bin/sh
# etcdctl's key commands on a fresh cluster (so every revision is the same on each run): put with
# --prev-kv, get with each of its range options, del with --prefix and --prev-kv, txn read from stdin in
# both forms, watch from a past revision and live, and what a compaction does to get and watch.
. "$(dirname "$0")/lib.sh"

ctl put kv/a 1
ctl put kv/b 2
ctl put kv/c 3
ctl put kv/d 4
ctl put --prev-kv kv/a 1b
ctl put --prev-kv kv/new x
ctl get kv/a
ctl get kv/missing
ctl get --prefix kv/
ctl get --prefix --limit=2 kv/
ctl get --from-key kv/c
ctl get kv/b kv/d
ctl get --prefix --sort-by=MODIFY --order=DESCEND kv/
ctl get --prefix --sort-by=VALUE --order=ASCEND kv/
ctl get --prefix --keys-only kv/
on_first get --prefix --limit=1 -w fields kv/
ctl get --rev=2 --prefix kv/
on_first get -w fields kv/a
on_first get -w json kv/a
ctl get --consistency=s --print-value-only kv/a
ctl get --hex kv/b
ctl get --rev=99 kv/a

echo "# txn from stdin (here-documents: a pipe would run ctl in a subshell)"
ctl txn <<'TXN'
value("kv/a") = "1b"
mod("kv/b") = "3"

put kv/t yes
get kv/a

put kv/t no

TXN
ctl txn <<'TXN'
version("kv/a") > "5"

put kv/t yes2

del kv/t
get --prefix kv/

TXN
ctl txn -i <<'TXN'
create("kv/c") = "4"
version("kv/c") < "2"

put kv/u 1


TXN
ctl get --prefix kv/t

echo "# watch from a past revision, then live"
etcdctl watch --rev=1 --prefix kv/ >"$tmp/hist" 2>&1 &
hist=$!
await_lines "$tmp/hist" 27
kill -TERM "$hist"
await_exit "$hist" watch
show "$tmp/hist"
rev=$(etcdctl get -w fields kv/a | awk '/"Revision"/ { print $3 }')
etcdctl watch --prev-kv --rev="$((rev + 1))" kv/live >"$tmp/live" 2>&1 &
live=$!
ctl put kv/live 1
ctl put kv/live 2
ctl del kv/live
await_lines "$tmp/live" 11
kill -TERM "$live"
await_exit "$live" watch
show "$tmp/live"

echo "# delete, compact"
ctl del --prev-kv kv/d
ctl del --prefix kv/
ctl del kv/none
ctl get --prefix kv/
ctl compaction 5
ctl get --rev=3 kv/a
ctl get --rev=5 kv/a
ctl watch --rev=2 kv/a
