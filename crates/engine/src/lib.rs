//! ajaxlab's engine: an alpha-beta searcher with a tunable evaluation for
//! every variant of the rules crate, a protocol-free API ([`Engine`]) that
//! the arena calls in-process, and a UCI front end ([`uci`]) for GUIs and
//! other tools.

pub mod bench;
mod chess_mobility;
mod chess_squares;
mod correction;
mod engine;
mod entry_table;
mod eval;
mod evaluation;
mod features;
mod file_params;
mod history;
mod limits;
pub mod nnue;
mod ordering;
pub mod params;
mod search;
mod see;
mod threats;
mod tt;
pub mod tune;
pub mod uci;

pub use engine::{DEFAULT_HASH_MB, Engine};
pub use eval::Evaluator;
pub use features::Features;
pub use limits::{Clock, Limits};
pub use params::{ParamError, ParamSpec, Params};
pub use search::{MATE, Score, SearchInfo, SearchResult};
