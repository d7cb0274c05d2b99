//! Where a worker's requests are answered: on the worker itself, or, for handlers that
//! wait on a database server ([`ServerOptions::blocking`](super::ServerOptions::blocking)),
//! on a thread of the worker's own beside it.
//!
//! A handler runs synchronously. On the worker, a call that waits (a PostgreSQL round
//! trip) holds up every connection of that worker meanwhile; and the `postgres` client,
//! which drives a runtime of its own, cannot be called inside the worker's, so each call
//! went to a thread started for it (`pkit_store::postgres::off_runtime`): about 50 µs of
//! thread start and exit per statement, a quarter of an ACME server's CPU on PostgreSQL
//! (docs/perf.md). On a thread of its own, outside any runtime, the handler makes its
//! calls directly, and the worker goes on reading and writing its other connections. The
//! two hops between the threads cost a few microseconds a request, which handlers that
//! only compute (their state in SQLite, or none) do not pay: they answer on the worker.
//!
//! The queue to the handler is bounded ([`QUEUE`]; past it, 503) and a request whose
//! client has gone by the time its turn comes is skipped: a client that sends and hangs
//! up, again and again, cannot pile up work the connection limit no longer counts, nor
//! keep a stopping server answering the departed.

use super::api::{Body, Handler, Reply, Request};
use hyper::body::Bytes;
use hyper::Method;
use std::cell::RefCell;
use std::net::SocketAddr;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Instant;
use tokio::sync::oneshot;

/// A request as it crosses to the handler's thread.
struct Owned {
    method: Method,
    target: String,
    content_type: Option<String>,
    accept: Option<String>,
    peer: SocketAddr,
    endpoint: usize,
    body: Body,
    received: Instant,
}

type Job = (Owned, oneshot::Sender<Reply>);

/// Requests waiting for one worker's handler, at most: a client has one request in
/// flight per connection, and a worker's connections are bounded by
/// [`ServerOptions::max_connections`](super::ServerOptions::max_connections) already.
const QUEUE: usize = 1024;

/// A worker's handler, where it answers.
pub(crate) enum Answerer<H> {
    /// On the worker.
    Here(RefCell<H>),
    /// On a thread of its own.
    Beside(Beside),
}

/// The handler's own thread and the queue of requests to it. Dropped, it closes the
/// queue and waits for the thread (and the handler it drops: a database connection
/// closed before the worker returns).
pub(crate) struct Beside {
    jobs: Option<mpsc::SyncSender<Job>>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Beside {
    fn drop(&mut self) {
        self.jobs.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl<H: Handler + Send> Answerer<H> {
    /// `handler` on the worker, or (`beside`) on a thread started now, named after the
    /// worker's with `-h`.
    pub(crate) fn new(handler: H, beside: bool) -> std::io::Result<Self> {
        if !beside {
            return Ok(Answerer::Here(RefCell::new(handler)));
        }
        let (jobs, queue) = mpsc::sync_channel::<Job>(QUEUE);
        let name = format!("{}-h", std::thread::current().name().unwrap_or("http"));
        let thread = std::thread::Builder::new().name(name).spawn(move || {
            let mut handler = handler;
            for (rq, reply) in queue {
                if reply.is_closed() {
                    // The connection ended while the request waited.
                    continue;
                }
                let answer = handler.handle(Request {
                    method: &rq.method,
                    target: &rq.target,
                    content_type: rq.content_type.as_deref(),
                    accept: rq.accept.as_deref(),
                    peer: rq.peer,
                    endpoint: rq.endpoint,
                    body: rq.body,
                    received: rq.received,
                });
                // A connection gone meanwhile does not want it.
                let _ = reply.send(answer);
            }
        })?;
        Ok(Answerer::Beside(Beside {
            jobs: Some(jobs),
            thread: Some(thread),
        }))
    }
}

impl<H: Handler> Answerer<H> {
    /// The handler's answer to `rq`; the worker serves its other connections while a
    /// handler beside it works.
    pub(crate) async fn answer(&self, rq: Request<'_>) -> Reply {
        let beside = match self {
            Answerer::Here(handler) => return handler.borrow_mut().handle(rq),
            Answerer::Beside(b) => b,
        };
        let (reply, answered) = oneshot::channel();
        let owned = Owned {
            method: rq.method.clone(),
            target: rq.target.to_owned(),
            content_type: rq.content_type.map(str::to_owned),
            accept: rq.accept.map(str::to_owned),
            peer: rq.peer,
            endpoint: rq.endpoint,
            body: rq.body,
            received: rq.received,
        };
        let Some(jobs) = &beside.jobs else {
            return handler_gone();
        };
        match jobs.try_send((owned, reply)) {
            Ok(()) => answered.await.unwrap_or_else(|_| handler_gone()),
            Err(mpsc::TrySendError::Full(_)) => busy(),
            Err(mpsc::TrySendError::Disconnected(_)) => handler_gone(),
        }
    }
}

/// The answer when [`QUEUE`] requests wait already.
fn busy() -> Reply {
    Reply {
        status: 503,
        content_type: "text/plain; charset=utf-8",
        headers: &[("retry-after", "1")],
        made_headers: Vec::new(),
        body: Bytes::from_static(b"busy: too many requests wait for this worker\n"),
        log: Vec::new(),
    }
}

/// The answer when the handler's thread has ended (it panicked): the request is not
/// lost silently.
fn handler_gone() -> Reply {
    Reply {
        status: 500,
        content_type: "text/plain; charset=utf-8",
        headers: &[],
        made_headers: Vec::new(),
        body: Bytes::from_static(b"internal error: this worker's handler has stopped\n"),
        log: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    /// Answers with the name of the thread it ran on; says when it is dropped.
    struct Where(Arc<AtomicBool>);

    impl Handler for Where {
        fn handle(&mut self, rq: Request<'_>) -> Reply {
            let on = std::thread::current().name().unwrap_or("?").to_owned();
            let Body::Read(body) = rq.body else {
                panic!("a body")
            };
            Reply {
                status: 200,
                content_type: "text/plain",
                headers: &[],
                made_headers: Vec::new(),
                body: format!("{on} {} {} {}", rq.method, rq.target, body.len()).into(),
                log: Vec::new(),
            }
        }
    }

    impl Drop for Where {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    fn ask(a: &Answerer<Where>) -> String {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let method = Method::POST;
        let reply = rt.block_on(a.answer(Request {
            method: &method,
            target: "/x?y",
            content_type: None,
            accept: None,
            peer: "127.0.0.1:9".parse().unwrap(),
            endpoint: 0,
            body: Body::Read(Bytes::from_static(b"abc")),
            received: Instant::now(),
        }));
        assert_eq!(reply.status, 200);
        String::from_utf8(reply.body.to_vec()).unwrap()
    }

    #[test]
    fn a_blocking_handler_answers_from_its_own_thread_and_ends_with_the_worker() {
        let dropped = Arc::new(AtomicBool::new(false));
        let worker = std::thread::Builder::new()
            .name("http-7".into())
            .spawn({
                let dropped = Arc::clone(&dropped);
                move || {
                    let a = Answerer::new(Where(Arc::clone(&dropped)), true).unwrap();
                    let first = ask(&a);
                    let second = ask(&a);
                    drop(a);
                    // Dropped, the thread was joined and the handler with it.
                    assert!(dropped.load(Ordering::SeqCst));
                    (first, second)
                }
            })
            .unwrap();
        let (first, second) = worker.join().unwrap();
        assert_eq!(first, "http-7-h POST /x?y 3");
        assert_eq!(second, first);
    }

    /// Waits for the gate before each answer; counts its answers.
    struct Gated(mpsc::Receiver<()>, Arc<std::sync::atomic::AtomicUsize>);

    impl Handler for Gated {
        fn handle(&mut self, _: Request<'_>) -> Reply {
            let _ = self.0.recv();
            self.1.fetch_add(1, Ordering::SeqCst);
            busy()
        }
    }

    #[test]
    fn a_request_whose_client_left_is_not_answered() {
        let (gate, wait) = mpsc::channel();
        let answered = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let a = Answerer::new(Gated(wait, Arc::clone(&answered)), true).unwrap();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        let method = Method::GET;
        let rq = || Request {
            method: &method,
            target: "/",
            content_type: None,
            accept: None,
            peer: "127.0.0.1:9".parse().unwrap(),
            endpoint: 0,
            body: Body::Read(Bytes::new()),
            received: Instant::now(),
        };
        rt.block_on(async {
            let first = a.answer(rq());
            let gone = async {
                // The second waits behind the first, then its client goes away.
                let r = tokio::time::timeout(Duration::from_millis(50), a.answer(rq())).await;
                assert!(r.is_err(), "answered while the handler was held");
                gate.send(()).unwrap();
            };
            let (first, ()) = tokio::join!(first, gone);
            assert_eq!(first.status, 503);
        });
        // A third is answered; the second never was.
        gate.send(()).unwrap();
        assert_eq!(rt.block_on(a.answer(rq())).status, 503);
        drop(a);
        assert_eq!(answered.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_computing_handler_answers_on_the_worker() {
        let dropped = Arc::new(AtomicBool::new(false));
        let on = std::thread::spawn({
            let dropped = Arc::clone(&dropped);
            move || ask(&Answerer::new(Where(dropped), false).unwrap())
        });
        assert!(
            on.join().unwrap().starts_with("? POST"),
            "unnamed: the test's own thread"
        );
        assert!(dropped.load(Ordering::SeqCst));
    }
}
