#!/usr/bin/env bash
# A one-node Kubernetes cluster on this machine, for the kubernetes backend's integration tests and bench:kube.
#
#   scripts/kube-lab.sh up [--image IMAGE]...  installs and builds what it needs (cached), starts the cluster, imports
#                            the workload image(s) from the main Docker engine, prints the kubeconfig's path
#   scripts/kube-lab.sh down           stops everything `up` started, by pid, and removes its state
#   scripts/kube-lab.sh status         says what runs (exit 0 when the node is Ready, 1 otherwise)
#   scripts/kube-lab.sh build          only installs the packages and builds the binaries (minutes the first time)
#   scripts/kube-lab.sh load --image IMAGE   imports one more image from the main Docker engine
#   scripts/kube-lab.sh stop-kubelet | start-kubelet   the node goes away and comes back (the "lost node" test)
#   scripts/kube-lab.sh stop-apiserver | start-apiserver   the API server likewise (the "lost API server" test)
#
# Everything comes from the registries this machine reaches (docs/kubernetes.md, "The test cluster"):
# etcd, the CNI plugins and containerd from Debian; kube-apiserver, kube-controller-manager, kube-scheduler and
# kubelet built with `go build` from the Go module k8s.io/kubernetes; a pause image built here from static C.
# The cluster lives in its own network namespace with its own containerd (config, root, state, socket): the main
# Docker engine and its containerd are never touched, except that the workload image is read from it (docker save).
#
# Environment:
#   KUBE_LAB_CACHE   binaries and images kept between runs (default ~/.cache/node-threads-lab/kube)
#   KUBE_LAB_STATE   the running cluster's files: pids, logs, etcd data, containerd root, on a tmpfs mounted there
#                    (default /var/lib/node-threads-lab-kube, KUBE_LAB_STATE_SIZE default 6g); `down` removes it
#   KUBE_LAB_IMAGE   one more image to import (like --image); without either, `up` imports this checkout's workload
#                    image (`node-threads-lab images`, built on the main engine when missing)
set -euo pipefail

K8S_VERSION=v1.34.4
STAGING_VERSION=v0.34.4
CACHE=${KUBE_LAB_CACHE:-$HOME/.cache/node-threads-lab/kube}
STATE=${KUBE_LAB_STATE:-/var/lib/node-threads-lab-kube}

BIN=$CACHE/$K8S_VERSION/bin
NETNS=ntl-kube
# Addresses from the benchmarking range 198.18.0.0/15 (RFC 2544): never routed, so nothing here can reach a
# machine outside. The host end of the veth and the node's address inside the namespace.
HOST_IP=198.18.0.1
NODE_IP=198.18.0.2
POD_CIDR=198.18.64.0/20
SERVICE_CIDR=198.18.96.0/24
NODE_NAME=kube-lab-node
CGROUP_ROOT=/node-threads-lab-kube
KUBELET_PORT=10250
API_PORT=6443
PAUSE_IMAGE=registry.k8s.io/pause:3.10
# The state's tmpfs: the imported images twice (archive and unpacked), etcd and the runs' files.
STATE_SIZE=${KUBE_LAB_STATE_SIZE:-6g}

log() { printf 'kube-lab: %s\n' "$*" >&2; }
die() {
  log "$*"
  exit 1
}

# --- packages and binaries (cached) -------------------------------------------------------------------------

install_packages() {
  local missing=()
  command -v etcd >/dev/null || missing+=(etcd-server)
  [ -x /usr/lib/cni/bridge ] || missing+=(containernetworking-plugins)
  command -v containerd >/dev/null || missing+=(containerd)
  command -v runc >/dev/null || missing+=(runc)
  command -v ip >/dev/null || missing+=(iproute2)
  command -v iptables >/dev/null || missing+=(iptables)
  command -v openssl >/dev/null || missing+=(openssl)
  command -v gcc >/dev/null || missing+=(gcc libc6-dev)
  command -v go >/dev/null || missing+=(golang-go)
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  # etcd-server starts a system etcd on 2379 as a service by default: keep it from starting (policy-rc.d).
  printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
  chmod +x /usr/sbin/policy-rc.d
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  rm -f /usr/sbin/policy-rc.d
}

# The Go module k8s.io/kubernetes replaces its k8s.io/* libraries with ./staging/..., which its module zip does
# not hold, so `go install k8s.io/kubernetes/cmd/...@v1.34.4` fails. A small module that requires it and points
# those names at their published v0.34.x versions builds the four commands.
write_build_module() {
  local dir=$1
  mkdir -p "$dir"
  local gomod
  gomod=$(cd "$dir" && GOFLAGS=-mod=mod go mod download -json "k8s.io/kubernetes@$K8S_VERSION" |
    sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",*$/\1/p')
  [ -f "$gomod" ] || die "could not download k8s.io/kubernetes@$K8S_VERSION from the Go module proxy"
  {
    printf 'module node-threads-lab/kube-lab\n\ngo 1.24.0\n\nrequire k8s.io/kubernetes %s\n\nreplace (\n' "$K8S_VERSION"
    sed -n 's#^[[:space:]]*\(k8s.io/[a-z0-9-]*\) => ./staging/src/.*$#\t\1 => \1 '"$STAGING_VERSION"'#p' "$gomod"
    printf ')\n'
  } >"$dir/go.mod"
  cat >"$dir/tools.go" <<'EOF'
//go:build tools

package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "k8s.io/kubernetes/cmd/kubelet"
)
EOF
}

build_binaries() {
  local commands=(kube-apiserver kube-controller-manager kube-scheduler kubelet) missing=0 name
  for name in "${commands[@]}"; do [ -x "$BIN/$name" ] || missing=1; done
  [ $missing -eq 0 ] && return 0
  local src=$CACHE/$K8S_VERSION/src
  log "building Kubernetes $K8S_VERSION (the first time: about 12 minutes of one core, at the lowest priority)"
  write_build_module "$src"
  (cd "$src" && GOFLAGS=-mod=mod go mod tidy >&2)
  local major=${K8S_VERSION#v} minor
  minor=${major#*.}
  minor=${minor%%.*}
  major=${major%%.*}
  # Without these the server calls itself v0.0.0-master, which clients cannot parse.
  local flags="-s -w" pkg
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    flags+=" -X $pkg.gitVersion=$K8S_VERSION -X $pkg.gitMajor=$major -X $pkg.gitMinor=$minor"
    flags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
  done
  mkdir -p "$BIN.partial"
  for name in "${commands[@]}"; do
    [ -x "$BIN/$name" ] && continue
    log "go build $name"
    (cd "$src" && CGO_ENABLED=0 nice -n 19 go build -trimpath -ldflags "$flags" -o "$BIN.partial/$name" \
      "k8s.io/kubernetes/cmd/$name" >&2)
  done
  mkdir -p "$BIN"
  mv "$BIN.partial"/* "$BIN"/ 2>/dev/null || true
  rmdir "$BIN.partial"
}

# --- the pause image ----------------------------------------------------------------------------------------

# Every pod's sandbox runs the pause image; no registry is reachable for registry.k8s.io/pause, so it is built here:
# a static program that waits for a signal, packed as a Docker image archive that `ctr images import` reads.
build_pause_image() {
  local archive=$CACHE/pause.tar
  [ -f "$archive" ] && return 0
  local work
  work=$(mktemp -d)
  cat >"$work/pause.c" <<'EOF'
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
static void stop(int sig) { (void)sig; _exit(0); }
static void reap(int sig) { (void)sig; while (waitpid(-1, 0, WNOHANG) > 0) {} }
int main(void) {
  signal(SIGINT, stop);
  signal(SIGTERM, stop);
  signal(SIGCHLD, reap);
  for (;;) pause();
}
EOF
  mkdir -p "$work/rootfs" "$work/image"
  gcc -static -O2 -o "$work/rootfs/pause" "$work/pause.c"
  tar -C "$work/rootfs" --owner=0 --group=0 --numeric-owner --mtime=@0 -cf "$work/image/layer.tar" pause
  local diff_id config_id
  diff_id=$(sha256sum "$work/image/layer.tar" | cut -d' ' -f1)
  printf '{"architecture":"amd64","os":"linux","config":{"Entrypoint":["/pause"],"User":"65535:65535"},%s}' \
    "\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[\"sha256:$diff_id\"]}" >"$work/image/config.json"
  config_id=$(sha256sum "$work/image/config.json" | cut -d' ' -f1)
  mv "$work/image/config.json" "$work/image/$config_id.json"
  printf '[{"Config":"%s.json","RepoTags":["%s"],"Layers":["layer.tar"]}]' "$config_id" "$PAUSE_IMAGE" \
    >"$work/image/manifest.json"
  mkdir -p "$CACHE"
  tar -C "$work/image" -cf "$archive.partial" .
  mv "$archive.partial" "$archive"
  rm -rf "$work"
}

# --- certificates and configuration -------------------------------------------------------------------------

# One CA; the API server's serving certificate; two client certificates: `admin` (system:masters, for the lab's
# own components) and `runner` (only the RBAC role docs/kubernetes.md lists, for the backend and its tests).
write_certificates() {
  local pki=$STATE/pki
  mkdir -p "$pki"
  (
    cd "$pki"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 -subj /CN=kube-lab-ca 2>/dev/null
    openssl genrsa -out sa.key 2048 2>/dev/null
    openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
    sign apiserver /CN=kube-apiserver "subjectAltName=IP:$NODE_IP,IP:127.0.0.1,IP:${SERVICE_CIDR%.*/*}.1"
    sign admin "/O=system:masters/CN=kube-lab-admin" ""
    sign runner "/CN=node-threads-lab-runner" ""
  )
}

sign() {
  local name=$1 subject=$2 san=$3
  openssl req -newkey rsa:2048 -nodes -keyout "$name.key" -out "$name.csr" -subj "$subject" 2>/dev/null
  if [ -n "$san" ]; then
    printf '%s\n' "$san" >"$name.ext"
    openssl x509 -req -in "$name.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile "$name.ext" \
      -out "$name.crt" 2>/dev/null
  else
    openssl x509 -req -in "$name.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -out "$name.crt" 2>/dev/null
  fi
}

# Two contexts: `kube-lab` (the runner's user, limited by RBAC to what the backend needs) and `kube-lab-admin`.
write_kubeconfig() {
  local pki=$STATE/pki
  b64() { base64 -w0 <"$1"; }
  cat >"$STATE/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
  - name: kube-lab
    cluster:
      server: https://$NODE_IP:$API_PORT
      certificate-authority-data: $(b64 "$pki/ca.crt")
users:
  - name: runner
    user:
      client-certificate-data: $(b64 "$pki/runner.crt")
      client-key-data: $(b64 "$pki/runner.key")
  - name: admin
    user:
      client-certificate-data: $(b64 "$pki/admin.crt")
      client-key-data: $(b64 "$pki/admin.key")
contexts:
  - name: kube-lab
    context: { cluster: kube-lab, user: runner, namespace: node-threads-lab }
  - name: kube-lab-admin
    context: { cluster: kube-lab, user: admin }
current-context: kube-lab
EOF
  # The components use the admin user and the node's address from inside the namespace.
  sed -e 's/^current-context: kube-lab$/current-context: kube-lab-admin/' "$STATE/kubeconfig" >"$STATE/admin.kubeconfig"
}

write_containerd_config() {
  local dir=$STATE/containerd
  mkdir -p "$dir" "$STATE/cni/net.d"
  cat >"$dir/config.toml" <<EOF
version = 2
root = "$dir/root"
state = "$dir/state"
[grpc]
  address = "$dir/containerd.sock"
[ttrpc]
  address = "$dir/containerd.sock.ttrpc"
[plugins."io.containerd.internal.v1.opt"]
  path = "$dir/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$PAUSE_IMAGE"
  # The kubelet asks for oom_score_adj -998/-997; root here lacks CAP_SYS_RESOURCE, and without this every sandbox
  # fails to start (runc: "can't get final child's PID from pipe: EOF").
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$STATE/cni/net.d"
EOF
  cat >"$STATE/cni/net.d/10-kube-lab.conflist" <<EOF
{
  "cniVersion": "0.4.0",
  "name": "kube-lab",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "cni0",
      "isGateway": true,
      "ipMasq": false,
      "ipam": { "type": "host-local", "ranges": [[{ "subnet": "$POD_CIDR" }]], "dataDir": "$STATE/cni/ipam" }
    }
  ]
}
EOF
}

write_kubelet_config() {
  cat >"$STATE/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $NODE_IP
port: $KUBELET_PORT
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
authentication:
  anonymous: { enabled: false }
  webhook: { enabled: false }
  x509: { clientCAFile: $STATE/pki/ca.crt }
authorization: { mode: AlwaysAllow }
containerRuntimeEndpoint: unix://$STATE/containerd/containerd.sock
cgroupDriver: cgroupfs
cgroupRoot: $CGROUP_ROOT
cgroupsPerQOS: true
# Whole exclusive CPUs for Guaranteed pods with an integer CPU request. The static policy keeps ceil(reserved) CPUs,
# CPU 0 here, out of the exclusive pool; reserving 100m rather than reservedSystemCPUs "0" (a whole CPU) leaves
# 1.9 CPUs allocatable, so that an http pod (the server's exclusive CPU + the load generator's 0.5) fits a 2-CPU node.
cpuManagerPolicy: static
systemReserved: { cpu: 100m }
failSwapOn: false
podLogsDir: $STATE/pod-logs
resolvConf: ""
podPidsLimit: 1024
# A stopped kubelet shows within seconds (the backend says "lost"), not after the default 40 s lease.
nodeStatusUpdateFrequency: 4s
nodeLeaseDurationSeconds: 10
# The preloaded images must never be collected, and a busy shared disk must not evict the runs.
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: { memory.available: 100Mi, nodefs.available: 1%, imagefs.available: 1% }
EOF
}

# --- processes ----------------------------------------------------------------------------------------------

# Every daemon starts in the lab's network namespace and in the lab's own pids cgroup, so that `down` finds all of
# them (and the shims containerd starts) by pid, whatever happened to the pid files.
start_daemon() {
  local name=$1
  shift
  setsid sh -c 'echo $$ >"$1/cgroup.procs"; shift; exec nsenter --net="$@"' sh "$DAEMON_CGROUP" \
    "/run/netns/$NETNS" "$@" >"$STATE/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$STATE/pids/$name"
}

DAEMON_CGROUP=/sys/fs/cgroup/pids${CGROUP_ROOT}-daemons
HIERARCHIES=(blkio cpu cpuacct cpuset devices freezer memory pids systemd)

make_cgroups() {
  local h dir
  mkdir -p "$DAEMON_CGROUP"
  # The kubelet refuses to start unless its cgroup root exists in every v1 hierarchy.
  for h in "${HIERARCHIES[@]}"; do
    dir=/sys/fs/cgroup/$h$CGROUP_ROOT
    [ -d "/sys/fs/cgroup/$h" ] || continue
    mkdir -p "$dir"
    if [ "$h" = cpuset ]; then
      cat /sys/fs/cgroup/cpuset/cpuset.cpus >"$dir/cpuset.cpus"
      cat /sys/fs/cgroup/cpuset/cpuset.mems >"$dir/cpuset.mems"
    fi
  done
}

make_network() {
  ip netns add "$NETNS"
  ip link add ntl-kube0 type veth peer name eth0 netns "$NETNS"
  ip addr add "$HOST_IP/30" dev ntl-kube0
  ip link set ntl-kube0 up
  ip -n "$NETNS" addr add "$NODE_IP/30" dev eth0
  ip -n "$NETNS" link set eth0 up
  ip -n "$NETNS" link set lo up
  ip -n "$NETNS" route add default via "$HOST_IP"
}

api() {
  curl -sS --fail-with-body --cacert "$STATE/pki/ca.crt" --cert "$STATE/pki/admin.crt" --key "$STATE/pki/admin.key" \
    "$@"
}

# Waits up to $2 seconds for a command to succeed.
wait_for() {
  local what=$1 seconds=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || die "$what did not come up within $seconds s (logs: $STATE/logs/)"
    sleep 0.3
  done
}

node_ready() {
  api "https://$NODE_IP:$API_PORT/api/v1/nodes/$NODE_NAME" |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const n=JSON.parse(s);
      const r=n.status.conditions.find(c=>c.type==="Ready");process.exit(r&&r.status==="True"?0:1)})'
}

start_cluster() {
  local pki=$STATE/pki
  start_daemon etcd etcd --name kube-lab --data-dir "$STATE/etcd" --listen-client-urls http://127.0.0.1:2379 \
    --advertise-client-urls http://127.0.0.1:2379 --listen-peer-urls http://127.0.0.1:2380
  start_daemon containerd containerd --config "$STATE/containerd/config.toml"
  wait_for etcd 30 nsenter --net="/run/netns/$NETNS" curl -sf http://127.0.0.1:2379/health
  start_apiserver
  start_daemon kube-controller-manager "$BIN/kube-controller-manager" --kubeconfig="$STATE/admin.kubeconfig" \
    --leader-elect=false --service-account-private-key-file="$pki/sa.key" --root-ca-file="$pki/ca.crt" \
    --use-service-account-credentials=false --node-monitor-period=2s --node-monitor-grace-period=12s \
    --bind-address=127.0.0.1 --secure-port=10257
  start_daemon kube-scheduler "$BIN/kube-scheduler" --kubeconfig="$STATE/admin.kubeconfig" --leader-elect=false \
    --bind-address=127.0.0.1 --secure-port=10259
  wait_for containerd 30 test -S "$STATE/containerd/containerd.sock"
  import_images
  start_kubelet
  wait_for "the node" 90 node_ready
  apply_namespace
}

start_apiserver() {
  local pki=$STATE/pki
  start_daemon kube-apiserver "$BIN/kube-apiserver" --etcd-servers=http://127.0.0.1:2379 \
    --bind-address=0.0.0.0 --secure-port=$API_PORT --advertise-address=$NODE_IP \
    --service-cluster-ip-range=$SERVICE_CIDR --client-ca-file="$pki/ca.crt" \
    --tls-cert-file="$pki/apiserver.crt" --tls-private-key-file="$pki/apiserver.key" \
    --service-account-key-file="$pki/sa.pub" --service-account-signing-key-file="$pki/sa.key" \
    --service-account-issuer=https://kubernetes.default.svc --authorization-mode=Node,RBAC \
    --kubelet-client-certificate="$pki/admin.crt" --kubelet-client-key="$pki/admin.key" \
    --kubelet-preferred-address-types=InternalIP --enable-priority-and-fairness=false --event-ttl=30m
  wait_for kube-apiserver 60 api "https://$NODE_IP:$API_PORT/readyz"
}

start_kubelet() {
  start_daemon kubelet "$BIN/kubelet" --config="$STATE/kubelet.yaml" --kubeconfig="$STATE/admin.kubeconfig" \
    --hostname-override=$NODE_NAME --node-ip=$NODE_IP --root-dir="$STATE/kubelet" --cert-dir="$STATE/kubelet/pki"
}

ctr_lab() { ctr --address "$STATE/containerd/containerd.sock" --namespace k8s.io "$@"; }

# The pause image from the cache; the workload image(s) read from the main Docker engine (docker save only reads).
import_images() {
  ctr_lab images import --no-unpack "$CACHE/pause.tar" >/dev/null
  local image
  for image in "${IMAGES[@]}"; do
    log "importing $image from the main Docker engine"
    docker save "$image" | ctr_lab images import - >/dev/null
  done
}

# The namespace the runner uses, at Pod Security level `restricted`, and the runner's RBAC (docs/kubernetes.md).
apply_namespace() {
  local base=https://$NODE_IP:$API_PORT
  api -X POST -H 'Content-Type: application/json' "$base/api/v1/namespaces" -d '{"apiVersion":"v1","kind":"Namespace",
    "metadata":{"name":"node-threads-lab","labels":{"pod-security.kubernetes.io/enforce":"restricted"}}}' >/dev/null
  api -X POST -H 'Content-Type: application/json' "$base/apis/rbac.authorization.k8s.io/v1/namespaces/node-threads-lab/roles" \
    -d @"$SCRIPT_DIR/kube-lab/runner-role.json" >/dev/null
  api -X POST -H 'Content-Type: application/json' "$base/apis/rbac.authorization.k8s.io/v1/clusterroles" \
    -d @"$SCRIPT_DIR/kube-lab/runner-clusterrole.json" >/dev/null
  local subject='"subjects":[{"kind":"User","name":"node-threads-lab-runner","apiGroup":"rbac.authorization.k8s.io"}]'
  api -X POST -H 'Content-Type: application/json' \
    "$base/apis/rbac.authorization.k8s.io/v1/namespaces/node-threads-lab/rolebindings" -d '{"metadata":{"name":"node-threads-lab-runner"},
    "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"node-threads-lab-runner"},'"$subject"'}' >/dev/null
  api -X POST -H 'Content-Type: application/json' "$base/apis/rbac.authorization.k8s.io/v1/clusterrolebindings" \
    -d '{"metadata":{"name":"node-threads-lab-runner"},
    "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"node-threads-lab-runner"},'"$subject"'}' \
    >/dev/null
  # Pods need the namespace's `default` ServiceAccount (made by the controller manager) before they are admitted.
  wait_for "the default ServiceAccount" 30 api "$base/api/v1/namespaces/node-threads-lab/serviceaccounts/default"
}

up() {
  if [ -f "$STATE/pids/kubelet" ] && status >&2; then
    log "already up (state in $STATE); \`$0 down\` first to start afresh"
    import_images
    echo "$STATE/kubeconfig"
    return
  fi
  [ -d "$STATE" ] && down
  local began=$SECONDS
  install_packages
  build_binaries
  build_pause_image
  [ ${#IMAGES[@]} -gt 0 ] || IMAGES=("$(default_image)")
  # The state lives in memory: etcd, the unpacked images and the pods' files are gone the moment `down` unmounts it,
  # where deleting the unpacked workload image's many files from disk took 10-20 s.
  mkdir -p "$STATE"
  mount -t tmpfs -o size=$STATE_SIZE,mode=0755 ntl-kube-state "$STATE"
  mkdir -p "$STATE/pids" "$STATE/logs"
  write_certificates
  write_kubeconfig
  write_containerd_config
  write_kubelet_config
  make_cgroups
  make_network
  start_cluster
  log "up in $((SECONDS - began)) s; node $NODE_NAME Ready"
  echo "$STATE/kubeconfig"
}

# The workload image of this checkout (built on the main engine when missing), as `node-threads-lab images` prints it.
default_image() {
  (cd "$SCRIPT_DIR/.." && node runner/cli.js images 2>/dev/null | cut -f3 | head -n1)
}

# --- down and status ----------------------------------------------------------------------------------------

# A process that exited but was not reaped (its parent may never reap it) counts as gone.
alive() {
  local state
  state=$(sed -n 's/^.*) \([A-Z]\).*$/\1/p' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

# SIGTERM to every daemon named at once, up to 5 s for all of them to end, then SIGKILL to those left.
stop_daemons() {
  local pids=() name pid waiting
  for name in "$@"; do
    [ -f "$STATE/pids/$name" ] && pids+=("$(cat "$STATE/pids/$name")")
  done
  [ ${#pids[@]} -gt 0 ] || return 0
  kill -TERM "${pids[@]}" 2>/dev/null || true
  for _ in $(seq 1 50); do
    waiting=0
    for pid in "${pids[@]}"; do alive "$pid" && waiting=1; done
    [ $waiting -eq 1 ] || break
    sleep 0.1
  done
  kill -KILL "${pids[@]}" 2>/dev/null || true
  for name in "$@"; do rm -f "$STATE/pids/$name"; done
}

# Every process left in the lab's cgroups (containerd's shims, the containers), killed by pid.
kill_cgroup_members() {
  local h=$1 file pid
  for file in $(find "$DAEMON_CGROUP" "/sys/fs/cgroup/$h$CGROUP_ROOT" -name cgroup.procs 2>/dev/null); do
    for pid in $(cat "$file"); do kill -KILL "$pid" 2>/dev/null || true; done
  done
}

remove_cgroups() {
  local h dir
  # The kubelet also makes its cgroups in the cgroup v2 hierarchy of a hybrid host (`unified`).
  for h in "${HIERARCHIES[@]}" unified; do
    dir=/sys/fs/cgroup/$h$CGROUP_ROOT
    [ -d "$dir" ] && find "$dir" -depth -type d -exec rmdir {} + 2>/dev/null
  done
  [ -d "$DAEMON_CGROUP" ] && rmdir "$DAEMON_CGROUP" 2>/dev/null
  return 0
}

down() {
  local began=$SECONDS
  # The kubelet first, so that it restarts nothing; containerd last, after its containers.
  stop_daemons kubelet
  stop_daemons kube-scheduler kube-controller-manager kube-apiserver etcd
  if [ -S "$STATE/containerd/containerd.sock" ]; then
    # Stop the containers through containerd, so that their shims exit and unmount their root filesystems.
    local task
    for task in $(ctr_lab tasks ls -q 2>/dev/null); do ctr_lab tasks kill -s KILL "$task" >/dev/null 2>&1 || true; done
  fi
  stop_daemons containerd
  for _ in 1 2 3; do
    kill_cgroup_members pids
    sleep 0.3
  done
  # Mounts under the state folder (pod volumes, overlay root filesystems, shm), deepest first.
  grep -o " $STATE[^ ]*" /proc/self/mounts 2>/dev/null | sort -r | while read -r mount; do
    umount -l "$mount" 2>/dev/null || true
  done
  remove_cgroups
  ip link del ntl-kube0 2>/dev/null || true
  ip netns del "$NETNS" 2>/dev/null || true
  rm -rf "$STATE"
  log "down in $((SECONDS - began)) s"
}

status() {
  local name pid up=0
  for name in etcd containerd kube-apiserver kube-controller-manager kube-scheduler kubelet; do
    pid=$(cat "$STATE/pids/$name" 2>/dev/null || true)
    if [ -n "$pid" ] && alive "$pid"; then
      printf '%-24s running (pid %s)\n' "$name" "$pid"
    else
      printf '%-24s not running\n' "$name"
    fi
  done
  if [ -f "$STATE/pki/admin.crt" ] && node_ready; then
    printf 'node %s Ready; kubeconfig %s (context kube-lab, namespace node-threads-lab)\n' "$NODE_NAME" \
      "$STATE/kubeconfig"
  else
    printf 'node %s not Ready\n' "$NODE_NAME"
    up=1
  fi
  return $up
}

SCRIPT_DIR=$(cd "$(dirname "$0")" && pwd)
IMAGES=()

main() {
  [ "$(id -u)" -eq 0 ] || die "needs root (network namespaces, mounts, cgroups)"
  local command=${1:-}
  shift || true
  while [ $# -gt 0 ]; do
    case "$1" in
    --image)
      IMAGES+=("$2")
      shift 2
      ;;
    *) die "unknown option $1" ;;
    esac
  done
  [ -n "${KUBE_LAB_IMAGE:-}" ] && IMAGES+=("$KUBE_LAB_IMAGE")
  case "$command" in
  build)
    install_packages
    build_binaries
    build_pause_image
    ;;
  up) up ;;
  down) down ;;
  status) status ;;
  stop-kubelet) stop_daemons kubelet ;;
  start-kubelet) start_kubelet ;;
  stop-apiserver) stop_daemons kube-apiserver ;;
  start-apiserver) start_apiserver ;;
  load) import_images ;;
  *)
    sed -n '2,13p' "$0" >&2
    exit 2
    ;;
  esac
}

main "$@"
