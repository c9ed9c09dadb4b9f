#!/bin/sh
# Install a released ws binary over https, checked against the release's SHA256SUMS and its
# Ed25519 signature. The release ships this script as install.sh beside the binaries:
#   curl -fsSL --proto '=https' --tlsv1.2 <base>/install.sh | sh
#   curl -fsSL --proto '=https' --tlsv1.2 <base>/install.sh | sh -s -- --prefix /opt/ws --base <url>
# Options: --prefix DIR   install DIR/bin/ws (default ~/.local), its man page and completions under DIR/share
#          --base URL     the release directory (https://) to download from (also WS_INSTALL_BASE)
#          --no-completions
# From a checkout, ./install.sh builds from source instead (docs/install.md).
set -eu

# Written by `bun run release` (scripts/release.ts): where this release is published.
DEFAULT_BASE=''
# The release key: the public half of the Ed25519 key that signs SHA256SUMS (base64 SPKI; the
# same as PROJECT_RELEASE_KEY in src/cli/release-files.ts).
RELEASE_KEY='MCowBQYDK2VwAyEAhLTR8rfvYA0STtYZQkdITv14sxI3csBtZ8M+307XxNA='
# Bounds on each download (src/cli/release-files.ts): an endless answer stops there.
MAX_CHECKSUMS_BYTES=65536
MAX_SIGNATURE_BYTES=1024
MAX_BINARY_BYTES=536870912

prefix="${HOME}/.local"
base="${WS_INSTALL_BASE:-$DEFAULT_BASE}"
completions=1

say() { printf 'ws install: %s\n' "$*"; }
die() { printf 'ws install: %s\n' "$*" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --base) [ $# -ge 2 ] || die "--base needs a URL"; base="$2"; shift 2 ;;
    --base=*) base="${1#--base=}"; shift ;;
    --no-completions) completions=0; shift ;;
    -h|--help) sed -n '2,9p' "$0" 2>/dev/null || say "usage: install.sh [--prefix DIR] [--base URL] [--no-completions]"; exit 0 ;;
    *) die "unknown option $1 (usage: install.sh [--prefix DIR] [--base URL] [--no-completions])" ;;
  esac
done
[ -n "$base" ] || die "no release location known: set WS_INSTALL_BASE=URL or pass --base URL (the directory holding SHA256SUMS)"
base="${base%/}"
bindir="$prefix/bin"

# Only https, TLS 1.2 or newer, and no redirect to anything else. WS_TEST_LOCAL_RELEASE=1 (tests)
# also takes a file:// directory or an http:// server on this machine; the signature is checked
# all the same.
protocols='=https'
case "$base" in
  https://*) ;;
  file:///*|http://127.0.0.1[:/]*|http://localhost[:/]*|http://\[::1\][:/]*)
    [ "${WS_TEST_LOCAL_RELEASE:-}" = 1 ] || die "refusing $base: a release is downloaded over https only (a local file:// or http://127.0.0.1 release is for tests: WS_TEST_LOCAL_RELEASE=1)"
    protocols='=https,http,file' ;;
  *) die "refusing $base: a release is downloaded over https only (https://…)" ;;
esac
command -v curl >/dev/null 2>&1 || die "curl is not installed: it is what downloads the release over https only"

# The platform, as the release names its files: ws-<os>-<arch>.
detect_platform() {
  os="$(uname -s)"
  cpu="$(uname -m)"
  case "$os" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    *) die "no ws build for $os (builds: Linux and macOS on x86_64 and arm64); build from source instead: docs/install.md" ;;
  esac
  case "$cpu" in
    x86_64|amd64) cpu=x64 ;;
    aarch64|arm64) cpu=arm64 ;;
    *) die "no ws build for $os on $cpu (builds: x86_64 and arm64)" ;;
  esac
  # An x86_64 shell under Rosetta on an Apple Silicon Mac: take the native build.
  if [ "$os" = darwin ] && [ "$cpu" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
    cpu=arm64
  fi
  # The Linux builds link glibc; on musl (Alpine) they would not start.
  if [ "$os" = linux ] && { ldd --version 2>&1 | grep -qi musl; }; then
    die "no ws build for musl libc (Alpine and the like): the Linux builds need glibc; build from source instead: docs/install.md"
  fi
  echo "$os-$cpu"
}

fetch() { # URL FILE MAX: the whole file, at most MAX bytes, or a failure. --max-filesize stops a
  # file whose announced size is bigger; head stops one that never ends (curl then fails too).
  rm -f "$tmp/curl-status"
  { curl -fsSL --retry 2 --proto "$protocols" --proto-redir '=https' --tlsv1.2 --max-filesize "$3" "$1"; echo "$?" >"$tmp/curl-status"; } | head -c "$(($3 + 1))" >"$2"
  [ "$(wc -c <"$2" | tr -d ' ')" -le "$3" ] || die "$1 is larger than $3 bytes: not a ws release file; nothing installed"
  [ "$(cat "$tmp/curl-status" 2>/dev/null)" = 0 ]
}

# Whether openssl can check an Ed25519 signature (OpenSSL 3: pkeyutl -rawin; LibreSSL, macOS's
# openssl, can't).
can_verify() {
  command -v openssl >/dev/null 2>&1 || return 1
  case "$(openssl version 2>/dev/null)" in "OpenSSL "[3-9]*) return 0 ;; *) return 1 ;; esac
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d' ' -f1
  else
    die "neither sha256sum nor shasum is installed: cannot check the download"
  fi
}

platform="$(detect_platform)"
file="ws-$platform"

# Downloaded and checked in a temporary directory first; then copied beside the target and renamed
# over it (atomic: same file system). A failure at any point leaves nothing behind.
tmp="$(mktemp -d "${TMPDIR:-/tmp}/ws-install.XXXXXX")" || die "cannot create a temporary directory"
staged=""
trap 'rm -rf "$tmp"; [ -z "$staged" ] || rm -f "$staged"' EXIT
trap 'exit 130' INT TERM

say "downloading $base/$file"
fetch "$base/SHA256SUMS" "$tmp/SHA256SUMS" "$MAX_CHECKSUMS_BYTES" || die "could not download $base/SHA256SUMS"
if can_verify; then
  fetch "$base/SHA256SUMS.sig" "$tmp/SHA256SUMS.sig" "$MAX_SIGNATURE_BYTES" || die "could not download $base/SHA256SUMS.sig, the release's signature; nothing installed"
  printf -- '-----BEGIN PUBLIC KEY-----\n%s\n-----END PUBLIC KEY-----\n' "$RELEASE_KEY" >"$tmp/release-key.pem"
  openssl pkeyutl -verify -pubin -inkey "$tmp/release-key.pem" -rawin -in "$tmp/SHA256SUMS" -sigfile "$tmp/SHA256SUMS.sig" >/dev/null 2>&1 ||
    die "the signature of $base/SHA256SUMS does not verify with the ws release key: not a ws release, or altered on the way; nothing installed"
  say "SHA256SUMS is signed by the ws release key"
else
  say "warning: no OpenSSL 3 here (openssl pkeyutl -rawin), so the release's signature can't be checked: the binary is checked only against SHA256SUMS, which comes from the same place. To check it yourself: docs/install.md, \"Checking a release by hand\""
fi
fetch "$base/$file" "$tmp/ws" "$MAX_BINARY_BYTES" || die "could not download $base/$file (is there a build for $platform in this release?)"
want="$(awk -v f="$file" '$2 == f || $2 == "*" f { print $1; exit }' "$tmp/SHA256SUMS")"
[ -n "$want" ] || die "SHA256SUMS lists no $file: this release has no build for $platform"
got="$(sha256_of "$tmp/ws")"
[ "$got" = "$want" ] || die "checksum mismatch for $file (expected $want, got $got): a corrupt or partial download; nothing installed"
chmod 0755 "$tmp/ws"
version="$("$tmp/ws" --version 2>/dev/null)" || die "the downloaded $file does not run here; nothing installed"
mkdir -p "$bindir" || die "cannot create $bindir"
staged="$bindir/.ws-install.$$"
{ cp "$tmp/ws" "$staged" && chmod 0755 "$staged"; } || die "could not write to $bindir"
mv -f "$staged" "$bindir/ws" || die "could not move ws into $bindir"
staged=""
say "installed ws $version at $bindir/ws"

# The man page, from the binary itself (made from its command table, as --help is).
man1="$prefix/share/man/man1"
if mkdir -p "$man1" && "$bindir/ws" help --man >"$tmp/ws.1" && mv -f "$tmp/ws.1" "$man1/ws.1"; then
  say "man page: $man1/ws.1"
else
  say "could not write the man page to $man1 (ws help --man prints it)"
fi

if [ "$completions" = 1 ]; then
  # ws itself knows where each shell looks (one rule for both installers).
  "$bindir/ws" completion --install "$prefix" 2>&1 | while IFS= read -r line; do say "$line"; done
fi

case ":$PATH:" in
  *":$bindir:"*) ;;
  *) say "$bindir is not on your PATH; add it, e.g. in ~/.profile:  export PATH=\"$bindir:\$PATH\"" ;;
esac
