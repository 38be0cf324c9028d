//! Bad input on the wire: a missing header, a wrong protocol version, an
//! oversized message, bytes that do not decode, a record with a missing
//! field, an id that is no id. Each gets its gRPC status, and the coordinator goes on serving.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;

use ajaxlab_cluster::coordinator::{Coordinator, Scope};
use ajaxlab_cluster::remote::Auth;
use ajaxlab_proto::v1::operator_client::OperatorClient;
use ajaxlab_proto::v1::worker_client::WorkerClient;
use ajaxlab_proto::{PROTOCOL_VERSION, v1};
use common::{Served, campaign_id, temp_dir};
use std::sync::Arc;
use std::time::Duration;
use tonic::Code;

/// A request whose field 1 (the header, a message) is sent as a number: it
/// does not decode as a `WorkRequest`.
#[derive(Clone, PartialEq, prost::Message)]
struct NotAWorkRequest {
    #[prost(uint64, tag = "1")]
    header: u64,
}

fn header() -> Option<v1::Header> {
    Some(v1::Header {
        protocol_version: PROTOCOL_VERSION,
    })
}

#[test]
fn bad_messages_get_their_status_and_the_coordinator_serves_on() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let dir = temp_dir("bad");
        let c = Arc::new(Coordinator::open(&dir, Duration::from_secs(60), 7).unwrap());
        c.create_campaign(
            "games = 8\ntc = \"nodes=300\"\n[campaign]\nname = \"bad\"\n[adjudication]\nmax_plies = 60\n",
        )
        .unwrap();
        let token = c.issue_token(Scope::Worker, "bad").unwrap();
        let served = Served::start(Arc::clone(&c)).await;
        let channel = served.channel.clone();
        let auth = Auth::new(format!("Bearer {token}").parse().unwrap());
        let mut client = WorkerClient::with_interceptor(channel.clone(), auth.clone())
            .max_encoding_message_size(usize::MAX);
        let register = |header| v1::RegisterRequest {
            header,
            name: "w".into(),
            version: "test".into(),
            cores: 1,
            bench_signature: 7,
            engines: vec![],
        };

        let e = client.register(register(None)).await.unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
        assert!(e.message().contains("header"), "{e:?}");
        // A newer peer, and a worker of version 2 (text variants, openings,
        // time controls and players): both refused, naming both versions.
        for version in [PROTOCOL_VERSION + 1, 2] {
            let other = Some(v1::Header {
                protocol_version: version,
            });
            let e = client.register(register(other)).await.unwrap_err();
            assert_eq!(e.code(), Code::FailedPrecondition, "{e:?}");
            let both = format!(
                "protocol version {version} is not supported: this coordinator speaks version {PROTOCOL_VERSION}"
            );
            assert!(e.message().contains(&both), "{e:?}");
        }

        let worker_id = client
            .register(register(header()))
            .await
            .unwrap()
            .into_inner()
            .worker_id;
        let unit = client
            .request_work(v1::WorkRequest {
                header: header(),
                worker_id: worker_id.clone(),
            })
            .await
            .unwrap()
            .into_inner()
            .unit
            .unwrap();
        let submit = |games: Vec<v1::GameRecord>| v1::SubmitResultsRequest {
            header: header(),
            worker_id: worker_id.clone(),
            unit_id: unit.unit_id.clone(),
            lease_token: unit.lease_token.clone(),
            games,
        };

        // More than the coordinator's 64 MB limit.
        let huge = v1::GameRecord {
            start_fen: "x".repeat(ajaxlab_proto::codec::MAX_MESSAGE_BYTES + 1024),
            ..Default::default()
        };
        let e = client.submit_results(submit(vec![huge])).await.unwrap_err();
        assert!(
            matches!(e.code(), Code::OutOfRange | Code::ResourceExhausted),
            "{e:?}"
        );

        // Bytes that do not decode as the method's message.
        let mut raw = tonic::client::Grpc::new(
            tonic::service::interceptor::InterceptedService::new(channel.clone(), auth.clone()),
        );
        raw.ready().await.unwrap();
        let e = raw
            .unary(
                tonic::Request::new(NotAWorkRequest { header: 42 }),
                tonic::codegen::http::uri::PathAndQuery::from_static("/ajaxlab.v1.Worker/RequestWork"),
                tonic_prost::ProstCodec::<NotAWorkRequest, v1::WorkResponse>::default(),
            )
            .await
            .unwrap_err();
        assert!(
            matches!(e.code(), Code::Internal | Code::InvalidArgument),
            "{e:?}"
        );

        // Empty records, as many as the unit has games: refused naming the
        // field, nothing stored.
        let e = client
            .submit_results(submit(vec![v1::GameRecord::default(); 2]))
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
        assert!(e.message().starts_with("games[0]."), "{e:?}");
        assert_eq!(c.campaign(&campaign_id("bad")).unwrap().pairs_done, 0);

        // Ids that are no ids: refused naming the field, before anything
        // is looked up.
        let e = client
            .request_work(v1::WorkRequest {
                header: header(),
                worker_id: "../w".into(),
            })
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
        assert!(e.message().starts_with("WorkRequest.worker_id: "), "{e:?}");
        for bad in ["../x-0", "bad", "bad-07"] {
            let e = client
                .submit_results(v1::SubmitResultsRequest {
                    unit_id: bad.into(),
                    ..submit(Vec::new())
                })
                .await
                .unwrap_err();
            assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
            assert!(
                e.message().starts_with("SubmitResultsRequest.unit_id: not a unit id ("),
                "{e:?}"
            );
            let e = client
                .renew_lease(v1::RenewLeaseRequest {
                    header: header(),
                    worker_id: worker_id.clone(),
                    unit_id: bad.into(),
                    lease_token: unit.lease_token.clone(),
                })
                .await
                .unwrap_err();
            assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
            assert!(
                e.message().starts_with("RenewLeaseRequest.unit_id: "),
                "{e:?}"
            );
            let e = client
                .release_work(v1::ReleaseWorkRequest {
                    header: header(),
                    worker_id: worker_id.clone(),
                    unit_id: bad.into(),
                    lease_token: unit.lease_token.clone(),
                    engine_failure: String::new(),
                })
                .await
                .unwrap_err();
            assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
            assert!(
                e.message().starts_with("ReleaseWorkRequest.unit_id: "),
                "{e:?}"
            );
        }
        // A well-formed id the coordinator never issued is unknown.
        let e = client
            .renew_lease(v1::RenewLeaseRequest {
                header: header(),
                worker_id: worker_id.clone(),
                unit_id: "bad-999999".into(),
                lease_token: unit.lease_token.clone(),
            })
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::NotFound, "{e:?}");
        let operator = c.issue_token(Scope::Operator, "bad").unwrap();
        let mut operator = OperatorClient::with_interceptor(
            channel.clone(),
            Auth::new(format!("Bearer {operator}").parse().unwrap()),
        );
        let e = operator
            .pause_campaign(v1::CampaignRequest {
                header: header(),
                campaign_id: "../bad".into(),
            })
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
        assert!(
            e.message().starts_with("CampaignRequest.campaign_id: "),
            "{e:?}"
        );

        // And everyone else is still served.
        let next = client
            .request_work(v1::WorkRequest {
                header: header(),
                worker_id: worker_id.clone(),
            })
            .await
            .unwrap()
            .into_inner();
        assert!(next.unit.is_some(), "{next:?}");
        served.stop().await;
    });
}
