//! `ajaxlab loadgen`: a coordinator of its own under simulated workers
//! (its throughput and request latency), optionally with live web UI pages
//! open (the same load measured without them first, in the same run), or
//! the web UI's largest pages timed over a coordinator of many campaigns
//! and workers (`--pages`).

use super::cluster::runtime;
use super::out::outln;
use ajaxlab_cluster::loadgen::{LoadPlan, LoadReport, PageTimes, page_times, run_load};
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `ajaxlab loadgen`.
#[derive(Debug, clap::Args)]
pub(crate) struct LoadgenArgs {
    /// Simulated workers (with `--pages`: workers registered).
    #[arg(long, default_value_t = 1000)]
    workers: usize,
    /// How long to run.
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// HTTP/2 connections the workers share.
    #[arg(long, default_value_t = 16)]
    channels: usize,
    /// Games each simulated worker plays per second (it waits before
    /// submitting, as a real worker does); 0 submits at once, to find the
    /// most the coordinator takes.
    #[arg(long, default_value_t = 0.0)]
    worker_rate: f64,
    /// Seconds over which the workers start; as long as a unit
    /// (`--unit-seconds`) for a cluster's steady state, where the workers'
    /// units are out of step.
    #[arg(long, default_value_t = 0)]
    ramp_up: u64,
    /// Seconds before measuring starts (default: the ramp-up, plus one unit
    /// when workers play at `--worker-rate`, since their first units are
    /// single pairs while the coordinator learns their speed).
    #[arg(long)]
    warm_up: Option<u64>,
    /// Load an SPSA campaign (a perturbation per unit, θ moved by each
    /// result) instead of a plain match.
    #[arg(long)]
    spsa: bool,
    /// The coordinator's unit size in seconds of a worker's play (the
    /// coordinator's `unit_seconds`; real coordinators default to 180).
    #[arg(long, default_value_t = 180)]
    unit_seconds: u64,
    /// The coordinator's lease in seconds (its `lease_seconds`); the
    /// simulated workers renew at a third of it, as real ones do.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(5..=3600))]
    lease_seconds: u64,
    /// Also run the load with this many web UI pages open, each following
    /// the live updates as a browser does (half on the campaign's page,
    /// half on the list): the load runs first without them, then with
    /// them, and the two p99s are compared.
    #[arg(long, default_value_t = 0)]
    live_pages: usize,
    /// With `--live-pages`: run the pair (without pages, then with) this
    /// many times and give each pair's p99 ratio and their median. A p99
    /// moves between runs of the same load by more than what is measured
    /// (on a 2-core machine, ±30%): one pair tells little.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=50))]
    repeat: u32,
    /// Instead of a load, time the web UI's campaigns list and workers page
    /// over a coordinator of `--campaigns` campaigns and `--workers`
    /// registered workers.
    #[arg(long)]
    pages: bool,
    /// With `--pages`: campaigns stored.
    #[arg(long, default_value_t = 1000)]
    campaigns: usize,
}

impl LoadgenArgs {
    fn plan(&self, live_pages: usize) -> LoadPlan {
        let warm_up = self.warm_up.unwrap_or(
            self.ramp_up
                + if self.worker_rate > 0.0 {
                    self.unit_seconds
                } else {
                    0
                },
        );
        LoadPlan {
            workers: self.workers,
            duration: Duration::from_secs(self.seconds),
            channels: self.channels,
            worker_games_per_second: (self.worker_rate > 0.0).then_some(self.worker_rate),
            ramp_up: Duration::from_secs(self.ramp_up),
            warm_up: Duration::from_secs(warm_up),
            spsa: self.spsa,
            unit_duration: Duration::from_secs(self.unit_seconds.max(1)),
            lease: Duration::from_secs(self.lease_seconds),
            live_pages,
        }
    }
}

/// Requests of each page with `--pages`.
const PAGE_REPEATS: usize = 9;

/// A fresh state directory for one run.
fn scratch(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ajaxlab-loadgen-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// `ajaxlab loadgen`.
pub(crate) fn loadgen(args: &LoadgenArgs) -> anyhow::Result<ExitCode> {
    let runtime = runtime()?;
    if args.pages {
        let dir = scratch("pages");
        let times = runtime.block_on(page_times(&dir, args.campaigns, args.workers, PAGE_REPEATS));
        let _ = std::fs::remove_dir_all(&dir);
        print_pages(&times.map_err(anyhow::Error::msg)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut runs = vec![0];
    if args.live_pages > 0 {
        runs.push(args.live_pages);
    }
    let repeats = if args.live_pages > 0 { args.repeat } else { 1 };
    let mut ratios = Vec::new();
    for _ in 0..repeats {
        let mut p99s = Vec::new();
        for &pages in &runs {
            let dir = scratch(&pages.to_string());
            let report = runtime.block_on(run_load(&dir, &args.plan(pages)));
            let _ = std::fs::remove_dir_all(&dir);
            let r = report.map_err(anyhow::Error::msg)?;
            print_load(args, pages, &r)?;
            p99s.push(r.p99);
        }
        if let [without, with] = p99s[..] {
            let ratio = with.as_secs_f64() / without.as_secs_f64().max(1e-9);
            outln!(
                "p99 with {} live pages over p99 without: {ratio:.3}",
                args.live_pages
            )?;
            ratios.push(ratio);
        }
    }
    if ratios.len() > 1 {
        ratios.sort_by(f64::total_cmp);
        let shown: Vec<String> = ratios.iter().map(|r| format!("{r:.3}")).collect();
        outln!(
            "p99 ratios of {} pairs: {} (median {:.3})",
            ratios.len(),
            shown.join(", "),
            median(&ratios)
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The median of sorted `values`.
fn median(values: &[f64]) -> f64 {
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

fn print_load(args: &LoadgenArgs, pages: usize, r: &LoadReport) -> anyhow::Result<()> {
    if args.live_pages > 0 {
        outln!(
            "== {pages} live web UI pages open (parts received: {})",
            r.fragments_received
        )?;
    }
    outln!(
        "workers {}  errors {}  measured over the last {:.0} s:",
        r.workers,
        r.errors,
        r.window.as_secs_f64()
    )?;
    if args.worker_rate > 0.0 {
        outln!(
            "games offered {:.0}/s",
            args.workers as f64 * args.worker_rate
        )?;
    }
    outln!("games validated and stored {:.0}/s", r.games_per_second)?;
    outln!(
        "requests {} (lease renewals in the whole run: {})  latency p50 {:.1} ms  p99 {:.1} ms  (p99 over the whole run {:.1} ms)",
        r.requests,
        r.renewals,
        ms(r.p50),
        ms(r.p99),
        ms(r.p99_whole_run)
    )?;
    Ok(())
}

fn print_pages(t: &PageTimes) -> anyhow::Result<()> {
    outln!(
        "{} campaigns, {} workers; each page asked for {PAGE_REPEATS} times over loopback, each time read and rendered anew:",
        t.campaigns,
        t.workers
    )?;
    for (path, (median, slowest, bytes)) in [("/", t.list), ("/workers", t.workers_page)] {
        outln!(
            "{path:<9} median {:.1} ms  slowest {:.1} ms  {} KiB",
            ms(median),
            ms(slowest),
            bytes / 1024
        )?;
    }
    Ok(())
}
