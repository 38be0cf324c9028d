//! Cluster mode: a gRPC coordinator (tokio + tonic) that hands work units
//! of campaigns to workers anywhere, validates and stores their games, and
//! never loses or double-counts one; the workers that play for it; and the
//! one-process form, `ajaxlab campaign run`, with an embedded coordinator.

pub mod artifacts;
pub mod campaign;
pub mod connections;
pub mod coordinator;
pub mod coordinator_file;
pub mod coordinator_run;
pub mod engine_check;
pub mod http;
pub mod ids;
pub mod inputs;
pub mod loadgen;
pub mod local;
pub mod operator;
pub mod remote;
pub mod server;
pub mod shutdown;
pub mod sprt_text;
mod spsa_list;
pub mod spsa_template;
pub mod status;
pub mod worker;
