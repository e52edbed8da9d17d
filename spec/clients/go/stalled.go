package main

import (
	"context"
	"fmt"
	"time"

	"go.etcd.io/etcd/clientv3"
)

// stalledTopic: the runbook's Go holder whose own process stalls past its TTL. It keeps a 4 s lease alive
// with KeepAlive; the harness stops the whole process (SIGSTOP) 2 s after the start and continues it 7 s
// later. Step 3 of the runbook watches the channel (it closes: the holder knows it lost the lease); Step 5
// asks TimeToLive, which answers TTL -1 with a nil error for a lease that is gone.
func stalledTopic() {
	start := time.Now()
	c := connect()
	defer c.Close()
	cx, cancel := ctx()
	g, err := c.Grant(cx, 4)
	cancel()
	if err != nil {
		fmt.Println("grant error:", errText(err))
		return
	}
	cx, cancel = ctx()
	_, err = c.Put(cx, "go/stall/k", "held", clientv3.WithLease(g.ID))
	cancel()
	fmt.Printf("lease %016x granted with TTL(%d); go/stall/k put with it: %s\n", int64(g.ID), g.TTL, errText(err))
	fmt.Println("# the process is stopped from 2 s to 9 s")
	ch, err := c.KeepAlive(context.Background(), g.ID)
	if err != nil {
		fmt.Println("keepalive error:", errText(err))
		return
	}
	var last int64 = -2
	closed := false
	for deadline := time.After(time.Until(start.Add(14 * time.Second))); !closed; {
		select {
		case r, ok := <-ch:
			if !ok {
				closed = true
				fmt.Println("keepalive channel closed: the holder knows it lost the lease")
			} else if r.TTL != last {
				fmt.Printf("keepalive answer: TTL(%d)\n", r.TTL)
				last = r.TTL
			}
		case <-deadline:
			fmt.Println("keepalive channel still open at 14 s")
			closed = true
		}
	}
	cx, cancel = ctx()
	t, err := c.TimeToLive(cx, g.ID)
	cancel()
	if err != nil {
		fmt.Println("timetolive error:", errText(err))
	} else {
		fmt.Printf("timetolive after the stall: TTL(%d) error %s\n", t.TTL, errText(err))
	}
	cx, cancel = ctx()
	r, err := c.Get(cx, "go/stall/k")
	cancel()
	if err == nil {
		fmt.Printf("go/stall/k after the stall: count %d\n", r.Count)
	} else {
		fmt.Println("get error:", errText(err))
	}
}
