package main

// What every holder here shares with the test harness: where the cluster is (ETCDCTL_ENDPOINTS or
// ETCD_ENDPOINTS), the fenced resource it writes to (RESOURCE_URL) and where it reports what it
// believes (BELIEFS_URL/HOLDER_NAME). Nothing here knows which strategy is running.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"go.etcd.io/etcd/clientv3"
)

type settings struct {
	name       string
	endpoints  []string
	key        string
	ttl        int64
	runFor     time.Duration
	writeEvery time.Duration
	margin     time.Duration
	resource   string
	beliefs    string
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func envMillis(name string, fallback int) time.Duration {
	n, err := strconv.Atoi(envOr(name, strconv.Itoa(fallback)))
	if err != nil || n < 0 {
		fail(2, "%s must be a whole number of milliseconds", name)
	}
	return time.Duration(n) * time.Millisecond
}

func loadSettings(strategy string) settings {
	raw := envOr("ETCDCTL_ENDPOINTS", os.Getenv("ETCD_ENDPOINTS"))
	if raw == "" {
		fail(2, "set ETCDCTL_ENDPOINTS or ETCD_ENDPOINTS (comma-separated URLs)")
	}
	ttl, err := strconv.ParseInt(envOr("LEASE_TTL", "9"), 10, 64)
	if err != nil || ttl < 1 {
		fail(2, "LEASE_TTL must be a whole number of seconds >= 1")
	}
	return settings{
		name:       envOr("HOLDER_NAME", strategy),
		endpoints:  strings.Split(raw, ","),
		key:        envOr("LOCK_KEY", "/locks/payment-42"),
		ttl:        ttl,
		runFor:     envMillis("RUN_MS", 30000),
		writeEvery: envMillis("WRITE_EVERY_MS", 1000),
		margin:     envMillis("MARGIN_MS", 1000),
		resource:   os.Getenv("RESOURCE_URL"),
		beliefs:    os.Getenv("BELIEFS_URL"),
	}
}

func fail(code int, format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "holder: "+format+"\n", args...)
	os.Exit(code)
}

func say(format string, args ...interface{}) {
	fmt.Printf(format+"\n", args...)
}

var web = &http.Client{Timeout: 2 * time.Second}

func post(url string, body map[string]interface{}) (int, error) {
	b, _ := json.Marshal(body)
	resp, err := web.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// write offers one write to the fenced resource with the fencing token; true when it was accepted.
func (s settings) write(token int64, value string) bool {
	if s.resource == "" {
		say("write token=%d (no RESOURCE_URL)", token)
		return true
	}
	code, err := post(s.resource, map[string]interface{}{"holder": s.name, "token": token, "value": value})
	switch {
	case err != nil:
		say("write token=%d error=%q", token, err.Error())
		return false
	case code == http.StatusOK:
		say("write token=%d accepted", token)
		return true
	default:
		say("write token=%d rejected", token)
		return false
	}
}

// believe reports what the holder now believes; extra carries lease, token, key, validForMs or reason.
func (s settings) believe(holding bool, extra map[string]interface{}) {
	body := map[string]interface{}{"holding": holding}
	for k, v := range extra {
		body[k] = v
	}
	say("belief holding=%v %v", holding, extra)
	if s.beliefs == "" {
		return
	}
	if _, err := post(s.beliefs+"/"+s.name, body); err != nil {
		say("belief not delivered: %v", err)
	}
}

func newClient(s settings) *clientv3.Client {
	cli, err := clientv3.New(clientv3.Config{Endpoints: s.endpoints, DialTimeout: 5 * time.Second})
	if err != nil {
		fail(1, "cannot connect: %v", err)
	}
	return cli
}

func leaseString(id clientv3.LeaseID) string {
	return strconv.FormatInt(int64(id), 10)
}
