module ripper/bench/peers

go 1.21
