#!/bin/sh
# Testbed node installer.
#
# Joins this machine to the Testbed Kubernetes cluster as a worker node and reports every step
# to the console. Served by the console at /agent/install/<secret> (bound to one node) or at
# /agent/install (generic: the machine registers itself and shows a code to enter in the
# console). installScript.ts fills in APP_URL and NODE_SECRET below; the rest is this file as is.
#
# Environment:
#   TESTBED_ROOT  (default empty = /) prefixes every path this script writes or checks, so the
#                 whole install can run unprivileged in a scratch directory (the tests do that).
#
# Running it twice is safe: a node that already joined (kubelet.conf present) skips the join
# and only refreshes the heartbeat and its report.
set -eu

APP_URL=@APP_URL@
NODE_SECRET=@NODE_SECRET@

ROOT="${TESTBED_ROOT:-}"
SUDO=''
CURRENT_STEP='starting'
FAIL_MESSAGE=''
JOINED_BEFORE=no

# ---------------------------------------------------------------------------------------------
# helpers

step() {
  CURRENT_STEP=$1
  printf '\n==> %s\n' "$1"
}

info() {
  printf '    %s\n' "$1"
}

# fail MESSAGE: stop the install; the exit trap reports MESSAGE to the console.
fail() {
  FAIL_MESSAGE=$1
  printf '\nERROR: %s\n' "$1" >&2
  exit 1
}

# json_string VALUE: VALUE as a JSON string literal. Backslashes and quotes are escaped and
# control characters dropped, so any hostname or os name yields valid JSON.
json_string() {
  printf '"%s"' "$(printf '%s' "$1" | tr -d '\000-\037' | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"
}

# json_field JSON NAME: the value of a string, number or boolean field of a flat JSON object.
# The console's agent answers are flat objects it controls, so sed is enough here.
json_field() {
  printf '%s' "$1" | tr -d '\n\r' | sed -n \
    -e 's/.*"'"$2"'"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' \
    -e 't' \
    -e 's/.*"'"$2"'"[[:space:]]*:[[:space:]]*\([-0-9A-Za-z.]*\).*/\1/p'
}

# The secret travels as a curl config read from stdin, never on a command line where any local
# user could read it with ps.
auth_config() {
  if [ -n "$NODE_SECRET" ]; then
    printf 'header = "Authorization: Bearer %s"\n' "$NODE_SECRET"
  fi
}

# api METHOD PATH [JSON_BODY]: call the console's agent API and print the answer's body.
api() {
  if [ $# -ge 3 ]; then
    auth_config | curl -fsS --retry 3 --retry-delay 2 --connect-timeout 10 --max-time 60 -K - \
      -X "$1" -H 'Accept: application/json' -H 'Content-Type: application/json' \
      --data-binary "$3" "$APP_URL$2"
  else
    auth_config | curl -fsS --retry 3 --retry-delay 2 --connect-timeout 10 --max-time 60 -K - \
      -X "$1" -H 'Accept: application/json' "$APP_URL$2"
  fi
}

# report STEP [MESSAGE] [FACTS_JSON]
report() {
  report_body="{\"step\":$(json_string "$1")"
  if [ -n "${2:-}" ]; then report_body="$report_body,\"message\":$(json_string "$2")"; fi
  if [ -n "${3:-}" ]; then report_body="$report_body,\"facts\":$3"; fi
  report_body="$report_body}"
  api POST /agent/report "$report_body" >/dev/null
}

# write_file PATH MODE: write stdin to PATH (creating its directory) with MODE.
write_file() {
  $SUDO mkdir -p "$(dirname "$1")"
  $SUDO tee "$1" >/dev/null
  $SUDO chmod "$2" "$1"
}

on_exit() {
  exit_status=$?
  trap - EXIT
  if [ "$exit_status" -ne 0 ]; then
    if [ -z "$FAIL_MESSAGE" ]; then FAIL_MESSAGE="failed while $CURRENT_STEP (exit status $exit_status)"; fi
    printf '\nThe Testbed node installation failed: %s\n' "$FAIL_MESSAGE" >&2
    # Best effort: the console shows the failure in the node's activity.
    if [ -n "$NODE_SECRET" ]; then
      report failed "$FAIL_MESSAGE" >/dev/null 2>&1 || true
    fi
  fi
  exit "$exit_status"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------------------------------------
# prerequisites

step 'checking prerequisites'
missing=''
for command_name in curl uname sed tr grep kubeadm systemctl; do
  if ! command -v "$command_name" >/dev/null 2>&1; then missing="$missing $command_name"; fi
done
if [ -n "$missing" ]; then
  fail "missing required commands:$missing (install them and run this script again)"
fi

# Writing under /etc and running kubeadm and systemctl need root. With TESTBED_ROOT set every
# file goes to that scratch tree, so root is not required (the system commands are test doubles
# there).
if [ -n "$ROOT" ]; then
  info "TESTBED_ROOT=$ROOT: files go there, root is not required"
elif [ "$(id -u)" -eq 0 ]; then
  SUDO=''
elif command -v sudo >/dev/null 2>&1; then
  SUDO='sudo'
  info 'not running as root: using sudo'
else
  fail 'this script must run as root (or with sudo installed)'
fi
info "kubeadm $(kubeadm version -o short 2>/dev/null || printf 'version unknown')"

# ---------------------------------------------------------------------------------------------
# facts about this machine

step 'collecting system facts'
fact_hostname=$(uname -n)
fact_architecture=$(uname -m)
fact_kernel=$(uname -r)
fact_os=''
# The os-release of the target root when there is one, else this machine's.
for os_release in "$ROOT/etc/os-release" "$ROOT/usr/lib/os-release" /etc/os-release; do
  if [ -r "$os_release" ]; then
    fact_os=$(sed -n 's/^PRETTY_NAME=//p' "$os_release" | sed -e 's/^"//' -e 's/"$//' -e "s/^'//" -e "s/'\$//")
    break
  fi
done
if [ -z "$fact_os" ]; then fact_os="$(uname -s) (unknown distribution)"; fi
fact_addresses=''
if command -v hostname >/dev/null 2>&1 && hostname -I >/dev/null 2>&1; then
  fact_addresses=$(hostname -I 2>/dev/null || true)
elif command -v ip >/dev/null 2>&1; then
  fact_addresses=$(ip -o addr show scope global 2>/dev/null | awk '{ split($4, a, "/"); print a[1] }' || true)
fi
addresses_json=''
for address in $fact_addresses; do
  if [ -n "$addresses_json" ]; then addresses_json="$addresses_json,"; fi
  addresses_json="$addresses_json$(json_string "$address")"
done
FACTS="{\"hostname\":$(json_string "$fact_hostname"),\"addresses\":[$addresses_json],\"architecture\":$(json_string "$fact_architecture"),\"os\":$(json_string "$fact_os"),\"kernel\":$(json_string "$fact_kernel")}"
info "hostname:     $fact_hostname"
info "addresses:    $(printf '%s' "$fact_addresses" | tr '\n' ' ')"
info "architecture: $fact_architecture"
info "os:           $fact_os"
info "kernel:       $fact_kernel"

# ---------------------------------------------------------------------------------------------
# machine first: register and wait until someone claims this machine in the console

SECRET_FILE="$ROOT/etc/testbed/node-secret"

if [ -z "$NODE_SECRET" ]; then
  step 'registering this machine with the console'
  # A machine that registered before keeps its identity instead of registering again.
  if [ -s "$SECRET_FILE" ]; then
    NODE_SECRET=$($SUDO cat "$SECRET_FILE")
    if api GET /agent/node >/dev/null 2>&1; then
      info 'this machine registered before: reusing its identity'
    else
      NODE_SECRET=''
    fi
  fi
  if [ -z "$NODE_SECRET" ]; then
    register_answer=$(api POST /agent/register "{\"facts\":$FACTS}")
    NODE_SECRET=$(json_field "$register_answer" secret)
    claim_code=$(json_field "$register_answer" code)
    poll_seconds=$(json_field "$register_answer" poll_seconds)
    code_expires_at=$(json_field "$register_answer" code_expires_at)
    case "$NODE_SECRET" in tbn_*) ;; *) fail 'the console did not answer the registration with a node secret' ;; esac
    case "$poll_seconds" in '' | *[!0-9]*) poll_seconds=5 ;; esac
    if [ "$poll_seconds" -lt 1 ]; then poll_seconds=1; fi
    # How long to wait for the claim: the code's lifetime by this machine's clock. A board
    # without a real-time clock may boot with a wrong date, so an implausible lifetime falls back
    # to 15 minutes; the waiting itself is counted in poll intervals, not by the clock.
    code_lifetime=900
    now_seconds=$(date -u +%s 2>/dev/null || true)
    expires_seconds=$(date -u -d "$code_expires_at" +%s 2>/dev/null || true)
    case "$now_seconds$expires_seconds" in
      '' | *[!0-9]*) ;;
      *)
        if [ "$expires_seconds" -gt "$now_seconds" ] && [ "$expires_seconds" -le "$((now_seconds + 86400))" ]; then
          code_lifetime=$((expires_seconds - now_seconds))
        fi
        ;;
    esac
    (umask 077 && printf '%s\n' "$NODE_SECRET" | write_file "$SECRET_FILE" 600)

    code_line="Enter this code in the console at $APP_URL/nodes/create: $claim_code"
    border=$(printf '%s' "$code_line" | sed 's/./*/g')
    printf '\n    **%s**\n    * %s *\n    **%s**\n\n' "$border" "$code_line" "$border"
    info "The code expires at $code_expires_at."

    step 'waiting for this machine to be claimed in the console'
    waited=0
    while :; do
      node_answer=$(api GET /agent/node) || fail 'the console no longer knows this machine (its code expired); run this script again for a new code'
      if [ "$(json_field "$node_answer" claimed)" = true ]; then
        info 'claimed: continuing the installation'
        break
      fi
      if [ "$waited" -ge "$code_lifetime" ]; then
        fail "nobody entered the code $claim_code before it expired; run this script again for a new code"
      fi
      sleep "$poll_seconds"
      waited=$((waited + poll_seconds))
    done
  fi
fi

# ---------------------------------------------------------------------------------------------
# install

step 'checking in with the console'
report checkin '' "$FACTS"
(umask 077 && printf '%s\n' "$NODE_SECRET" | write_file "$SECRET_FILE" 600)
printf '%s\n' "$APP_URL" | write_file "$ROOT/etc/testbed/app-url" 644

KUBELET_CONF="$ROOT/etc/kubernetes/kubelet.conf"
if [ -e "$KUBELET_CONF" ]; then
  JOINED_BEFORE=yes
fi

if [ "$JOINED_BEFORE" = no ]; then
  step 'getting a bootstrap token'
  bootstrap_answer=$(api POST /agent/bootstrap '{}')
  join_token=$(json_field "$bootstrap_answer" token)
  join_ca_hash=$(json_field "$bootstrap_answer" ca_cert_hash)
  join_api_server=$(json_field "$bootstrap_answer" api_server)
  join_node_name=$(json_field "$bootstrap_answer" node_name)
  printf '%s\n' "$join_token" | grep -Eq '^[a-z0-9]{6}\.[a-z0-9]{16}$' || fail 'the console sent no valid bootstrap token'
  printf '%s\n' "$join_ca_hash" | grep -Eq '^sha256:[0-9a-f]{64}$' || fail 'the console sent no valid CA certificate hash'
  printf '%s\n' "$join_api_server" | grep -Eq '^[][A-Za-z0-9.:-]+:[0-9]+$' || fail 'the console sent no valid API server address'
  printf '%s\n' "$join_node_name" | grep -Eq '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$' || fail 'the console sent no valid node name'
  info "node name:  $join_node_name"
  info "API server: $join_api_server"
fi

step 'joining the cluster'
if [ "$JOINED_BEFORE" = yes ]; then
  report installing 'already joined the cluster; skipping kubeadm join'
  info "$KUBELET_CONF exists: this node already joined, skipping kubeadm join"
else
  report installing "joining the cluster as $join_node_name"
  $SUDO kubeadm join "$join_api_server" --token "$join_token" \
    --discovery-token-ca-cert-hash "$join_ca_hash" --node-name "$join_node_name"
fi

step 'starting the kubelet'
$SUDO systemctl enable --now kubelet

step 'installing the heartbeat'
write_file "$ROOT/usr/local/sbin/testbed-heartbeat" 755 <<'HEARTBEAT'
#!/bin/sh
# Testbed node heartbeat: tells the console this node is alive. Installed by the Testbed
# install script and run every minute by testbed-heartbeat.timer. TESTBED_ROOT (default empty)
# prefixes the paths it reads, as in the install script.
set -eu
app_url=$(cat "${TESTBED_ROOT:-}/etc/testbed/app-url")
node_secret=$(cat "${TESTBED_ROOT:-}/etc/testbed/node-secret")
printf 'header = "Authorization: Bearer %s"\n' "$node_secret" |
  curl -fsS --retry 3 --retry-delay 2 --connect-timeout 10 --max-time 60 -K - \
    -X POST -o /dev/null "$app_url/agent/heartbeat"
HEARTBEAT
write_file "$ROOT/etc/systemd/system/testbed-heartbeat.service" 644 <<'SERVICE'
[Unit]
Description=Testbed node heartbeat
Wants=network-online.target
After=network-online.target

[Service]
Type=oneshot
ExecStart=/bin/sh /usr/local/sbin/testbed-heartbeat
SERVICE
write_file "$ROOT/etc/systemd/system/testbed-heartbeat.timer" 644 <<'TIMER'
[Unit]
Description=Testbed node heartbeat every minute

[Timer]
OnBootSec=1min
OnUnitActiveSec=1min
AccuracySec=5s

[Install]
WantedBy=timers.target
TIMER
$SUDO systemctl daemon-reload
$SUDO systemctl enable --now testbed-heartbeat.timer
info 'sending a first heartbeat'
TESTBED_ROOT="$ROOT" $SUDO sh "$ROOT/usr/local/sbin/testbed-heartbeat"

step 'reporting the node as joined'
report joined
CURRENT_STEP='done'
printf '\nThis machine is now a Testbed node. Follow its status in the console at %s/nodes\n' "$APP_URL"
