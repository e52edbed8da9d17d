package main

import (
	"context"
	"fmt"
	"sort"
	"time"

	"go.etcd.io/etcd/clientv3"
)

// leaseTopic: Grant, KeepAliveOnce, TimeToLive with keys, a KeepAlive channel that a revoke from a second
// client closes, then what KeepAliveOnce, TimeToLive and Revoke say about the revoked lease.
func leaseTopic() {
	c1, c2 := connect(), connect()
	defer c1.Close()
	defer c2.Close()

	cx, cancel := ctx()
	g, err := c1.Grant(cx, 6)
	cancel()
	if err != nil {
		fmt.Println("grant error:", errText(err))
		return
	}
	id := g.ID
	fmt.Printf("grant: lease %016x TTL(%d)\n", int64(id), g.TTL)

	cx, cancel = ctx()
	p, err := c1.Put(cx, "go/lease/k", "v", clientv3.WithLease(id))
	cancel()
	if err == nil {
		fmt.Printf("put go/lease/k with lease: revision %d\n", p.Header.Revision)
	} else {
		fmt.Println("put error:", errText(err))
	}

	cx, cancel = ctx()
	once, err := c1.KeepAliveOnce(cx, id)
	cancel()
	if err == nil {
		fmt.Printf("keepaliveonce: lease %016x TTL(%d)\n", int64(once.ID), once.TTL)
	} else {
		fmt.Println("keepaliveonce error:", errText(err))
	}

	cx, cancel = ctx()
	t, err := c1.TimeToLive(cx, id, clientv3.WithAttachedKeys())
	cancel()
	printTTL("timetolive with keys", t, err)

	ch, err := c1.KeepAlive(context.Background(), id)
	if err != nil {
		fmt.Println("keepalive error:", errText(err))
		return
	}
	// Two answers: the first comes at once, the second a third of the TTL later.
	ttls := []int64{}
	for len(ttls) < 2 {
		select {
		case r, ok := <-ch:
			if !ok {
				fmt.Println("keepalive channel closed early")
				return
			}
			ttls = append(ttls, r.TTL)
		case <-time.After(step):
			fmt.Println("keepalive: no answer within", step)
			return
		}
	}
	fmt.Printf("keepalive: answers TTL(%d), TTL(%d)\n", ttls[0], ttls[1])

	cx, cancel = ctx()
	_, err = c2.Revoke(cx, id)
	cancel()
	fmt.Println("revoke from a second client:", errText(err))

	closed := false
	for deadline := time.After(step); !closed; {
		select {
		case r, ok := <-ch:
			if !ok {
				closed = true
			} else if r.TTL <= 0 {
				fmt.Println("keepalive: an answer with TTL", r.TTL, "reached the channel")
			}
		case <-deadline:
			fmt.Println("keepalive channel still open", step, "after the revoke")
			return
		}
	}
	fmt.Println("keepalive channel closed after the revoke")

	cx, cancel = ctx()
	_, err = c1.KeepAliveOnce(cx, id)
	cancel()
	fmt.Println("keepaliveonce after revoke:", errText(err))

	cx, cancel = ctx()
	t, err = c1.TimeToLive(cx, id)
	cancel()
	printTTL("timetolive after revoke", t, err)

	cx, cancel = ctx()
	r, err := c1.Get(cx, "go/lease/k")
	cancel()
	if err == nil {
		fmt.Printf("get go/lease/k after revoke: count=%d revision=%d\n", r.Count, r.Header.Revision)
	} else {
		fmt.Println("get error:", errText(err))
	}

	cx, cancel = ctx()
	_, err = c1.Revoke(cx, id)
	cancel()
	fmt.Println("revoke again:", errText(err))

	sharedStream(c1, c2)
}

// sharedStream: two leases kept alive by one client, which carries both on its one LeaseKeepAlive stream;
// revoking one closes only its channel.
func sharedStream(c1, c2 *clientv3.Client) {
	ids := []clientv3.LeaseID{}
	chans := []<-chan *clientv3.LeaseKeepAliveResponse{}
	for i := 0; i < 2; i++ {
		cx, cancel := ctx()
		g, err := c1.Grant(cx, 6)
		cancel()
		if err != nil {
			fmt.Println("grant error:", errText(err))
			return
		}
		ch, err := c1.KeepAlive(context.Background(), g.ID)
		if err != nil {
			fmt.Println("keepalive error:", errText(err))
			return
		}
		ids, chans = append(ids, g.ID), append(chans, ch)
	}
	for i, ch := range chans {
		select {
		case r, ok := <-ch:
			fmt.Printf("shared stream: lease %016x open %v TTL(%d)\n", int64(ids[i]), ok, r.TTL)
		case <-time.After(step):
			fmt.Printf("shared stream: lease %016x no answer within %s\n", int64(ids[i]), step)
		}
	}
	cx, cancel := ctx()
	_, err := c2.Revoke(cx, ids[0])
	cancel()
	fmt.Println("shared stream: first lease revoked by the second client:", errText(err))
	for deadline := time.After(step); ; {
		select {
		case _, ok := <-chans[0]:
			if ok {
				continue
			}
			fmt.Println("shared stream: the first lease's channel closed")
		case <-deadline:
			fmt.Println("shared stream: the first lease's channel still open", step, "after the revoke")
		}
		break
	}
	// The second lease's channel still gets answers (TTL/3 = 2 s apart).
	got := 0
	for deadline := time.After(step); got < 2; {
		select {
		case r, ok := <-chans[1]:
			if !ok {
				fmt.Println("shared stream: the second lease's channel closed")
				return
			}
			if r.TTL > 0 {
				got++
			}
		case <-deadline:
			fmt.Println("shared stream: the second lease got", got, "answers within", step)
			return
		}
	}
	fmt.Println("shared stream: the second lease still kept alive")
}

func printTTL(what string, t *clientv3.LeaseTimeToLiveResponse, err error) {
	if err != nil {
		fmt.Printf("%s error: %s\n", what, errText(err))
		return
	}
	keys := []string{}
	for _, k := range t.Keys {
		keys = append(keys, string(k))
	}
	// etcd answers a lease's keys in Go map order.
	sort.Strings(keys)
	fmt.Printf("%s: lease %016x granted with TTL(%ds), remaining(%ds), keys%v\n", what, int64(t.ID), t.GrantedTTL, t.TTL, keys)
}
