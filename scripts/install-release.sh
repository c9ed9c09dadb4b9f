#!/bin/sh
# Install a released ws binary, checked against the release's SHA256SUMS. The release ships this
# script as install.sh beside the binaries:
#   curl -fsSL <base>/install.sh | sh
#   curl -fsSL <base>/install.sh | sh -s -- --prefix /opt/ws --base <url>
# Options: --prefix DIR   install DIR/bin/ws (default ~/.local) and completions under DIR/share
#          --base URL     the release directory to download from (also WS_INSTALL_BASE)
#          --no-completions
# From a checkout, ./install.sh builds from source instead (docs/install.md).
set -eu

# Written by `bun run release` (scripts/release.ts): where this release is published.
DEFAULT_BASE=''

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

fetch() { # URL FILE: the whole file or a failure (curl -f / wget exit status)
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 -o "$2" "$1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1"
  else
    die "neither curl nor wget is installed"
  fi
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
fetch "$base/SHA256SUMS" "$tmp/SHA256SUMS" || die "could not download $base/SHA256SUMS"
fetch "$base/$file" "$tmp/ws" || die "could not download $base/$file (is there a build for $platform in this release?)"
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

if [ "$completions" = 1 ]; then
  share="$prefix/share"
  for shell in bash zsh fish; do
    case "$shell" in
      bash) dir="$share/bash-completion/completions"; name=ws ;;
      zsh) dir="$share/zsh/site-functions"; name=_ws ;;
      fish) dir="$share/fish/vendor_completions.d"; name=ws.fish ;;
    esac
    if mkdir -p "$dir" && "$bindir/ws" completion "$shell" >"$tmp/$name" && mv -f "$tmp/$name" "$dir/$name"; then
      say "$shell completions: $dir/$name"
    else
      say "could not write $shell completions to $dir (ws completion $shell prints them)"
    fi
  done
  case "$prefix" in
    "$HOME/.local") ;;
    *) say "bash and fish look for completions under ~/.local/share; for this prefix, add $share to XDG_DATA_DIRS" ;;
  esac
  say "zsh: add  fpath=($share/zsh/site-functions \$fpath)  before compinit in ~/.zshrc"
fi

case ":$PATH:" in
  *":$bindir:"*) ;;
  *) say "$bindir is not on your PATH; add it, e.g. in ~/.profile:  export PATH=\"$bindir:\$PATH\"" ;;
esac
