#!/usr/bin/env bash
# Publishes a build (dist/) to a bucket with rclone, uploading only bytes the
# bucket lacks (docs/releases.md, "Publishing to a CDN"; issue 18):
#   1. each release, oldest first: the files an earlier release published
#      with the same bytes (geoshelf release-copies) by server-side copies,
#      then every file whose key the bucket lacks (--ignore-existing: a
#      release's files never change, so an existing key is never sent again);
#   2. the root (all but releases/): assets/ first; the files that hold the
#      bytes of the latest release's at the same path by server-side copies;
#      then `rclone sync --checksum` (size and MD5, so an unchanged file is
#      not sent again whatever its mtime).
# Usage: scripts/publish-cdn.sh [--root DIR] [--base PATH] [--dist DIR] REMOTE:PATH
#   e.g. scripts/publish-cdn.sh --dist dist cdn:my-bucket
# GEOSHELF names the command to run geoshelf (default: npx geoshelf).
set -euo pipefail

root=. base=/ dist=dist
while [ "$#" -gt 1 ]; do
  case "$1" in
    --root) root=$2 ;;
    --base) base=$2 ;;
    --dist) dist=$2 ;;
    *) break ;;
  esac
  shift 2
done
if [ "$#" -ne 1 ] || [[ "$1" != *:* ]]; then
  echo "usage: scripts/publish-cdn.sh [--root DIR] [--base PATH] [--dist DIR] REMOTE:PATH" >&2
  exit 2
fi
remote=${1%/}
geoshelf=${GEOSHELF:-npx geoshelf}
[ -f "$dist/api/v1/index.json" ] || { echo "publish-cdn: $dist is not a geoshelf build" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The releases dist/ holds, oldest first (api/releases.json lists them newest first).
versions=()
if [ -f "$dist/api/releases.json" ]; then
  mapfile -t versions < <(node -e '
    const api = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const r of api.releases.reverse()) console.log(r.version);
  ' "$dist/api/releases.json")
fi
if [ "${#versions[@]}" -gt 0 ]; then
  # SOURCE<TAB>DESTINATION, dist paths, e.g. releases/1.0.0/index.css<TAB>releases/1.1.0/index.css
  $geoshelf release-copies --root "$root" --base "$base" "${versions[@]}" >"$work/copies.tsv"
fi

for v in "${versions[@]}"; do
  # Copies whose path inside the release is the same go in one rclone run
  # per source release (server-side: both ends are on the remote).
  awk -F'\t' -v to="releases/$v/" -v dir="$work/" '
    index($2, to) != 1 { next }
    {
      split($1, s, "/"); from = "releases/" s[2] "/"; rel = substr($2, length(to) + 1)
      if (substr($1, length(from) + 1) == rel) print rel > (dir "same-" s[2])
      else print $1 "\t" $2 > (dir "moved")
    }' "$work/copies.tsv"
  for list in "$work"/same-*; do
    [ -e "$list" ] || continue
    rclone copy "$remote/releases/${list##*/same-}" "$remote/releases/$v" \
      --files-from-raw "$list" --ignore-existing
    rm "$list"
  done
  if [ -e "$work/moved" ]; then
    while IFS=$'\t' read -r src dst; do
      rclone copyto "$remote/$src" "$remote/$dst" --ignore-existing
    done <"$work/moved"
    rm "$work/moved"
  fi
  # --copy-links: a release folder identical to an earlier release's is a symbolic link in dist/
  # (docs/releases.md); the bucket gets its files.
  rclone copy "$dist/releases/$v" "$remote/releases/$v" --ignore-existing --copy-links
done

# The root, last, so that nothing links to a release before its folder is
# complete: assets/ first (content-hashed names: an existing key holds the
# same bytes), so no page arrives before its script; then the rest, deleting
# what dist/ no longer has. releases/ is excluded: neither sent nor deleted.
if [ -d "$dist/assets" ]; then rclone copy "$dist/assets" "$remote/assets" --ignore-existing; fi
# Root files with the bytes of the latest release's file at the same path
# (e.g. a changed country's data, when the root is that release) are made by
# server-side copies where the bucket's differ (--checksum), so the sync finds
# them equal and sends only the rest.
if [ "${#versions[@]}" -gt 0 ]; then
  latest="$dist/releases/${versions[-1]}"
  (cd "$dist" && find . -path ./releases -prune -o -type f -print) | sed 's#^\./##' |
    while IFS= read -r file; do
      if [ -f "$latest/$file" ] && cmp -s "$dist/$file" "$latest/$file"; then printf '%s\n' "$file"; fi
    done >"$work/root-copies"
  if [ -s "$work/root-copies" ]; then
    rclone copy "$remote/releases/${versions[-1]}" "$remote" --files-from-raw "$work/root-copies" --checksum
  fi
fi
rclone sync "$dist" "$remote" --checksum --exclude '/releases/**'
