//! Cluster mode: a gRPC coordinator (tokio + tonic) that hands work units
//! of campaigns to workers anywhere, validates and stores their games, and
//! never loses or double-counts one; the workers that play for it; and the
//! one-process form, `ajaxlab campaign run`, with an embedded coordinator.

//!
//! One folder per role, each using only those listed before it (a test,
//! `tests/roles.rs`, fails on an import loop between them):
//! - [`ids`], [`shutdown`], [`work`]: what every role shares: names, a
//!   graceful stop, the lease and bench signature both sides agree on;
//! - [`campaign`]: the campaign file, parsed once into a validated type,
//!   and the files it names;
//! - [`remote`]: a coordinator as a client reaches it (URL, token, TLS);
//! - [`artifacts`]: engine binaries and shared texts by hash: the store, its
//!   client and a worker's cache;
//! - [`coordinator`]: the state (units, leases, counting, the kinds'
//!   tests and tunes) and, in `coordinator::serve`, the process that serves
//!   it (gRPC, the web UI, its file and flags);
//! - [`worker`]: plays the units it leases;
//! - [`operator`]: the operator's requests (`campaign create`, `list`, …);
//! - [`local`], [`loadgen`]: a coordinator and its workers in one process
//!   (`campaign run`), and simulated workers to load-test one.

pub mod ids;
pub mod shutdown;
pub mod work;

pub mod campaign;
pub mod remote;

pub mod artifacts;
pub mod coordinator;
pub mod operator;
pub mod worker;

pub mod loadgen;
pub mod local;
