package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.etcd.io/etcd/clientv3"
	pb "go.etcd.io/etcd/etcdserver/etcdserverpb"
	"go.etcd.io/etcd/mvcc/mvccpb"
)

// kvTopic: what a lease holder's code does with keys through clientv3: Range with each option etcdctl
// 3.4 cannot send (count only, min/max mod and create revisions, ranges), Put with prev_kv, ignore_value
// and ignore_lease, DeleteRange with prev_kv, Txn with compares on VERSION, CREATE, MOD, VALUE and LEASE
// and a nested Txn, Compact, and several watchers on one Watch stream (prev_kv, a filter, a progress
// request, a start revision that was compacted). Revisions are exact: the cluster is fresh.
func kvTopic() {
	c := connect()
	defer c.Close()

	cx, cancel := ctx()
	g, err := c.Grant(cx, 60)
	cancel()
	if err != nil {
		fmt.Println("grant error:", errText(err))
		return
	}
	lease := g.ID

	wctx, wcancel := context.WithCancel(context.Background())
	defer wcancel()
	// Three watchers that clientv3 multiplexes over one Watch stream.
	wPrev := c.Watch(wctx, "go/kv/a", clientv3.WithPrevKV())
	wNoDel := c.Watch(wctx, "go/kv/", clientv3.WithPrefix(), clientv3.WithFilterDelete())
	wProgress := c.Watch(wctx, "go/none", clientv3.WithProgressNotify())

	put := func(k, v string, opts ...clientv3.OpOption) {
		cx, cancel := ctx()
		r, err := c.Put(cx, k, v, opts...)
		cancel()
		if err != nil {
			fmt.Printf("put %s error: %s\n", k, errText(err))
			return
		}
		prev := ""
		if r.PrevKv != nil {
			prev = " prev " + kvText(r.PrevKv)
		}
		fmt.Printf("put %s: revision %d%s\n", k, r.Header.Revision, prev)
	}
	put("go/kv/a", "1")
	put("go/kv/b", "2", clientv3.WithLease(lease))
	put("go/kv/c", "3")
	put("go/kv/d", "4")
	put("go/kv/a", "1b", clientv3.WithPrevKV())
	put("go/kv/b", "", clientv3.WithIgnoreValue(), clientv3.WithLease(lease), clientv3.WithPrevKV())
	put("go/kv/c", "3c", clientv3.WithIgnoreLease())
	put("go/kv/b", "2b", clientv3.WithIgnoreLease(), clientv3.WithPrevKV())
	put("go/kv/none", "", clientv3.WithIgnoreValue())

	get := func(what, k string, opts ...clientv3.OpOption) {
		cx, cancel := ctx()
		r, err := c.Get(cx, k, opts...)
		cancel()
		if err != nil {
			fmt.Printf("get %s: error %s\n", what, errText(err))
			return
		}
		fmt.Printf("get %s: count %d more %v revision %d %s\n", what, r.Count, r.More, r.Header.Revision, kvsText(r.Kvs))
	}
	get("prefix", "go/kv/", clientv3.WithPrefix())
	get("range [b, d)", "go/kv/b", clientv3.WithRange("go/kv/d"))
	get("from key c", "go/kv/c", clientv3.WithFromKey())
	get("limit 2", "go/kv/", clientv3.WithPrefix(), clientv3.WithLimit(2))
	get("sort by version desc", "go/kv/", clientv3.WithPrefix(), clientv3.WithSort(clientv3.SortByVersion, clientv3.SortDescend))
	get("sort by create asc", "go/kv/", clientv3.WithPrefix(), clientv3.WithSort(clientv3.SortByCreateRevision, clientv3.SortAscend))
	get("sort by value desc limit 1", "go/kv/", clientv3.WithPrefix(), clientv3.WithSort(clientv3.SortByValue, clientv3.SortDescend), clientv3.WithLimit(1))
	get("keys only", "go/kv/", clientv3.WithPrefix(), clientv3.WithKeysOnly())
	get("count only", "go/kv/", clientv3.WithPrefix(), clientv3.WithCountOnly())
	get("min mod revision 6", "go/kv/", clientv3.WithPrefix(), clientv3.WithMinModRev(6))
	get("max mod revision 5", "go/kv/", clientv3.WithPrefix(), clientv3.WithMaxModRev(5))
	get("min create revision 3", "go/kv/", clientv3.WithPrefix(), clientv3.WithMinCreateRev(3))
	get("max create revision 3", "go/kv/", clientv3.WithPrefix(), clientv3.WithMaxCreateRev(3))
	get("at revision 3", "go/kv/", clientv3.WithPrefix(), clientv3.WithRev(3))
	get("at a future revision", "go/kv/a", clientv3.WithRev(1000))
	get("serializable", "go/kv/a", clientv3.WithSerializable())

	txn := func(what string, cmps []clientv3.Cmp, then, els []clientv3.Op) {
		cx, cancel := ctx()
		r, err := c.Txn(cx).If(cmps...).Then(then...).Else(els...).Commit()
		cancel()
		if err != nil {
			fmt.Printf("txn %s: error %s\n", what, errText(err))
			return
		}
		fmt.Printf("txn %s: succeeded %v revision %d %s\n", what, r.Succeeded, r.Header.Revision, opsText(r.Responses))
	}
	txn("every compare holds",
		[]clientv3.Cmp{
			clientv3.Compare(clientv3.Version("go/kv/a"), "=", 2),
			clientv3.Compare(clientv3.CreateRevision("go/kv/c"), ">", 2),
			clientv3.Compare(clientv3.ModRevision("go/kv/d"), "<", 100),
			clientv3.Compare(clientv3.Value("go/kv/b"), "!=", "2"),
			clientv3.Compare(clientv3.LeaseValue("go/kv/b"), "=", lease),
		},
		[]clientv3.Op{clientv3.OpPut("go/kv/t", "then"), clientv3.OpGet("go/kv/a")},
		[]clientv3.Op{clientv3.OpPut("go/kv/t", "else")})
	txn("a lease compare fails",
		[]clientv3.Cmp{clientv3.Compare(clientv3.LeaseValue("go/kv/a"), "=", lease)},
		[]clientv3.Op{clientv3.OpPut("go/kv/t", "then2")},
		[]clientv3.Op{clientv3.OpDelete("go/kv/t", clientv3.WithPrevKV()), clientv3.OpGet("go/kv/", clientv3.WithPrefix(), clientv3.WithCountOnly())})
	txn("nested",
		[]clientv3.Cmp{clientv3.Compare(clientv3.Value("go/kv/a"), ">", "1")},
		[]clientv3.Op{clientv3.OpTxn(
			[]clientv3.Cmp{clientv3.Compare(clientv3.Version("go/kv/missing"), "=", 0)},
			[]clientv3.Op{clientv3.OpPut("go/kv/n", "inner")},
			nil)},
		nil)
	txn("a key put twice",
		nil,
		[]clientv3.Op{clientv3.OpPut("go/kv/x", "1"), clientv3.OpPut("go/kv/x", "2")},
		nil)

	cx, cancel = ctx()
	d, err := c.Delete(cx, "go/kv/d", clientv3.WithPrevKV())
	cancel()
	if err == nil {
		fmt.Printf("delete go/kv/d: deleted %d revision %d prev %s\n", d.Deleted, d.Header.Revision, kvsText(d.PrevKvs))
	} else {
		fmt.Println("delete error:", errText(err))
	}

	// The watchers saw every change to their keys in revision order.
	takeEvents("watch go/kv/a with prev_kv", wPrev, 2)
	takeEvents("watch go/kv/ without deletes", wNoDel, 9)

	cx, cancel = ctx()
	err = c.RequestProgress(cx)
	cancel()
	fmt.Println("request progress:", errText(err))
	select {
	case r := <-wProgress:
		fmt.Printf("watch go/none: progress notify %v revision %d events %d\n", r.IsProgressNotify(), r.Header.Revision, len(r.Events))
	case <-time.After(step):
		fmt.Println("watch go/none: no progress notification within", step)
	}

	cx, cancel = ctx()
	cr, err := c.Compact(cx, 5)
	cancel()
	if err == nil {
		fmt.Printf("compact 5: revision %d\n", cr.Header.Revision)
	} else {
		fmt.Println("compact error:", errText(err))
	}
	get("at compacted revision 4", "go/kv/a", clientv3.WithRev(4))
	get("at revision 5", "go/kv/a", clientv3.WithRev(5))
	cx, cancel = ctx()
	_, err = c.Compact(cx, 3)
	cancel()
	fmt.Println("compact 3 again:", errText(err))
	wOld := c.Watch(wctx, "go/kv/a", clientv3.WithRev(2))
	select {
	case r, ok := <-wOld:
		fmt.Printf("watch from compacted revision 2: open %v canceled %v compact revision %d err %s\n", ok, r.Canceled, r.CompactRevision, errText(r.Err()))
	case <-time.After(step):
		fmt.Println("watch from compacted revision 2: nothing within", step)
	}
}

func kvText(kv *mvccpb.KeyValue) string {
	return fmt.Sprintf("%s=%s create %d mod %d version %d lease %x", kv.Key, kv.Value, kv.CreateRevision, kv.ModRevision, kv.Version, kv.Lease)
}

func kvsText(kvs []*mvccpb.KeyValue) string {
	out := []string{}
	for _, kv := range kvs {
		out = append(out, kvText(kv))
	}
	return "[" + strings.Join(out, ", ") + "]"
}

// opsText: a Txn's responses, each with the header revision etcd gives it.
func opsText(ops []*pb.ResponseOp) string {
	out := []string{}
	for _, op := range ops {
		switch r := op.Response.(type) {
		case *pb.ResponseOp_ResponsePut:
			out = append(out, fmt.Sprintf("put(revision %d)", r.ResponsePut.Header.Revision))
		case *pb.ResponseOp_ResponseRange:
			x := r.ResponseRange
			out = append(out, fmt.Sprintf("range(count %d %s)", x.Count, kvsText(x.Kvs)))
		case *pb.ResponseOp_ResponseDeleteRange:
			x := r.ResponseDeleteRange
			out = append(out, fmt.Sprintf("delete(deleted %d prev %s)", x.Deleted, kvsText(x.PrevKvs)))
		case *pb.ResponseOp_ResponseTxn:
			x := r.ResponseTxn
			out = append(out, fmt.Sprintf("txn(succeeded %v %s)", x.Succeeded, opsText(x.Responses)))
		}
	}
	return "[" + strings.Join(out, " ") + "]"
}

func takeEvents(what string, ch clientv3.WatchChan, n int) {
	got := 0
	for got < n {
		select {
		case r, ok := <-ch:
			if !ok {
				fmt.Printf("%s: channel closed after %d events\n", what, got)
				return
			}
			for _, e := range r.Events {
				prev := ""
				if e.PrevKv != nil {
					prev = fmt.Sprintf(" prev %s=%s", e.PrevKv.Key, e.PrevKv.Value)
				}
				fmt.Printf("%s: %s %s=%s mod %d%s\n", what, e.Type, e.Kv.Key, e.Kv.Value, e.Kv.ModRevision, prev)
				got++
			}
		case <-time.After(step):
			fmt.Printf("%s: %d of %d events within %s\n", what, got, n, step)
			return
		}
	}
}
