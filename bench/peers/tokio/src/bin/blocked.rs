//! blocked.rs -- N tokio tasks spawned and blocked on one Notify, then
//! released: memory per blocked task, time to spawn and release them.
//!
//!     blocked [N]   -> "blocked 1000000 tasks: 200 bytes/task, spawn 100.0 ns/task, release 50.0 ms"
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::Notify;

fn rss_bytes() -> i64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: i64 = statm.split_whitespace().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0);
    pages * 4096
}

fn main() {
    let n: usize = std::env::args().nth(1).map(|a| a.parse().unwrap()).unwrap_or(1_000_000);
    let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
    rt.block_on(async {
        let gate = Arc::new(Notify::new());
        let started = Arc::new(AtomicUsize::new(0));
        let before = rss_bytes();
        let t0 = Instant::now();
        let mut handles = Vec::with_capacity(n);
        for _ in 0..n {
            let gate = gate.clone();
            let started = started.clone();
            handles.push(tokio::spawn(async move {
                let wait = gate.notified();
                started.fetch_add(1, Ordering::Relaxed);
                wait.await;
            }));
        }
        while started.load(Ordering::Relaxed) < n {
            tokio::task::yield_now().await;
        }
        let t1 = Instant::now();
        let after = rss_bytes();
        gate.notify_waiters();
        for h in handles {
            h.await.unwrap();
        }
        let t2 = Instant::now();
        println!("blocked {} tasks: {:.0} bytes/task, spawn {:.1} ns/task, release {:.1} ms", n,
                 (after - before) as f64 / n as f64,
                 (t1 - t0).as_secs_f64() * 1e9 / n as f64, (t2 - t1).as_secs_f64() * 1e3);
    });
}
