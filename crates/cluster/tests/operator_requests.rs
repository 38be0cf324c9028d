//! An operator's requests through `ajaxlab_cluster::operator`, against a
//! coordinator served on loopback: a campaign is created from its file,
//! each campaign change does what it says, and a refusal comes back with
//! its code.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;

use ajaxlab_cluster::coordinator::{CampaignState, Coordinator, Scope};
use ajaxlab_cluster::operator::{
    CampaignChange, OperatorError, change_campaign, create_campaign, exclude_worker,
    list_campaigns, ship_campaign_files,
};
use ajaxlab_cluster::remote::Remote;
use ajaxlab_proto::convert::WireEnum;
use common::{Served, campaign_id, temp_dir};
use std::sync::Arc;
use std::time::Duration;

const CAMPAIGN: &str =
    "variant = \"chess\"\ngames = 4\ntc = \"nodes=200\"\n[campaign]\nname = \"ops\"\n";

#[test]
fn each_campaign_change_does_what_it_says() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let dir = temp_dir("ops");
        let c = Arc::new(Coordinator::open(&dir, Duration::from_secs(60), 7).unwrap());
        let served = Served::start(Arc::clone(&c)).await;
        let remote = Remote {
            url: served.url.clone(),
            token: c.issue_token(Scope::Operator, "ops").unwrap(),
            tls_ca: None,
        };
        let file = dir.join("ops.toml");
        std::fs::write(&file, CAMPAIGN).unwrap();
        let mut shipment = ship_campaign_files(&remote, &file).await.unwrap();
        assert!(shipment.files.is_empty(), "builtin players ship nothing");
        let created = create_campaign(&remote, &shipment).await.unwrap();
        assert_eq!(created.len(), 1);
        let id = campaign_id("ops");
        let state = |campaign: &ajaxlab_proto::v1::Campaign| {
            CampaignState::from_wire(campaign.state, "Campaign.state").unwrap()
        };
        for (change, expected) in [
            (CampaignChange::Show, CampaignState::Running),
            (CampaignChange::Pause, CampaignState::Paused),
            (CampaignChange::Resume, CampaignState::Running),
            (CampaignChange::Stop, CampaignState::Stopped),
        ] {
            let campaign = change_campaign(&remote, &id, change).await.unwrap();
            assert_eq!(state(&campaign), expected, "{change:?}");
            assert_eq!(c.campaign(&id).unwrap().state, expected, "{change:?}");
        }
        let listed = list_campaigns(&remote).await.unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].campaign_id, "ops");

        let Err(OperatorError::Refused(status)) =
            change_campaign(&remote, &id, CampaignChange::Resume).await
        else {
            panic!("a stopped campaign is not resumed");
        };
        assert_eq!(status.code(), tonic::Code::FailedPrecondition);
        let nobody = "w-nobody".parse().unwrap();
        let Err(e @ OperatorError::Refused(_)) = exclude_worker(&remote, &id, &nobody).await else {
            panic!("an unknown worker is not excluded");
        };
        assert!(
            e.to_string()
                .starts_with("NotFound: unknown worker 'w-nobody'"),
            "{e}"
        );

        // A bad file is refused where it is read, naming the key; sent as
        // it is, the coordinator refuses it too.
        let bad = dir.join("bad.toml");
        std::fs::write(&bad, CAMPAIGN.replace("games = 4", "games = 3")).unwrap();
        let Err(e @ OperatorError::Draft(_)) = ship_campaign_files(&remote, &bad).await else {
            panic!("a file with odd games is not shipped");
        };
        assert!(
            e.to_string().contains("games: 3: must be an even number"),
            "{e}"
        );
        shipment.text = CAMPAIGN
            .replace("games = 4", "games = 3")
            .replace("ops", "bad");
        let Err(OperatorError::Refused(status)) = create_campaign(&remote, &shipment).await else {
            panic!("the coordinator creates a campaign of odd games");
        };
        assert_eq!(status.code(), tonic::Code::InvalidArgument);
        assert!(status.message().contains("games"), "{status:?}");
        served.stop().await;
    });
}
