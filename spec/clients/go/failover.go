package main

import (
	"context"
	"fmt"
	"time"

	"go.etcd.io/etcd/clientv3"
)

// failoverTopic: a lease kept alive by one clientv3 client on all three endpoints while the harness (or
// serve's scenario) crashes n1, the leader, 3 s after the start. The client fails over: keep-alive answers
// keep coming, the channel stays open, the lease and its key survive and writes go on.
func failoverTopic() {
	start := time.Now()
	c := connect()
	defer c.Close()

	cx, cancel := ctx()
	g, err := c.Grant(cx, 10)
	cancel()
	if err != nil {
		fmt.Println("grant error:", errText(err))
		return
	}
	fmt.Printf("grant: lease %016x TTL(%d)\n", int64(g.ID), g.TTL)
	cx, cancel = ctx()
	p, err := c.Put(cx, "go/failover/k", "v", clientv3.WithLease(g.ID))
	cancel()
	if err != nil {
		fmt.Println("put error:", errText(err))
		return
	}
	fmt.Printf("put go/failover/k with lease: revision %d\n", p.Header.Revision)

	ch, err := c.KeepAlive(context.Background(), g.ID)
	if err != nil {
		fmt.Println("keepalive error:", errText(err))
		return
	}
	before, after := 0, 0
	closed := false
	fmt.Println("# n1 crashes 3 s after the start")
	deadline := time.After(time.Until(start.Add(16 * time.Second)))
	for waiting := true; waiting && !closed; {
		select {
		case r, ok := <-ch:
			switch {
			case !ok:
				closed = true
			case time.Since(start) < 3*time.Second && r.TTL > 0:
				before++
			case time.Since(start) > 8*time.Second && r.TTL > 0:
				after++
			}
		case <-deadline:
			waiting = false
		}
	}
	fmt.Println("keepalive answers before the crash:", before > 0)
	fmt.Println("keepalive answers from 8 s to 16 s:", after > 0)
	fmt.Println("keepalive channel closed:", closed)

	cx, cancel = ctx()
	t, err := c.TimeToLive(cx, g.ID)
	cancel()
	if err != nil {
		fmt.Println("timetolive error:", errText(err))
	} else {
		fmt.Printf("timetolive: granted TTL(%d), at least half left: %v\n", t.GrantedTTL, t.TTL >= t.GrantedTTL/2)
	}
	cx, cancel = ctx()
	r, err := c.Get(cx, "go/failover/k")
	cancel()
	if err != nil {
		fmt.Println("get error:", errText(err))
	} else {
		fmt.Printf("get go/failover/k: count=%d\n", r.Count)
	}
	cx, cancel = ctx()
	p, err = c.Put(cx, "go/failover/k2", "v")
	cancel()
	if err != nil {
		fmt.Println("put error:", errText(err))
	} else {
		fmt.Printf("put go/failover/k2: revision %d\n", p.Header.Revision)
	}
}
