//! httpd.rs -- the HTTP peer as hyper's users write it: hyper 1's HTTP/1
//! server on a current-thread tokio runtime, one task per connection,
//! serving index.html from memory (read once at start: hyper's best case,
//! where the C servers open and read the file for every request).
//!
//!     httpd PORT FILE
use std::convert::Infallible;

use bytes::Bytes;
use http_body_util::Full;
use hyper::{header, Request, Response};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

fn main() {
    let mut args = std::env::args().skip(1);
    let (port, file) = match (args.next(), args.next()) {
        (Some(p), Some(f)) => (p, f),
        _ => {
            eprintln!("usage: httpd PORT FILE");
            std::process::exit(2);
        }
    };
    let body = Bytes::from(std::fs::read(&file).expect("cannot read the file"));
    let rt = tokio::runtime::Builder::new_current_thread().enable_io().build().unwrap();
    rt.block_on(async move {
        let listener = TcpListener::bind(format!("127.0.0.1:{}", port)).await.unwrap();
        loop {
            let (stream, _) = match listener.accept().await {
                Ok(s) => s,
                Err(_) => continue, // out of fds: the next accept may succeed
            };
            let _ = stream.set_nodelay(true);
            let body = body.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |_req: Request<hyper::body::Incoming>| {
                    let body = body.clone();
                    async move {
                        Ok::<_, Infallible>(Response::builder()
                            .header(header::CONTENT_TYPE, "text/html")
                            .body(Full::new(body))
                            .unwrap())
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
}
