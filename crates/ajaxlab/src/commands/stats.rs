//! `ajaxlab stats`: a calculator for results played anywhere: Elo ± 95%,
//! nElo, LOS, and the SPRT's LLR with its bounds, from pentanomial or W/D/L
//! counts in the forms cutechess-cli and Fishtest print.

use super::out::outln;
use super::sprt_args::SprtArgs;
use ajaxlab_stats::counts_text;
use ajaxlab_stats::{Counts, Pentanomial};
use anyhow::{Context, bail};
use std::process::ExitCode;

/// Arguments of `ajaxlab stats`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("counts").required(true).args(["penta", "wdl", "cutechess", "fishtest"])))]
pub(crate) struct StatsArgs {
    /// Pair counts LL,LD,DD+WL,WD,WW (e.g. 10,20,40,20,10; "DD+WL" may be given as one number or a sum).
    #[arg(long)]
    penta: Option<String>,
    /// Game counts of the first player in the order W,D,L (wins, draws, losses), or keyed w=W,d=D,l=L.
    /// cutechess-cli prints W - L - D and Fishtest W: L: D: paste those with --cutechess or --fishtest.
    #[arg(long, verbatim_doc_comment)]
    wdl: Option<String>,
    /// cutechess-cli's line, "Score of A vs B: W - L - D [score] N", or fastchess's result block ("Games: N, Wins: W, Losses: L, Draws: D", with its Ptnml(0-2) line if pasted).
    #[arg(long)]
    cutechess: Option<String>,
    /// Fishtest's counts, as shown: "W: 120 L: 80 D: 200" (a pasted "Ptnml(0-2): …" is used instead).
    #[arg(long)]
    fishtest: Option<String>,
    #[command(flatten)]
    sprt: SprtArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// The counts the arguments give (exactly one form is present: clap's group).
fn counts(args: &StatsArgs) -> anyhow::Result<Counts> {
    let counts = if let Some(p) = &args.penta {
        let v = counts_text::counts_list("--penta", p, 5)?;
        Pentanomial([v[0], v[1], v[2], v[3], v[4]]).into()
    } else if let Some(w) = &args.wdl {
        counts_text::wdl(w)?
    } else if let Some(c) = &args.cutechess {
        counts_text::cutechess(c)?
    } else if let Some(f) = &args.fishtest {
        counts_text::fishtest(f)?
    } else {
        bail!("give --penta, --wdl, --cutechess or --fishtest")
    };
    Ok(counts)
}

/// The counts as read, so that a paste read in the wrong order shows.
fn counts_line(counts: &Counts) -> String {
    match counts {
        Counts::Trinomial(t) => format!("W {} D {} L {}", t.wins, t.draws, t.losses),
        Counts::Pentanomial(Pentanomial(p)) => format!(
            "pairs LL {} LD {} DD+WL {} WD {} WW {}",
            p[0], p[1], p[2], p[3], p[4]
        ),
    }
}

pub(crate) fn run(args: &StatsArgs) -> anyhow::Result<ExitCode> {
    let counts = counts(args)?;
    let elo = counts.elo().context("Elo")?;
    let nelo = counts.nelo().context("nElo")?;
    let mut json = serde_json::json!({
        "elo": elo.elo,
        "elo_ci95": [elo.interval.low, elo.interval.high],
        "los": elo.los,
        "nelo": nelo.nelo,
        "nelo_ci95": [nelo.interval.low, nelo.interval.high],
        "games": counts.games(),
    });
    let mut lines = vec![
        format!(
            "Elo   {:+.2} ± {:.2} (95%: {:+.2} .. {:+.2})",
            elo.elo,
            elo.interval.half_width(),
            elo.interval.low,
            elo.interval.high
        ),
        format!(
            "nElo  {:+.2} ± {:.2}",
            nelo.nelo,
            nelo.interval.half_width()
        ),
        format!("LOS   {:.2}%", elo.los * 100.0),
        format!("games {} ({})", counts.games(), counts_line(&counts)),
    ];
    if let Some(mut sprt) = args.sprt.sprt()? {
        let status = sprt.update(counts).context("SPRT")?;
        let b = sprt.bounds();
        lines.push(format!("{}  {status}", sprt.standing()));
        json["llr"] = serde_json::json!(sprt.llr());
        json["bounds"] = serde_json::json!([b.lower, b.upper]);
        json["status"] = serde_json::json!(status.to_string());
    }
    if args.json {
        outln!("{json}")?;
    } else {
        outln!("{}", lines.join("\n"))?;
    }
    Ok(ExitCode::SUCCESS)
}
