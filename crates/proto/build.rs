//! Generates the gRPC code from `proto/ajaxlab/v1/ajaxlab.proto` with a
//! vendored protoc (nothing to install).

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let proto_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../proto");
    let file = proto_dir.join("ajaxlab/v1/ajaxlab.proto");
    println!("cargo:rerun-if-changed={}", file.display());
    let mut config = tonic_prost_build::Config::new();
    config.protoc_executable(protoc_bin_vendored::protoc_bin_path()?);
    tonic_prost_build::configure().compile_with_config(config, &[file], &[proto_dir])?;
    Ok(())
}
