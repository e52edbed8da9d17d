package main

import (
	"fmt"
	"time"

	"go.etcd.io/etcd/clientv3"
	"go.etcd.io/etcd/clientv3/concurrency"
)

// sessionTopic: two concurrency.Sessions on two clients contend for one Mutex (the second waits until the
// first unlocks, then holds it at a later revision); Session.Close revokes its lease; a session whose lease
// another client revokes sees Done.
func sessionTopic() {
	c1, c2 := connect(), connect()
	defer c1.Close()
	defer c2.Close()

	s1 := newSession("session 1", c1)
	s2 := newSession("session 2", c2)
	if s1 == nil || s2 == nil {
		return
	}
	m1 := concurrency.NewMutex(s1, "go/lock")
	m2 := concurrency.NewMutex(s2, "go/lock")

	cx, cancel := ctx()
	err := m1.Lock(cx)
	cancel()
	if err != nil {
		fmt.Println("mutex 1 lock error:", errText(err))
		return
	}
	fmt.Printf("mutex 1 locked: key %s revision %d\n", m1.Key(), m1.Header().Revision)

	got := make(chan error, 1)
	go func() {
		cx, cancel := ctx()
		defer cancel()
		got <- m2.Lock(cx)
	}()
	select {
	case err := <-got:
		fmt.Println("mutex 2 did not wait for mutex 1:", errText(err))
		return
	case <-time.After(1500 * time.Millisecond):
		fmt.Println("mutex 2 waits while mutex 1 holds the lock")
	}

	cx, cancel = ctx()
	err = m1.Unlock(cx)
	cancel()
	fmt.Println("mutex 1 unlock:", errText(err))

	select {
	case err := <-got:
		if err != nil {
			fmt.Println("mutex 2 lock error:", errText(err))
			return
		}
		fmt.Printf("mutex 2 locked: key %s revision %d\n", m2.Key(), m2.Header().Revision)
	case <-time.After(2 * step):
		fmt.Println("mutex 2 still waiting after mutex 1 unlocked")
		return
	}

	cx, cancel = ctx()
	r, err := c1.Get(cx, "go/lock", clientv3.WithPrefix())
	cancel()
	if err == nil {
		for _, kv := range r.Kvs {
			fmt.Printf("lock key %s create revision %d lease %016x\n", kv.Key, kv.CreateRevision, kv.Lease)
		}
	}

	cx, cancel = ctx()
	err = m2.Unlock(cx)
	cancel()
	fmt.Println("mutex 2 unlock:", errText(err))

	fmt.Println("session 1 close:", errText(s1.Close()))
	awaitDone("session 1", s1)
	cx, cancel = ctx()
	t, err := c1.TimeToLive(cx, s1.Lease())
	cancel()
	printTTL("session 1 lease after close", t, err)

	cx, cancel = ctx()
	_, err = c1.Revoke(cx, s2.Lease())
	cancel()
	fmt.Println("session 2's lease revoked by the other client:", errText(err))
	awaitDone("session 2", s2)
}

func newSession(name string, c *clientv3.Client) *concurrency.Session {
	s, err := concurrency.NewSession(c, concurrency.WithTTL(5))
	if err != nil {
		fmt.Println(name, "error:", errText(err))
		return nil
	}
	cx, cancel := ctx()
	t, err := c.TimeToLive(cx, s.Lease())
	cancel()
	printTTL(name+" lease", t, err)
	return s
}

func awaitDone(name string, s *concurrency.Session) {
	select {
	case <-s.Done():
		fmt.Println(name, "done")
	case <-time.After(2 * step):
		fmt.Println(name, "not done", 2*step, "later")
	}
}
