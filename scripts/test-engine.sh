#!/usr/bin/env bash
# Starts (or stops) a private Docker engine for the sandbox tests, the same way CI does, and builds the small
# offline test images (no registry is reachable on CI machines): busybox-static with Debian's bash-static as
# /bin/bash, and a POSIX-only one with busybox alone (the `shell: 'bash'` fallback tests).
#
#   scripts/test-engine.sh start [DIR]   # prints the `export` lines the tests read; eval them
#   scripts/test-engine.sh stop  [DIR]
#
# DIR (default /tmp/agenttoolkit-engine) holds the socket, data root, exec root, pid file and log, so this engine
# never clashes with a system dockerd or with another copy started elsewhere. Needs root and Debian's packages
# `docker.io`, `busybox-static` and `bash-static` (and `bubblewrap` for the bubblewrap tests). When Debian's `runsc`
# (gVisor) is installed the engine also gets it as the runtime `runsc`, and `start` says so in
# AGENTTOOLKIT_DOCKER_RUNSC (the runtime's name) for the specs that run a sandbox on it.
set -euo pipefail

action="${1:-}"
dir="${2:-${AGENTTOOLKIT_ENGINE_DIR:-/tmp/agenttoolkit-engine}}"
image="${AGENTTOOLKIT_DOCKER_IMAGE:-agenttoolkit-test:busybox}"
posix_image="${AGENTTOOLKIT_DOCKER_POSIX_IMAGE:-agenttoolkit-test:busybox-posix}"
# Bump when an image's content changes: `start` rebuilds an image whose label differs.
image_version=3
bash_static=/usr/bin/bash-static
runsc=/usr/bin/runsc
sock="$dir/docker.sock"
host="unix://$sock"

log() { echo "test-engine: $*" >&2; }

require() {
  for bin in "$@"; do
    command -v "$bin" >/dev/null 2>&1 || {
      log "missing '$bin': apt-get install -y docker.io busybox-static bash-static bubblewrap"
      exit 1
    }
  done
}

# Prints the runtime name when gVisor's runsc is installed (the engine then registers it), else nothing.
runsc_runtime() {
  if [ -x "$runsc" ]; then echo runsc; fi
}

start() {
  require dockerd docker busybox
  [ -x "$bash_static" ] || { log "missing $bash_static: apt-get install -y bash-static"; exit 1; }
  mkdir -p "$dir"
  local runtime_args=()
  if [ -n "$(runsc_runtime)" ]; then
    # gVisor's own network stack refuses to start in this engine's network namespaces ("cannot run with network
    # enabled in root network namespace"): runsc gets only its loopback, which is what sandboxes without network use.
    printf '{"runtimes": {"runsc": {"path": "%s", "runtimeArgs": ["--network=none"]}}}\n' "$runsc" >"$dir/daemon.json"
    runtime_args=(--config-file "$dir/daemon.json")
  fi
  if [ -S "$sock" ] && docker -H "$host" version >/dev/null 2>&1; then
    log "engine already answering on $sock"
  else
    rm -f "$sock"
    # vfs storage, no bridge and no iptables: works in VMs and containers without extra kernel features.
    nohup dockerd --host "$host" --data-root "$dir/root" --exec-root "$dir/exec" --pidfile "$dir/docker.pid" \
      --iptables=false --ip-masq=false --bridge=none --storage-driver=vfs "${runtime_args[@]}" >"$dir/dockerd.log" 2>&1 &
    for _ in $(seq 1 120); do
      docker -H "$host" version >/dev/null 2>&1 && break
      sleep 0.5
    done
    docker -H "$host" version >/dev/null 2>&1 || { log "dockerd did not answer; see $dir/dockerd.log"; tail -20 "$dir/dockerd.log" >&2; exit 1; }
    log "engine up on $sock (pid $(cat "$dir/docker.pid"))"
  fi
  [ "$(image_label "$image")" = "$image_version" ] || build_image "$image" bash
  [ "$(image_label "$posix_image")" = "$image_version" ] || build_image "$posix_image" posix
  echo "export AGENTTOOLKIT_DOCKER_HOST=$host"
  echo "export AGENTTOOLKIT_DOCKER_IMAGE=$image"
  echo "export AGENTTOOLKIT_DOCKER_POSIX_IMAGE=$posix_image"
  # An engine started before runsc was installed does not know it: report only a runtime it lists.
  if [ -n "$(runsc_runtime)" ] && docker -H "$host" info --format '{{ json .Runtimes }}' 2>/dev/null | grep -q '"runsc"'; then
    echo "export AGENTTOOLKIT_DOCKER_RUNSC=runsc"
  fi
}

image_label() {
  docker -H "$host" image inspect --format '{{ index .Config.Labels "io.agenttoolkit.test-image" }}' "$1" 2>/dev/null || true
}

# A root filesystem holding only busybox and one symlink per applet (plus, for the `bash` flavour, Debian's
# statically linked bash as /bin/bash), imported as an image: no registry needed.
build_image() {
  local name="$1" flavour="$2" rootfs
  rootfs="$(mktemp -d)"
  chmod 755 "$rootfs" # mktemp makes it 0700: the image root must be traversable by non-root users
  mkdir -p "$rootfs/bin" "$rootfs/tmp" "$rootfs/etc" "$rootfs/proc" "$rootfs/dev" "$rootfs/sys" "$rootfs/workspace" "$rootfs/mnt"
  cp "$(command -v busybox)" "$rootfs/bin/busybox"
  for applet in $(busybox --list); do
    [ "$applet" = busybox ] || ln -sf busybox "$rootfs/bin/$applet"
  done
  # Debian's busybox-static has no nohup applet: a POSIX equivalent, so the tests can start `nohup` processes.
  if [ ! -e "$rootfs/bin/nohup" ]; then
    printf '#!/bin/sh\ntrap "" HUP\nexec "$@"\n' >"$rootfs/bin/nohup"
    chmod 755 "$rootfs/bin/nohup"
  fi
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$rootfs/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$rootfs/etc/group"
  [ "$flavour" != bash ] || cp "$bash_static" "$rootfs/bin/bash"
  tar -C "$rootfs" -cf "$rootfs.tar" .
  docker -H "$host" import --change 'CMD ["/bin/sh"]' --change 'ENV PATH=/bin' \
    --change "LABEL io.agenttoolkit.test-image=$image_version" "$rootfs.tar" "$name" >/dev/null
  rm -rf "$rootfs" "$rootfs.tar"
  log "built image $name ($flavour)"
}

stop() {
  if [ -f "$dir/docker.pid" ]; then
    local pid
    pid="$(cat "$dir/docker.pid")"
    if kill -0 "$pid" 2>/dev/null; then
      # Remove leftover containers first so their shims exit with the engine.
      local ids
      ids="$(docker -H "$host" ps -aq 2>/dev/null || true)"
      [ -z "$ids" ] || docker -H "$host" rm -f $ids >/dev/null 2>&1 || true
      kill "$pid"
      for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      kill -0 "$pid" 2>/dev/null && { log "dockerd $pid still running, sending SIGKILL"; kill -9 "$pid"; }
    fi
    log "engine stopped"
  fi
  # The vfs data root is disposable; unmount anything dockerd left behind before removing it.
  grep -o " $dir/[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
  rm -rf "$dir"
}

case "$action" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop [DIR]" >&2; exit 2 ;;
esac
