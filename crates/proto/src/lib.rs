//! ajaxlab's wire contract (`proto/ajaxlab/v1/ajaxlab.proto`): the generated
//! message types, the `Worker`, `Operator` and `Artifacts` gRPC services,
//! and the conversions between the wire's types and the workspace's
//! ([`convert`]).

/// The `ajaxlab.v1` package (protocol version [`PROTOCOL_VERSION`]).
#[allow(missing_docs, unreachable_pub, clippy::all, reason = "generated code")]
pub mod v1 {
    tonic::include_proto!("ajaxlab.v1");
}

/// The protocol version this build speaks; sent in every request header.
pub const PROTOCOL_VERSION: u32 = 10;

pub mod codec;
pub mod convert;

#[cfg(test)]
mod tests {
    use super::PROTOCOL_VERSION;

    #[test]
    fn the_proto_file_names_the_version_the_server_requires() {
        let proto = include_str!("../../../proto/ajaxlab/v1/ajaxlab.proto");
        for text in [
            format!("protocol version {PROTOCOL_VERSION} "),
            format!("PROTOCOL_VERSION of the sender ({PROTOCOL_VERSION})"),
        ] {
            assert!(
                proto.contains(&text),
                "the proto file does not say '{text}'"
            );
        }
    }
}
