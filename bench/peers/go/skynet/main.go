// skynet.go -- the skynet benchmark as Go's users write it: a goroutine per
// node, each leaf sends its number to its parent's channel.
//
//	skynet [LEAVES]   -> "skynet 499999500000 in 123.4 ms, peak RSS 56.7 MiB"
package main

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
)

func skynet(c chan<- int64, num, size int64) {
	if size == 1 {
		c <- num
		return
	}
	step := size / 10
	rc := make(chan int64, 10)
	for i := int64(0); i < 10; i++ {
		go skynet(rc, num+i*step, step)
	}
	var sum int64
	for i := 0; i < 10; i++ {
		sum += <-rc
	}
	c <- sum
}

func main() {
	leaves := int64(1000000)
	if len(os.Args) > 1 {
		leaves, _ = strconv.ParseInt(os.Args[1], 10, 64)
	}
	c := make(chan int64, 1)
	t0 := time.Now()
	go skynet(c, 0, leaves)
	sum := <-c
	ms := float64(time.Since(t0).Nanoseconds()) / 1e6
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	fmt.Printf("skynet %d in %.1f ms, peak RSS %.1f MiB\n", sum, ms, float64(ru.Maxrss)/1024)
}
