//! `ajaxlab stats`: a calculator for results played anywhere: Elo ± 95%,
//! nElo, LOS, and the SPRT's LLR with its bounds, from pentanomial or W/D/L
//! counts.

use ajaxlab_stats::{Counts, EloModel, Pentanomial, Sprt, SprtConfig, Trinomial};
use anyhow::{Context, bail};
use std::process::ExitCode;

/// Arguments of `ajaxlab stats`.
#[derive(Debug, clap::Args)]
pub(crate) struct StatsArgs {
    /// Pair counts LL,LD,DD+WL,WD,WW (e.g. 10,20,40,20,10; "DD+WL" may be given as one number or a sum).
    #[arg(long, conflicts_with = "wdl")]
    penta: Option<String>,
    /// Game counts W,D,L.
    #[arg(long)]
    wdl: Option<String>,
    /// SPRT bounds elo0,elo1.
    #[arg(long)]
    sprt: Option<String>,
    /// SPRT false-positive rate.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    alpha: f64,
    /// SPRT false-negative rate.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    beta: f64,
    /// SPRT model: normalized (Fishtest's default) or logistic.
    #[arg(long, default_value = "normalized", requires = "sprt")]
    model: String,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

fn numbers(flag: &str, text: &str, n: usize) -> anyhow::Result<Vec<u64>> {
    let values: Vec<u64> = text
        .split(',')
        .map(|part| {
            part.split('+')
                .map(|x| {
                    x.trim()
                        .parse::<u64>()
                        .with_context(|| format!("{flag}: '{x}' is not a count"))
                })
                .sum::<anyhow::Result<u64>>()
        })
        .collect::<anyhow::Result<_>>()?;
    if values.len() != n {
        bail!(
            "{flag}: {n} comma-separated counts expected, {} given",
            values.len()
        );
    }
    Ok(values)
}

pub(crate) fn run(args: &StatsArgs) -> anyhow::Result<ExitCode> {
    let counts: Counts = match (&args.penta, &args.wdl) {
        (Some(p), None) => {
            let v = numbers("--penta", p, 5)?;
            Pentanomial([v[0], v[1], v[2], v[3], v[4]]).into()
        }
        (None, Some(w)) => {
            let v = numbers("--wdl", w, 3)?;
            Trinomial::new(v[2], v[1], v[0]).into()
        }
        _ => bail!("give --penta LL,LD,DD+WL,WD,WW or --wdl W,D,L"),
    };
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
        format!("games {}", counts.games()),
    ];
    if let Some(bounds) = &args.sprt {
        let (e0, e1) = bounds
            .split_once(',')
            .with_context(|| format!("--sprt '{bounds}': expected elo0,elo1"))?;
        let elo0: f64 = e0
            .trim()
            .parse()
            .with_context(|| format!("--sprt: '{e0}' is not a number"))?;
        let elo1: f64 = e1
            .trim()
            .parse()
            .with_context(|| format!("--sprt: '{e1}' is not a number"))?;
        let model = match args.model.as_str() {
            "normalized" => EloModel::Normalized,
            "logistic" => EloModel::Logistic,
            other => bail!("--model '{other}': expected normalized or logistic"),
        };
        let config = SprtConfig {
            alpha: args.alpha,
            beta: args.beta,
            ..SprtConfig::new(elo0, elo1, model)
        };
        let mut sprt =
            Sprt::new(config).map_err(|e| anyhow::anyhow!("--sprt/--alpha/--beta: {e}"))?;
        let status = sprt.update(counts).context("SPRT")?;
        let b = sprt.bounds();
        lines.push(format!(
            "LLR   {:.3} ({:.3}, {:.3}) [{elo0}, {elo1}] {}: {status}",
            sprt.llr(),
            b.lower,
            b.upper,
            args.model
        ));
        json["llr"] = serde_json::json!(sprt.llr());
        json["bounds"] = serde_json::json!([b.lower, b.upper]);
        json["status"] = serde_json::json!(status.to_string());
    }
    if args.json {
        println!("{json}");
    } else {
        println!("{}", lines.join("\n"));
    }
    Ok(ExitCode::SUCCESS)
}
