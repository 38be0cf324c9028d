//! The ids of campaigns, work units and workers, checked once where they
//! come in (a campaign file, a request on the wire, the command line, a
//! database row) so that past that point the coordinator, the workers and
//! the binary handle ids, never bare strings.
//!
//! They are defined in the store ([`ajaxlab_store::ids`]), which writes
//! them into games files and the coordinator's database; this module is
//! where the cluster's code and its users name them.

pub use ajaxlab_store::ids::{
    CampaignId, LeaseToken, MAX_NAME_LEN, MAX_WORKER_ID_TAIL, NameError, UnitId, UnitIdError,
    WorkerId, WorkerIdError,
};
