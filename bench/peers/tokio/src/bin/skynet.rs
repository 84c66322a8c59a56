//! skynet.rs -- the skynet benchmark on tokio: a task per node (tokio::spawn),
//! each leaf sends its number to its parent over an mpsc channel.
//!
//!     skynet [LEAVES]   -> "skynet 499999500000 in 123.4 ms, peak RSS 56.7 MiB"
use std::time::Instant;
use tokio::sync::mpsc;

fn skynet(tx: mpsc::Sender<i64>, num: i64, size: i64) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> {
    Box::pin(async move {
        if size == 1 {
            let _ = tx.send(num).await;
            return;
        }
        let step = size / 10;
        let (ctx, mut crx) = mpsc::channel(10);
        for i in 0..10 {
            tokio::spawn(skynet(ctx.clone(), num + i * step, step));
        }
        drop(ctx);
        let mut sum = 0;
        for _ in 0..10 {
            sum += crx.recv().await.unwrap();
        }
        let _ = tx.send(sum).await;
    })
}

fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map(|kb| kb / 1024.0)
        .unwrap_or(0.0)
}

fn main() {
    let leaves: i64 = std::env::args().nth(1).map(|a| a.parse().unwrap()).unwrap_or(1_000_000);
    let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
    rt.block_on(async {
        let (tx, mut rx) = mpsc::channel(1);
        let t0 = Instant::now();
        tokio::spawn(skynet(tx, 0, leaves));
        let sum = rx.recv().await.unwrap();
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        println!("skynet {} in {:.1} ms, peak RSS {:.1} MiB", sum, ms, peak_rss_mib());
    });
}
