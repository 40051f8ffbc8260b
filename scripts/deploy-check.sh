#!/usr/bin/env bash
# `npm run deploy:check` (issue #34): the Dockerfile and compose.yaml, built and run on a real container
# engine, as a new operator would, before anything that touches deployment is called done. As root, on a
# Debian machine that reaches only Debian's mirror and the npm registry, with ../shared/docker beside the
# checkout (HIRAM_DOCKER_KIT=… elsewhere; its README says what the stand-ins are):
#   1. the engine and a local node:24-slim (shared local-base-image.sh), when missing
#   2. verify-image.sh: build, ready on an empty /data as uid 1000, PID 1, first admin, HEALTHCHECK, stop
#   3. the image further: what Hiram adds to the base (≤ 150 MB), a read-only root file system, a volume an
#      older image left behind, a restart on the same volume, no source maps served, quiet health probes
#   4. compose.yaml with stand-ins (deploy/compose.standin.yaml): both instances and Caddy up, one first
#      administrator, sessions across instances (shared two-instances-check.mjs), pictures in the bucket
#      served by the other instance, each instance stopped and started again under traffic through Caddy
#   5. the backups DEPLOY.md gives, run as written: pg_dump, a fresh PostgreSQL, pg_restore, the borrower
#      signs in; rclone copy of the bucket, a fresh store, rclone copy back, the pictures are served
# `--compose-only` skips 2 and 3 and runs the image an earlier run built (while working on compose.yaml).
# Prints OK/FAIL lines and exits non-zero on any FAIL. Leaves no containers, volumes or networks behind;
# keeps the images (the next run is quicker) and the engine running (stop it: kill $(cat /run/dockerd-local.pid)).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KIT=${HIRAM_DOCKER_KIT:-$ROOT/../shared/docker}
PORT=${DEPLOY_CHECK_PORT:-3601}
PROJECT=hiram-check
BASE_LIMIT_MB=150
# The checks talk to Caddy's local CA without verifying it; Node's warning about that is noise here.
export NODE_NO_WARNINGS=1
fail=0
ok() { echo "OK   $*"; }
bad() { echo "FAIL $*"; fail=1; }
step() { printf '\n== %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }
[ "$(id -u)" = 0 ] || { echo "deploy-check: run as root (it starts Docker and builds images)" >&2; exit 1; }
[ -x "$KIT/verify-image.sh" ] || { echo "deploy-check: no Docker kit at $KIT (set HIRAM_DOCKER_KIT)" >&2; exit 1; }
WORK=$(mktemp -d /tmp/hiram-deploy-check.XXXXXX)
chmod 755 "$WORK"
compose() { docker-compose -p "$PROJECT" --env-file "$WORK/.env" -f "$ROOT/compose.yaml" -f "$ROOT/deploy/compose.standin.yaml" "$@"; }
cleanup() {
  [ -f "$WORK/.env" ] && compose down -v --remove-orphans >/dev/null 2>&1
  docker rm -f hiram-check-ro hiram-check-old >/dev/null 2>&1
  docker volume rm hiram-check-ro hiram-check-old >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT
seconds() { echo "$(date +%s.%N) - $1" | bc | cut -c1-4; }
wait_ready() { # URL [tries of 0.25 s]
  for _ in $(seq 1 "${2:-240}"); do
    [ "$(curl -ks -o /dev/null -w '%{http_code}' "$1")" = 200 ] && return 0; sleep 0.25
  done; return 1
}

step "1. engine and base image"
# The apt sources may be deb822 files only; local-base-image.sh's own look-up needs a sources.list.
MIRROR=${MIRROR:-$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources /dev/null | awk '{print $2}' | grep -v -- -security | head -1)}
export MIRROR=${MIRROR:-http://deb.debian.org/debian}
if ! docker info >/dev/null 2>&1; then
  "$KIT/local-base-image.sh" --install --start-daemon || { bad "engine and base image"; exit 1; }
elif ! docker image inspect node:24-slim >/dev/null 2>&1; then
  "$KIT/local-base-image.sh" || { bad "base image"; exit 1; }
fi
ok "docker $(docker version -f '{{.Server.Version}}'), base $(docker image inspect -f '{{.Comment}}' node:24-slim | cut -c1-60)"

IMAGE=hiram-verify
if [ "${1:-}" != --compose-only ]; then
step "2. verify-image.sh"
TAG=$IMAGE "$KIT/verify-image.sh" "$ROOT" "$PORT" || fail=1
docker image inspect "$IMAGE" >/dev/null 2>&1 || { bad "no image to check further"; exit 1; }

step "3. the image further"
base_bytes=$(docker image inspect -f '{{.Size}}' node:24-slim)
image_bytes=$(docker image inspect -f '{{.Size}}' "$IMAGE")
added=$(( (image_bytes - base_bytes) / 1000000 ))
[ "$added" -le "$BASE_LIMIT_MB" ] && ok "Hiram adds ${added} MB to the base image (limit ${BASE_LIMIT_MB} MB)" \
  || bad "Hiram adds ${added} MB to the base image (limit ${BASE_LIMIT_MB} MB)"
# Hiram's layers, above the base image's one
docker history --format '{{.Size}}  {{.CreatedBy}}' "$IMAGE" | grep -v '^0B' | sed '$d' | sed 's/^/       /' | cut -c1-100

# Read-only root file system, uid 1000 (the image's user), the data volume and a tmpfs on /tmp.
docker volume create hiram-check-ro >/dev/null
t0=$(date +%s.%N)
docker run -d --name hiram-check-ro --network=host --read-only --tmpfs /tmp -v hiram-check-ro:/data \
  -e PORT="$PORT" "$IMAGE" >/dev/null
if wait_ready "http://127.0.0.1:$PORT/api/health/ready"; then ok "read-only root: ready on an empty volume in $(seconds "$t0")s as uid $(docker exec hiram-check-ro id -u)"
else bad "read-only root: not ready"; docker logs hiram-check-ro 2>&1 | tail -5; fi
mode=$(docker exec hiram-check-ro stat -c '%U %a' /data/pgdata 2>/dev/null)
[ "$mode" = "node 700" ] && ok "the database is the node user's and private (/data/pgdata $mode)" || bad "/data/pgdata is $mode"
maps=$(docker exec hiram-check-ro sh -c 'find /app \( -name "*.js.map" -o -name "*.css.map" \) ! -path "*/node_modules/*" | head -3')
asset=$(curl -s "http://127.0.0.1:$PORT/" | grep -o '/assets/main-[^"]*\.js' | head -1)
map_status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT$asset.map")
[ -z "$maps" ] && [ -n "$asset" ] && [ "$map_status" = 404 ] && ok "no source maps in the image; $asset.map answers $map_status" \
  || bad "source maps: ${maps:-none in the image}; $asset.map answers $map_status"
for _ in 1 2 3 4 5; do curl -s -o /dev/null "http://127.0.0.1:$PORT/api/health"; curl -s -o /dev/null "http://127.0.0.1:$PORT/api/health/ready"; done
curl -s -o /dev/null "http://127.0.0.1:$PORT/api/me"
probe_lines=$(docker logs hiram-check-ro 2>&1 | grep -c '"url":"/api/health')
me_lines=$(docker logs hiram-check-ro 2>&1 | grep -c '"url":"/api/me"')
[ "$probe_lines" = 0 ] && [ "$me_lines" -ge 1 ] && ok "health probes log nothing when they pass (10 probes: $probe_lines lines; one /api/me: $me_lines)" \
  || bad "health probes wrote $probe_lines log lines (an /api/me request: $me_lines)"
t1=$(date +%s.%N); docker stop hiram-check-ro >/dev/null
[ "$(docker inspect -f '{{.State.ExitCode}}' hiram-check-ro)" = 0 ] && ok "docker stop: exit 0 in $(seconds "$t1")s" || bad "docker stop: exit $(docker inspect -f '{{.State.ExitCode}}' hiram-check-ro)"
# The same volume again: the database is kept, no second administrator.
docker rm hiram-check-ro >/dev/null
docker run -d --name hiram-check-ro --network=host --read-only --tmpfs /tmp -v hiram-check-ro:/data \
  -e PORT="$PORT" "$IMAGE" >/dev/null
if wait_ready "http://127.0.0.1:$PORT/api/health/ready" && ! docker logs hiram-check-ro 2>&1 | grep -q 'First start'; then
  ok "restart on the same volume: ready, the database kept (no new administrator)"
else bad "restart on the same volume"; docker logs hiram-check-ro 2>&1 | tail -5; fi
docker stop hiram-check-ro >/dev/null; docker rm hiram-check-ro >/dev/null

# A volume the images before #34 left: their first start died copying the template, leaving pgdata.partial
# (files of uid 1000) and the generated session secret.
docker volume create hiram-check-old >/dev/null
docker run --rm --user root -v hiram-check-old:/data --entrypoint sh "$IMAGE" -c \
  'mkdir -p /data/pgdata.partial/base && echo 17 > /data/pgdata.partial/PG_VERSION && head -c 48 /dev/urandom | base64 > /data/session-secret && chown -R 1000:1000 /data && chmod 755 /data'
docker run -d --name hiram-check-old --network=host --read-only --tmpfs /tmp -v hiram-check-old:/data \
  -e PORT="$PORT" "$IMAGE" >/dev/null
if wait_ready "http://127.0.0.1:$PORT/api/health/ready"; then ok "a volume an older image left (pgdata.partial, session-secret): ready"
else bad "a volume an older image left: not ready"; docker logs hiram-check-old 2>&1 | tail -5; fi
docker stop hiram-check-old >/dev/null; docker rm hiram-check-old >/dev/null
docker volume rm hiram-check-ro hiram-check-old >/dev/null
fi

step "4. compose.yaml with stand-ins"
command -v docker-compose >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null
command -v rclone >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq rclone >/dev/null
"$KIT/compose-standins.sh" >/dev/null || { bad "building the stand-ins"; exit 1; }
# deploy/env.example filled in as DEPLOY.md says; the stand-in store accepts only the key S3RVER/S3RVER.
sed -e "s|^SUPPORT_EMAIL=$|SUPPORT_EMAIL=help@lender.example.ph|" \
    -e "s|^SESSION_SECRET=$|SESSION_SECRET=$(openssl rand -base64 48 | tr -d '\n')|" \
    -e "s|^POSTGRES_PASSWORD=$|POSTGRES_PASSWORD=$(openssl rand -hex 24)|" \
    -e "s|^S3_ACCESS_KEY_ID=.*|S3_ACCESS_KEY_ID=S3RVER|" -e "s|^S3_SECRET_ACCESS_KEY=$|S3_SECRET_ACCESS_KEY=S3RVER|" \
    -e "s|^SMS_WEBHOOK_URL=$|SMS_WEBHOOK_URL=http://sms-sink:8080/sms|" "$ROOT/deploy/env.example" > "$WORK/.env"
grep -q '=$' "$WORK/.env" && bad "deploy/env.example has a value the check does not fill: $(grep '=$' "$WORK/.env")"
set -a; . "$WORK/.env"; set +a
compose config -q && ok "docker-compose config" || bad "docker-compose config"
# The image verify-image.sh built is the one compose runs (compose would build the same from the same files).
docker tag "$IMAGE" hiram:latest
t0=$(date +%s.%N)
compose up -d --no-build >"$WORK/up.log" 2>&1 || { bad "docker-compose up"; tail -20 "$WORK/up.log"; }
healthy() { [ "$(docker inspect -f '{{.State.Health.Status}}' "$(compose ps -q "$1")" 2>/dev/null)" = healthy ]; }
for _ in $(seq 1 120); do healthy app-a && healthy app-b && break; sleep 1; done
healthy app-a && healthy app-b && ok "app-a and app-b healthy $(seconds "$t0")s after up" \
  || { bad "instances not healthy"; compose ps; compose logs --tail=20 s3-bucket app-a app-b; }
compose logs --no-color s3-bucket | grep 's3-bucket:' | sed 's/^.*| /       /'
wait_ready https://localhost/api/health/ready 120 && ok "https://localhost/api/health/ready through Caddy" || bad "Caddy: not ready"
admins=$(compose logs --no-color app-a app-b | grep -c 'First start: an administrator account was created')
[ "$admins" = 1 ] && ok "one first administrator, in: $(compose logs --no-color app-a app-b | grep 'First start' | cut -d' ' -f1)" \
  || bad "$admins first-administrator banners"
ip() { docker inspect -f "{{(index .NetworkSettings.Networks \"${PROJECT}_backend\").IPAddress}}" "$(compose ps -q "$1")"; }
A="http://$(ip app-a):3000"; B="http://$(ip app-b):3000"
export SMS_CONTAINER; SMS_CONTAINER=$(compose ps -q sms-sink)
node "$KIT/two-instances-check.mjs" "$A" "$B" https://localhost | sed 's/^/  /'
[ "${PIPESTATUS[0]}" = 0 ] || fail=1
STATE=$WORK/borrower.json
node "$ROOT/scripts/deploy-check.mjs" pictures "$A" "$B" http://127.0.0.1:7070 "$STATE" | sed 's/^/  /'
[ "${PIPESTATUS[0]}" = 0 ] || fail=1

# Rolling restart under traffic: each instance stopped (SIGTERM; timed) and started again while borrowers'
# requests go through Caddy; none may fail.
node "$ROOT/scripts/deploy-check.mjs" load https://localhost 45 >"$WORK/load.log" 2>&1 &
loader=$!
for service in app-a app-b; do
  sleep 5
  t=$(date +%s.%N); compose stop "$service" >/dev/null 2>&1
  code=$(docker inspect -f '{{.State.ExitCode}}' "$(compose ps -q "$service")")
  [ "$code" = 0 ] && ok "$service stopped under load: exit 0 in $(seconds "$t")s" || bad "$service stopped under load: exit $code"
  sleep 4; compose start "$service" >/dev/null 2>&1
  for _ in $(seq 1 60); do healthy "$service" && break; sleep 1; done
  healthy "$service" && ok "$service started again and healthy" || bad "$service did not come back"
  sleep 6 # Caddy's next health check (every 5 s) puts it back in rotation
done
wait "$loader"; status=$?
sed 's/^/  /' "$WORK/load.log"; [ "$status" = 0 ] || fail=1

step "5. backups and restores, as DEPLOY.md gives them"
cd "$WORK" || exit 1
# PostgreSQL: dump, then a fresh database server (new volume), restore, the borrower signs in.
compose exec -T postgres pg_dump -U hiram -Fc hiram > hiram.dump
pg_ok=$(head -c 5 hiram.dump)
[ "$pg_ok" = PGDMP ] && ok "pg_dump -Fc: $(stat -c %s hiram.dump) bytes, a custom-format archive" || bad "pg_dump wrote no archive"
compose stop app-a app-b >/dev/null 2>&1
compose rm -fsv postgres >/dev/null 2>&1 && docker volume rm "${PROJECT}_postgres-data" >/dev/null
compose up -d --no-deps postgres >/dev/null 2>&1
for _ in $(seq 1 60); do healthy postgres && break; sleep 1; done
compose exec -T postgres pg_restore -U hiram -d hiram --no-owner --exit-on-error < hiram.dump \
  && ok "pg_restore into a fresh PostgreSQL" || bad "pg_restore"
compose start app-a app-b >/dev/null 2>&1
for _ in $(seq 1 90); do healthy app-a && healthy app-b && break; sleep 1; done
wait_ready https://localhost/api/health/ready 120 && ok "both instances ready on the restored database" || bad "not ready after the restore"
admins=$(compose logs --no-color app-a app-b | grep -c 'First start: an administrator account was created')
[ "$admins" = 1 ] && ok "no new administrator after the restore" || bad "$admins first-administrator banners after the restore"
node "$ROOT/scripts/deploy-check.mjs" signin https://localhost "$STATE" | sed 's/^/  /'
[ "${PIPESTATUS[0]}" = 0 ] || fail=1

# The bucket: rclone copy out, a fresh store (new volumes, the bucket step again), rclone copy back.
# (This machine's AWS_CA_BUNDLE, for a TLS-intercepting proxy, is nothing rclone needs for plain http.
# --fast-list: one listing of the whole bucket; s3rver also answers a listing by folders wrongly.)
unset AWS_CA_BUNDLE
export RCLONE_CONFIG_HIRAMS3_TYPE=s3 RCLONE_CONFIG_HIRAMS3_PROVIDER=Other \
  RCLONE_CONFIG_HIRAMS3_ENDPOINT=http://127.0.0.1:7070 RCLONE_CONFIG_HIRAMS3_ACCESS_KEY_ID="$S3_ACCESS_KEY_ID" \
  RCLONE_CONFIG_HIRAMS3_SECRET_ACCESS_KEY="$S3_SECRET_ACCESS_KEY"
rclone copy --fast-list hirams3:hiram-files "hiram-files-$(date +%F)" 2>"$WORK/rclone.log"
copied=$(find "hiram-files-$(date +%F)" -type f 2>/dev/null | wc -l)
[ "$copied" -ge 4 ] && ok "rclone copy of the bucket: $copied files" || { bad "rclone copy out: $copied files"; tail -5 "$WORK/rclone.log"; }
compose rm -fsv s3 >/dev/null 2>&1 && docker volume rm "${PROJECT}_s3-data" "${PROJECT}_s3-versions" >/dev/null
compose up -d --no-deps s3 >/dev/null 2>&1 && compose run --rm s3-bucket >/dev/null 2>&1 \
  && left=$(rclone lsf -R --fast-list hirams3:hiram-files 2>>"$WORK/rclone.log" | { grep -vc '/$' || true; }) \
  && [ "$left" = 0 ] && ok "a fresh store, the bucket made again and empty" || bad "a fresh store (${left:-?} objects)"
rclone copy --fast-list "hiram-files-$(date +%F)" hirams3:hiram-files 2>>"$WORK/rclone.log" \
  && ok "rclone copy back into the bucket" || { bad "rclone copy back"; tail -5 "$WORK/rclone.log"; }
node "$ROOT/scripts/deploy-check.mjs" signin https://localhost "$STATE" | sed 's/^/  /'
[ "${PIPESTATUS[0]}" = 0 ] || fail=1

step "teardown"
compose down -v --remove-orphans >/dev/null 2>&1 && ok "containers, volumes and networks removed"
echo
[ "$fail" = 0 ] && echo "deploy-check: all passed ($(date -u +%F))" || echo "deploy-check: FAILED ($(date -u +%F))"
exit "$fail"
