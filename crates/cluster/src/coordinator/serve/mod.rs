//! The coordinator as a process: its gRPC services (worker, operator,
//! artifacts, health) and the web UI, each port under connection
//! limits, started from the coordinator file and flags.

pub mod artifacts;
pub mod connections;
pub mod file;
pub mod grpc;
pub mod http;
pub mod run;
pub mod services;
pub mod web;
