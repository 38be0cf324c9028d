//! A worker plays what its machine can afford: no more games at once than
//! cores, and no unit whose hash tables need more memory than is free. A
//! `hash_mb = 65536` campaign once made every small worker abort
//! (`memory allocation … failed`); now the worker declines it with the
//! arithmetic, the coordinator lists the reason, and the worker lives on.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;

use ajaxlab_cluster::coordinator::{Coordinator, Scope};
use ajaxlab_cluster::shutdown::Shutdown;
use ajaxlab_cluster::work::bench_signature;
use ajaxlab_cluster::worker::{WorkerConfig, WorkerError, run_worker};
use common::{Served, campaign_id, temp_dir};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn worker_config(served: &Served, token: String, threads: usize) -> WorkerConfig {
    WorkerConfig {
        threads,
        ..common::local_worker(&served.url, token, "small", temp_dir("resources-cache"))
    }
}

#[test]
fn a_unit_the_worker_cannot_afford_is_declined_and_more_threads_than_cores_refused() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let signature = bench_signature();
    let c = Arc::new(
        Coordinator::open(&temp_dir("resources"), Duration::from_secs(60), signature).unwrap(),
    );
    c.create_campaign(
        "variant = \"chess\"\ngames = 2\ntc = \"nodes=100\"\nhash_mb = 65536\n[campaign]\nname = \"huge\"\n",
    )
    .unwrap();
    let token = c.issue_token(Scope::Worker, "w").unwrap();
    runtime.block_on(async {
        let served = Served::start(Arc::clone(&c)).await;
        let cores = std::thread::available_parallelism().unwrap().get();
        let (_, shutdown) = Shutdown::new();
        let refused = run_worker(worker_config(&served, token.clone(), cores + 1), shutdown).await;
        assert!(
            matches!(refused, Err(WorkerError::Threads { .. })),
            "{refused:?}"
        );

        let (stop, shutdown) = Shutdown::new();
        let worker = tokio::spawn(run_worker(worker_config(&served, token, 1), shutdown));
        let start = Instant::now();
        let failures = loop {
            let failures = c.engine_failures(&campaign_id("huge")).unwrap();
            if !failures.is_empty() {
                break failures;
            }
            assert!(start.elapsed() < Duration::from_secs(120), "never declined");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert!(
            failures[0]
                .reason
                .contains("this worker cannot afford the unit")
                && failures[0].reason.contains("131072 MiB"),
            "{failures:?}"
        );
        stop.stop();
        let ended = worker.await.unwrap();
        assert!(ended.is_ok(), "the worker lives on: {ended:?}");
        served.stop().await;
    });
}
