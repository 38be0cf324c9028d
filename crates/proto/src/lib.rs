//! ajaxlab's wire contract (`proto/ajaxlab/v1/ajaxlab.proto`): the generated
//! message types and the `Worker` and `Operator` gRPC services.

#![allow(missing_docs, unreachable_pub, clippy::all, reason = "generated code")]

/// Version 1 of the protocol.
pub mod v1 {
    tonic::include_proto!("ajaxlab.v1");
}

/// The protocol version this build speaks; sent in every request header.
pub const PROTOCOL_VERSION: u32 = 2;
