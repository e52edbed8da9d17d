package main

// The runbook's Steps 1-5 as written: Grant, Put with the lease (the Put's header revision is the
// fencing token), KeepAlive, and onLost when the keep-alive channel closes while the context is live.
// Step 5 first asks TimeToLive and calls onLost only if that returns an error.

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"go.etcd.io/etcd/clientv3"
)

func runRunbook(s settings, confirm bool) {
	cli := newClient(s)
	defer cli.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	// Steps 1 and 2, bounded so that an unreachable cluster is exit 1 rather than a hang.
	setup, setupDone := context.WithTimeout(ctx, 10*time.Second)
	grant, err := cli.Grant(setup, s.ttl)
	if err != nil {
		fail(1, "grant: %v", err)
	}
	put, err := cli.Put(setup, s.key, s.name, clientv3.WithLease(grant.ID))
	setupDone()
	if err != nil {
		fail(1, "put: %v", err)
	}
	token := put.Header.Revision
	var holding int32 = 1
	s.believe(true, map[string]interface{}{"lease": leaseString(grant.ID), "token": token, "key": s.key})

	onLost := func(why string) {
		if atomic.CompareAndSwapInt32(&holding, 1, 0) {
			say("lost: %s", why)
			s.believe(false, map[string]interface{}{"reason": why})
		}
	}
	ch, err := cli.KeepAlive(ctx, grant.ID)
	if err != nil {
		fail(1, "keepalive: %v", err)
	}
	go func() {
		for ka := range ch {
			say("renewed ttl=%d", ka.TTL)
		}
		if ctx.Err() != nil {
			return
		}
		if !confirm {
			onLost("keepalive channel closed")
			return
		}
		say("keepalive channel closed; confirming with TimeToLive")
		ttl, ttlErr := cli.TimeToLive(ctx, grant.ID)
		if ttlErr != nil {
			onLost(fmt.Sprintf("timetolive error: %v", ttlErr))
			return
		}
		say("timetolive ttl=%d err=<nil>: still held", ttl.TTL)
	}()

	end := time.Now().Add(s.runFor)
	for n := 1; time.Now().Before(end); n++ {
		time.Sleep(s.writeEvery)
		if atomic.LoadInt32(&holding) == 1 {
			s.write(token, fmt.Sprintf("%s-%d", s.name, n))
		}
	}
	if atomic.CompareAndSwapInt32(&holding, 1, 0) {
		s.believe(false, map[string]interface{}{"reason": "end"})
	}
	say("done")
}
