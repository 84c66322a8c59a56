// httpd -- the HTTP peer as Go's users write it: net/http serving a folder.
//
//	httpd PORT ROOT   (run with GOMAXPROCS=1 for one core)
package main

import (
	"log"
	"net/http"
	"os"
)

func main() {
	if len(os.Args) != 3 {
		log.Fatal("usage: httpd PORT ROOT")
	}
	log.Fatal(http.ListenAndServe("127.0.0.1:"+os.Args[1], http.FileServer(http.Dir(os.Args[2]))))
}
