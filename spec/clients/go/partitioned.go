package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"go.etcd.io/etcd/clientv3"
)

// partitionedTopic: a 30 s lease kept alive with a require-leader KeepAlive by a client that talks to n1
// alone, while serve's scenario cuts n1, the leader, off from n2 and n3 3 s after the start. The isolated
// n1 loses its leader, its require-leader stream ends with "etcdserver: no leader" and clientv3 closes the
// keep-alive channel at once (closeRequireLeader), long before the lease's TTL; a second client on n2
// finds the lease still alive on the majority, with its key, and revokes it.
func partitionedTopic() {
	start := time.Now()
	eps := strings.Split(os.Getenv("ETCDCTL_ENDPOINTS"), ",")
	c, err := clientv3.New(clientv3.Config{Endpoints: eps[:1], DialTimeout: 5 * time.Second})
	if err != nil {
		fmt.Println("connect error:", err)
		return
	}
	defer c.Close()

	cx, cancel := ctx()
	g, err := c.Grant(cx, 30)
	cancel()
	if err != nil {
		fmt.Println("grant error:", errText(err))
		return
	}
	fmt.Printf("grant: lease %016x TTL(%d)\n", int64(g.ID), g.TTL)
	cx, cancel = ctx()
	_, err = c.Put(cx, "go/part/k", "v", clientv3.WithLease(g.ID))
	cancel()
	fmt.Println("put go/part/k with lease:", errText(err))

	ch, err := c.KeepAlive(clientv3.WithRequireLeader(context.Background()), g.ID)
	if err != nil {
		fmt.Println("keepalive error:", errText(err))
		return
	}
	fmt.Println("# n1 is cut off from n2 and n3 3 s after the start")
	before, closedAt := 0, time.Duration(0)
	deadline := time.After(time.Until(start.Add(20 * time.Second)))
	for waiting := true; waiting && closedAt == 0; {
		select {
		case r, ok := <-ch:
			switch {
			case !ok:
				closedAt = time.Since(start)
			case time.Since(start) < 3*time.Second && r.TTL > 0:
				before++
			}
		case <-deadline:
			waiting = false
		}
	}
	fmt.Println("keepalive answers before the partition:", before > 0)
	fmt.Println("keepalive channel closed:", closedAt > 0)
	// The lease's own deadline (its last answer plus 30 s) is far off: only the lost leader closes it this soon.
	fmt.Println("closed within 14 s of the start:", closedAt > 0 && closedAt < 14*time.Second)
	time.Sleep(time.Until(start.Add(14 * time.Second)))

	m, err := clientv3.New(clientv3.Config{Endpoints: eps[1:2], DialTimeout: 5 * time.Second})
	if err != nil {
		fmt.Println("connect n2 error:", err)
		return
	}
	defer m.Close()
	cx, cancel = ctx()
	t, err := m.TimeToLive(cx, g.ID)
	cancel()
	if err != nil {
		fmt.Println("timetolive via n2 error:", errText(err))
	} else {
		fmt.Printf("timetolive via n2: granted TTL(%d), alive: %v\n", t.GrantedTTL, t.TTL > 0)
	}
	cx, cancel = ctx()
	r, err := m.Get(cx, "go/part/k")
	cancel()
	if err != nil {
		fmt.Println("get via n2 error:", errText(err))
	} else {
		fmt.Printf("get go/part/k via n2: count=%d\n", r.Count)
	}
	cx, cancel = ctx()
	_, err = m.Revoke(cx, g.ID)
	cancel()
	fmt.Println("revoke via n2:", errText(err))
}
