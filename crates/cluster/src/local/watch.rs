//! What a local run shows while it plays: a bar on a terminal (log lines
//! otherwise) counting finished games, never going back, with the time left
//! at this run's pace and the standing of the campaign being played.

use crate::coordinator::sprt_text::sprt_state;
use crate::coordinator::{CampaignState, CampaignView, Coordinator};
use crate::ids::CampaignId;
use crate::local::LocalError;
use ajaxlab_stats::{hypotheses_text, llr_text};
use ajaxlab_store::RunKind;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// One line on a campaign's standing: the pairs counted, their Elo (none
/// before the first), and what its kind adds.
pub fn standing(view: &CampaignView) -> String {
    let pairs = view.pentanomial.pairs();
    let s = if pairs == 1 { "" } else { "s" };
    let mut out = view.pentanomial.elo().map_or_else(
        |_| format!("{pairs} pair{s} counted"),
        |e| {
            format!(
                "{pairs} pair{s} counted, Elo {:+.1} ± {:.1}",
                e.elo,
                e.interval.half_width()
            )
        },
    );
    if let (Some(s), Some(standing)) = (&view.sprt, view.sprt_standing()) {
        out.push_str(&format!(
            "  {}  {} {}",
            hypotheses_text(s.config.elo0, s.config.elo1, s.config.model),
            llr_text(s.llr, s.bounds),
            sprt_state(standing)
        ));
    }
    if matches!(view.kind, RunKind::FirstMove | RunKind::Datagen)
        && let Some(score) = view.white_score()
    {
        out.push_str(&format!("  White {:.1}%", score * 100.0));
    }
    for p in &view.spsa {
        out.push_str(&format!("  {} {:.1}", p.name, p.value));
    }
    out
}

/// The training positions written in this run and their pace, while a
/// datagen campaign plays: `None` otherwise.
fn positions_rate(
    coordinator: &Coordinator,
    views: &[CampaignView],
    started: Instant,
) -> Option<String> {
    views.iter().any(|v| v.kind == RunKind::Datagen).then(|| {
        let written = coordinator.counters.positions.load(Ordering::Relaxed);
        let seconds = started.elapsed().as_secs_f64().max(1e-3);
        format!(
            "{written} positions ({:.0} positions/s)",
            written as f64 / seconds
        )
    })
}

/// Shows the campaigns' progress until all are over: the games counted
/// plus those finished in the unit being played (`in_flight`), so that the
/// bar and its ETA move a game at a time, not a unit at a time. Both are
/// games surely finished, and the most seen so far is shown: a unit's games
/// leave `in_flight` a moment before the coordinator counts them, and the
/// bar never goes back for it.
pub(super) async fn watch(
    coordinator: &Coordinator,
    ids: &[CampaignId],
    in_flight: &AtomicU64,
    quiet: bool,
) -> Result<Vec<CampaignView>, LocalError> {
    let mut changes = coordinator.subscribe();
    let views = |c: &Coordinator| {
        ids.iter()
            .map(|id| c.campaign(id))
            .collect::<Result<Vec<_>, _>>()
    };
    let total: u64 = views(coordinator)?.iter().map(|v| v.pairs_total * 2).sum();
    let bar = if !quiet && std::io::stderr().is_terminal() {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} games  {prefix}  {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let log = !quiet && !std::io::stderr().is_terminal();
    let mut last_log = Instant::now();
    let mut eta = Eta::default();
    let mut done = 0;
    let started = Instant::now();
    loop {
        let now = views(coordinator)?;
        let counted: u64 = now.iter().map(|v| v.pairs_done * 2).sum();
        done = (counted + in_flight.load(Ordering::Relaxed))
            .min(total)
            .max(done);
        bar.set_position(done);
        let eta_text = eta.text(done, total);
        bar.set_prefix(eta_text.clone());
        // The bar shows the part still playing (or the last one).
        let shown = now
            .iter()
            .find(|v| v.state == CampaignState::Running)
            .or(now.last())
            .map(|v| format!("{}: {}", v.id, standing(v)))
            .unwrap_or_default();
        let shown = match positions_rate(coordinator, &now, started) {
            Some(rate) => format!("{shown}  {rate}"),
            None => shown,
        };
        bar.set_message(shown.clone());
        let over = now.iter().all(|v| v.state.is_over());
        // Every 10 s, and the last line when all are over.
        if log && (last_log.elapsed() >= Duration::from_secs(10) || over) {
            eprintln!("{done}/{total} games, {eta_text}; {shown}");
            last_log = Instant::now();
        }
        if over {
            bar.finish_and_clear();
            return Ok(now);
        }
        // The one worker here cannot play a campaign: nothing else will.
        for id in ids {
            if let Some(failure) = coordinator.engine_failures(id)?.first() {
                bar.finish_and_clear();
                return Err(LocalError::Runtime(format!(
                    "campaign {id} cannot be played on this machine: {}",
                    failure.reason
                )));
            }
        }
        let _ = tokio::time::timeout(Duration::from_secs(1), changes.changed()).await;
    }
}

/// The time left, from the pace of the games finished since this run
/// began (a resumed campaign's earlier games do not count towards it).
#[derive(Default)]
struct Eta {
    /// When the run began and how many games were done then.
    start: Option<(Instant, u64)>,
}

impl Eta {
    /// `ETA 12m 5s`, or `ETA …` until a game of this run has finished.
    fn text(&mut self, done: u64, total: u64) -> String {
        let (started, at_start) = *self.start.get_or_insert((Instant::now(), done));
        match remaining(
            started.elapsed(),
            done.saturating_sub(at_start),
            total.saturating_sub(done),
        ) {
            Some(left) => format!("ETA {}", indicatif::HumanDuration(left)),
            None => "ETA …".to_owned(),
        }
    }
}

/// Time for `left` more games at the pace of `played` games in `elapsed`;
/// `None` before the first.
fn remaining(elapsed: Duration, played: u64, left: u64) -> Option<Duration> {
    (played > 0).then(|| elapsed.mul_f64(left as f64 / played as f64))
}

#[cfg(test)]
mod tests {
    use super::remaining;
    use std::time::Duration;

    #[test]
    fn the_time_left_follows_the_pace_of_the_games_played() {
        assert_eq!(remaining(Duration::from_secs(10), 0, 100), None);
        assert_eq!(
            remaining(Duration::from_secs(10), 5, 20),
            Some(Duration::from_secs(40))
        );
        assert_eq!(
            remaining(Duration::from_secs(10), 5, 0),
            Some(Duration::ZERO)
        );
    }
}
