package main

// A holder that does not trust a stream to tell it about loss. Each renewal is one KeepAliveOnce given
// TTL/3 to answer; a renewal sent at instant S and answered with TTL T lets it act until S+T-margin on
// its own monotonic clock (the lease cannot expire before S+T on the server). Before every write it
// checks that deadline, so a stall past it (GC pause, SIGSTOP) ends its acting however late it wakes.
// It takes the lock only when the key is free (a Txn on CreateRevision == 0).

import (
	"context"
	"fmt"
	"sync"
	"time"

	"go.etcd.io/etcd/clientv3"
	"go.etcd.io/etcd/etcdserver/api/v3rpc/rpctypes"
)

type deadline struct {
	mu    sync.Mutex
	until time.Time
	done  bool
}

func (d *deadline) extend(t time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.done && t.After(d.until) {
		d.until = t
	}
}

// stop ends acting once; it returns how long ago the deadline passed, or -1 if already stopped.
func (d *deadline) stop() time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.done {
		return -1
	}
	d.done = true
	late := time.Since(d.until)
	if late < 0 {
		late = 0
	}
	return late
}

func (d *deadline) acting() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return !d.done && time.Now().Before(d.until)
}

func acquire(ctx context.Context, cli *clientv3.Client, s settings, end time.Time) (clientv3.LeaseID, int64, time.Time, bool) {
	for time.Now().Before(end) {
		sent := time.Now()
		try, tryDone := context.WithTimeout(ctx, 5*time.Second)
		grant, err := cli.Grant(try, s.ttl)
		if err == nil {
			var txn *clientv3.TxnResponse
			txn, err = cli.Txn(try).
				If(clientv3.Compare(clientv3.CreateRevision(s.key), "=", 0)).
				Then(clientv3.OpPut(s.key, s.name, clientv3.WithLease(grant.ID))).
				Commit()
			if err == nil && txn.Succeeded {
				tryDone()
				return grant.ID, txn.Header.Revision, sent.Add(time.Duration(grant.TTL) * time.Second), true
			}
			_, _ = cli.Revoke(try, grant.ID)
		}
		tryDone()
		if err != nil {
			say("acquire failed: %v", err)
		}
		time.Sleep(300 * time.Millisecond)
	}
	return 0, 0, time.Time{}, false
}

func runCorrect(s settings) {
	cli := newClient(s)
	defer cli.Close()
	ctx := context.Background()
	end := time.Now().Add(s.runFor)

	id, token, expiry, ok := acquire(ctx, cli, s, end)
	if !ok {
		say("never acquired %s", s.key)
		return
	}
	d := &deadline{until: expiry.Add(-s.margin)}
	s.believe(true, map[string]interface{}{
		"lease": leaseString(id), "token": token, "key": s.key,
		"validForMs": time.Until(d.until).Milliseconds(),
	})
	stop := func(why string) {
		if late := d.stop(); late >= 0 {
			say("stopped: %s", why)
			s.believe(false, map[string]interface{}{"reason": why, "stoppedAgoMs": late.Milliseconds()})
		}
	}

	go func() {
		every := time.Duration(s.ttl) * time.Second / 3
		for time.Now().Before(end) {
			time.Sleep(every)
			sent := time.Now()
			rctx, cancel := context.WithTimeout(ctx, every)
			ka, err := cli.KeepAliveOnce(rctx, id)
			cancel()
			switch {
			case err == rpctypes.ErrLeaseNotFound:
				stop("lease not found")
				return
			case err != nil:
				say("renewal failed: %v", err)
			default:
				d.extend(sent.Add(time.Duration(ka.TTL)*time.Second - s.margin))
				say("renewed ttl=%d", ka.TTL)
				if d.acting() {
					s.believe(true, map[string]interface{}{
						"lease": leaseString(id), "token": token, "key": s.key,
						"validForMs": time.Until(d.until).Milliseconds(),
					})
				}
			}
		}
	}()

	for n := 1; time.Now().Before(end); n++ {
		time.Sleep(s.writeEvery)
		if !d.acting() {
			stop("own deadline passed")
			continue
		}
		s.write(token, fmt.Sprintf("%s-%d", s.name, n))
	}
	stop("end")
	_, _ = cli.Revoke(ctx, id)
	say("done")
}
