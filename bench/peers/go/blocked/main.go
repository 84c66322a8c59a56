// blocked -- N goroutines spawned and blocked on one channel, then released
// by closing it: memory per blocked goroutine, time to spawn and release.
//
//	blocked [N]   -> "blocked 1000000 tasks: 2600 bytes/task, spawn 300.0 ns/task, release 200.0 ms"
package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

func rssBytes() int64 {
	data, _ := os.ReadFile("/proc/self/statm")
	fields := strings.Fields(string(data))
	if len(fields) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(fields[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

func main() {
	n := 1000000
	if len(os.Args) > 1 {
		n, _ = strconv.Atoi(os.Args[1])
	}
	gate := make(chan struct{})
	var started, finished sync.WaitGroup
	started.Add(n)
	finished.Add(n)
	before := rssBytes()
	t0 := time.Now()
	for i := 0; i < n; i++ {
		go func() {
			started.Done()
			<-gate
			finished.Done()
		}()
	}
	started.Wait()
	t1 := time.Now()
	after := rssBytes()
	close(gate)
	finished.Wait()
	t2 := time.Now()
	fmt.Printf("blocked %d tasks: %.0f bytes/task, spawn %.1f ns/task, release %.1f ms\n", n,
		float64(after-before)/float64(n), float64(t1.Sub(t0).Nanoseconds())/float64(n),
		float64(t2.Sub(t1).Nanoseconds())/1e6)
}
