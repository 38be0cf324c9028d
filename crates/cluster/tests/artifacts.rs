//! Engine artifacts over loopback: an operator uploads a file in chunks, a
//! worker fetches it into its cache, checked and executable; a wrong hash,
//! an upload over the limit and a worker token on the upload are refused
//! with a message naming it, and nothing is stored.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;

use ajaxlab_cluster::artifacts::client::{Client, fetch, upload, upload_as};
use ajaxlab_cluster::artifacts::{ArtifactCache, ArtifactHash};
use ajaxlab_cluster::coordinator::{Coordinator, Scope};
use ajaxlab_cluster::remote::Auth;
use ajaxlab_proto::v1::artifacts_client::ArtifactsClient;
use common::{Served, temp_dir};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

fn client(served: &Served, coordinator: &Coordinator, scope: Scope) -> Client {
    let token = coordinator.issue_token(scope, "test").unwrap();
    let auth = Auth::new(format!("Bearer {token}").parse().unwrap());
    ArtifactsClient::with_interceptor(served.channel.clone(), auth)
}

/// Files kept by the coordinator's store.
fn stored(state: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(state.join("artifacts/sha256"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect()
}

/// A file of `len` bytes that spans several chunks when large.
fn engine_file(dir: &Path, len: usize) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("engine");
    let bytes: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(&path, bytes).unwrap();
    path
}

async fn start(limit: Option<u64>) -> (PathBuf, Arc<Coordinator>, Served) {
    let state = temp_dir("artifacts");
    let mut c = Coordinator::open(&state, Duration::from_secs(60), 7).unwrap();
    if let Some(limit) = limit {
        c.set_artifact_limit(limit);
    }
    let c = Arc::new(c);
    let served = Served::start(Arc::clone(&c)).await;
    (state, c, served)
}

#[tokio::test]
async fn an_upload_in_chunks_is_fetched_back_checked_and_executable() {
    let (state, c, served) = start(None).await;
    let source = engine_file(&temp_dir("artifact-src"), 2 * 1024 * 1024 + 123);
    let mut operator = client(&served, &c, Scope::Operator);
    let up = upload(&mut operator, &source).await.unwrap();
    assert_eq!(up.size, 2 * 1024 * 1024 + 123);
    assert!(!up.already_stored);
    assert_eq!(
        stored(&state),
        vec![state.join(format!("artifacts/sha256/{}", up.hash))]
    );
    let again = upload(&mut operator, &source).await.unwrap();
    assert!(again.already_stored);

    let cache = ArtifactCache::open(&temp_dir("artifact-cache"), 64 * 1024 * 1024).unwrap();
    let mut worker = client(&served, &c, Scope::Worker);
    let path = fetch(&mut worker, up.hash, &cache).await.unwrap();
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(&source).unwrap()
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o111, 0o111, "{mode:o}");
    }
    // A second fetch is served from the cache, even with the coordinator gone.
    served.stop().await;
    assert_eq!(fetch(&mut worker, up.hash, &cache).await.unwrap(), path);
}

#[tokio::test]
async fn wrong_hash_over_limit_and_worker_token_are_refused_and_nothing_is_stored() {
    let (state, c, served) = start(Some(1000)).await;
    let dir = temp_dir("artifact-bad");
    let small = engine_file(&dir.join("small"), 500);
    let mut operator = client(&served, &c, Scope::Operator);

    let wrong = ArtifactHash::of(b"something else");
    let e = upload_as(&mut operator, &small, wrong, 500)
        .await
        .unwrap_err();
    assert!(
        e.to_string()
            .contains(&format!("artifact {wrong}: the bytes received hash to")),
        "{e}"
    );
    let big = engine_file(&dir.join("big"), 1001);
    let e = upload(&mut operator, &big).await.unwrap_err();
    assert!(
        e.to_string()
            .contains("1001 bytes exceed the limit of 1000 bytes"),
        "{e}"
    );
    // A size stated under the limit does not let more bytes through.
    let (hash, _) = ajaxlab_cluster::artifacts::hash_file(&big).unwrap();
    let e = upload_as(&mut operator, &big, hash, 900).await.unwrap_err();
    assert!(e.to_string().contains("stated"), "{e}");

    let mut worker = client(&served, &c, Scope::Worker);
    let e = upload(&mut worker, &small).await.unwrap_err();
    assert!(
        e.to_string().contains("PermissionDenied")
            && e.to_string()
                .contains("UploadArtifact (it takes an operator token)"),
        "{e}"
    );
    assert!(stored(&state).is_empty(), "{:?}", stored(&state));

    // Fetching takes a worker token, and an unknown artifact is named.
    let (hash, _) = ajaxlab_cluster::artifacts::hash_file(&small).unwrap();
    let cache = ArtifactCache::open(&dir.join("cache"), 10_000).unwrap();
    let e = fetch(&mut operator, hash, &cache).await.unwrap_err();
    assert!(
        e.to_string()
            .contains("FetchArtifact (it takes a worker token)"),
        "{e}"
    );
    let e = fetch(&mut worker, hash, &cache).await.unwrap_err();
    assert!(
        e.to_string()
            .contains(&format!("artifact {hash} is not stored")),
        "{e}"
    );
    served.stop().await;
}

/// A UCI engine (a shell script) that answers `readyok` only once its
/// `VariantPath` names a file holding `[shipped]`.
const ENGINE: &str = "#!/bin/sh\nvp=\nwhile read -r line; do\n  case \"$line\" in\n    uci) printf 'id name shipped\\nuciok\\n' ;;\n    'setoption name VariantPath value '*) vp=\"${line#setoption name VariantPath value }\" ;;\n    isready) grep -q '^\\[shipped\\]' \"$vp\" && echo readyok ;;\n    quit) exit 0 ;;\n  esac\ndone\n";

#[tokio::test]
async fn a_worker_runs_a_uci_player_from_its_fetched_copies() {
    use ajaxlab_arena::player::{UciPlayer, UciPlayerConfig};
    use ajaxlab_cluster::artifacts::shipped::Shipped;
    use ajaxlab_cluster::remote::Remote;
    use ajaxlab_cluster::worker::grpc::GrpcSource;
    use ajaxlab_cluster::worker::localize;

    let (_state, c, served) = start(None).await;
    let source = temp_dir("shipped-src");
    std::fs::create_dir_all(&source).unwrap();
    let (engine, ini) = (source.join("engine.sh"), source.join("variants.ini"));
    std::fs::write(&engine, ENGINE).unwrap();
    std::fs::write(&ini, "[shipped]\n").unwrap();
    let mut operator = client(&served, &c, Scope::Operator);
    let binary = upload(&mut operator, &engine).await.unwrap().hash;
    let file = upload(&mut operator, &ini).await.unwrap().hash;
    // The worker has neither path: it runs what it fetched.
    std::fs::remove_dir_all(&source).unwrap();
    let mut player = UciPlayerConfig {
        name: "shipped".into(),
        command: engine.clone(),
        args: vec![],
        options: vec![("VariantPath".into(), ini.display().to_string())],
        variant: ajaxlab_rules::VariantKind::Chess.variant(),
        startup_timeout: Duration::from_secs(10),
        move_timeout: Duration::from_secs(10),
        bench: None,
    };
    let unusable = UciPlayer::start(player.clone()).err().unwrap();
    assert!(unusable.to_string().contains("engine.sh"), "{unusable}");

    let cache_dir = temp_dir("shipped-cache");
    let shipped = Shipped {
        binary: Some(binary),
        option_files: vec![("VariantPath".into(), file)],
    };
    let mut worker = GrpcSource::new(
        Remote {
            url: served.url.clone(),
            token: c.issue_token(Scope::Worker, "test").unwrap(),
            tls_ca: None,
        },
        cache_dir.clone(),
    );
    localize(&mut player, &shipped, &mut worker).await.unwrap();
    assert_eq!(player.command, cache_dir.join(binary.to_string()));
    assert_eq!(
        player.options[0].1,
        cache_dir.join(file.to_string()).display().to_string()
    );
    let started = tokio::task::spawn_blocking(move || UciPlayer::start(player).map(|_| ()));
    started.await.unwrap().unwrap();

    let unset = Shipped {
        binary: None,
        option_files: vec![("Book".into(), file)],
    };
    let mut other = UciPlayerConfig {
        name: "no-book".into(),
        command: engine,
        args: vec![],
        options: vec![],
        variant: ajaxlab_rules::VariantKind::Chess.variant(),
        startup_timeout: Duration::from_secs(1),
        move_timeout: Duration::from_secs(1),
        bench: None,
    };
    let e = localize(&mut other, &unset, &mut worker).await.unwrap_err();
    assert!(e.to_string().contains("option Book ships file"), "{e}");
    served.stop().await;
}
