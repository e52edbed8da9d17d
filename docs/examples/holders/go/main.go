// Lease holders on clientv3 (etcd 3.4), for lessor-sim's "Test your own lease holder":
//
//	holder step3    the runbook's Step 3: KeepAlive, onLost when the channel closes
//	holder step5    the runbook's Step 5: on close, confirm with TimeToLive; onLost only on an error
//	holder correct  renews with KeepAliveOnce and stops acting at its own deadline
//
// Each takes a lock key with a lease, writes to the fenced resource once per WRITE_EVERY_MS with its
// fencing token while it believes it holds the lock, and exits 0 after RUN_MS (1: could not reach the
// cluster, 2: bad settings).
package main

import "os"

func main() {
	if len(os.Args) != 2 {
		fail(2, "usage: holder step3|step5|correct")
	}
	switch os.Args[1] {
	case "step3", "step5":
		runRunbook(loadSettings(os.Args[1]), os.Args[1] == "step5")
	case "correct":
		runCorrect(loadSettings("correct"))
	default:
		fail(2, "unknown strategy %q (step3, step5 or correct)", os.Args[1])
	}
}
