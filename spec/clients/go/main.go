// A lease holder's calls through etcd 3.4.23's clientv3, for the client conformance suite: each topic
// prints one line per outcome a caller can observe (lease IDs in hex, errors by their text), so the
// harness can compare a real etcd cluster with lessor-sim serve. Endpoints come from ETCDCTL_ENDPOINTS.
package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"go.etcd.io/etcd/clientv3"
)

// step bounds every call: a server that never answers shows as a deadline error, not a hang.
const step = 10 * time.Second

func connect() *clientv3.Client {
	eps := strings.Split(os.Getenv("ETCDCTL_ENDPOINTS"), ",")
	c, err := clientv3.New(clientv3.Config{Endpoints: eps, DialTimeout: 5 * time.Second})
	if err != nil {
		fmt.Println("connect error:", err)
		os.Exit(1)
	}
	return c
}

func ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), step)
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func main() {
	topics := map[string]func(){"lease": leaseTopic, "session": sessionTopic, "failover": failoverTopic, "kv": kvTopic, "stalled": stalledTopic, "partitioned": partitionedTopic}
	if len(os.Args) != 2 || topics[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: clients lease|session|failover|kv|stalled|partitioned")
		os.Exit(2)
	}
	topics[os.Args[1]]()
}
