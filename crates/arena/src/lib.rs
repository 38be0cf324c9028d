//! The arena: plays games between two players from randomized openings, as
//! fast as the machine allows, referees them exactly (docs/rules.md §4), and
//! stores every game as a Parquet row through `ajaxlab_store`.
//!
//! Games are played a pair at a time ([`pair`]) by [`pool::play_pairs`],
//! the pool of every worker: a match is a campaign its own process plays
//! (`ajaxlab_cluster::local`). Players are the builtin engine in-process ([`player::BuiltinPlayer`]) or
//! any UCI engine as a subprocess ([`player::UciPlayer`]). Every opening is
//! played as a pair with colours swapped; live statistics are pentanomial.
//! A field of more than two players plays a gauntlet or round robin
//! ([`tournament`]), one match per pairing.

pub mod book;
pub mod config;
mod config_error;
pub mod flags;
pub mod imbalance;
pub mod limits;
pub mod live;
pub mod names;
pub mod opening;
pub mod pair;
pub mod pgn;
pub mod pgn_book;
pub mod player;
pub mod player_file;
pub mod pool;
pub mod referee;
pub mod tc;
pub mod tournament;
pub mod training;
mod uci_config;

pub use config::{ConfigError, MatchConfig, MatchFile, Overrides};
pub use tc::TimeControl;
