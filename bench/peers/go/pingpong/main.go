// pingpong -- two goroutines hand a token back and forth over two
// unbuffered channels: the cost of one switch.
//
//	pingpong [ROUNDS]   -> "pingpong 2000000 switches in 21.0 ms: 10.5 ns/switch"
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

func main() {
	rounds := int64(1000000)
	if len(os.Args) > 1 {
		rounds, _ = strconv.ParseInt(os.Args[1], 10, 64)
	}
	ping, pong := make(chan int64), make(chan int64)
	go func() {
		for token := range ping {
			pong <- token
		}
	}()
	t0 := time.Now()
	for i := int64(0); i < rounds; i++ {
		ping <- i
		<-pong
	}
	ms := float64(time.Since(t0).Nanoseconds()) / 1e6
	close(ping)
	fmt.Printf("pingpong %d switches in %.1f ms: %.1f ns/switch\n", 2*rounds, ms,
		ms*1e6/float64(2*rounds))
}
