//! Generates the gRPC code from `proto/ajaxlab/v1/ajaxlab.proto` with a
//! vendored protoc (nothing to install).

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Read when the script runs, not when it is compiled: a script binary
    // that cargo reuses from another checkout sharing the target directory
    // would otherwise compile that checkout's proto file.
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR")?;
    let proto_dir = std::path::Path::new(&manifest_dir).join("../../proto");
    let file = proto_dir.join("ajaxlab/v1/ajaxlab.proto");
    println!("cargo:rerun-if-changed={}", file.display());
    let mut config = tonic_prost_build::Config::new();
    config.protoc_executable(protoc_bin_vendored::protoc_bin_path()?);
    // Every service decodes through the budget codec (src/codec.rs), which
    // counts a submission's games before it decodes them.
    tonic_prost_build::configure()
        .codec_path("crate::codec::BudgetCodec")
        .compile_with_config(config, &[file], &[proto_dir])?;
    Ok(())
}
