#!/usr/bin/env bash
# Install ws from a checkout: brings Bun (from npm when missing), installs the dependencies,
# builds dist/ws and puts it on the PATH, with its man page and shell completions. With
# WS_RELEASE_URL set to a release directory (https), installs that release's binary instead,
# through the checked installer (scripts/install-release.sh: signature and checksums). A released
# binary without a checkout: the release's own install.sh.
#   ./install.sh [--prefix DIR] [--no-completions]
#     installs DIR/bin/ws, DIR/share/man/man1/ws.1 and completions under DIR/share (DIR: ~/.local);
#     a Bun that is not on the PATH is linked as DIR/bin/bun, so `bun run test` finds it too
set -euo pipefail

prefix="${HOME}/.local"
completions=1
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --no-completions) completions=0; shift ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ "$completions" = 1 ] || release_args=(--no-completions)
bindir="$prefix/bin"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
say() { printf 'install.sh: %s\n' "$*"; }

install_binary() {
  mkdir -p "$bindir"
  install -m 0755 "$1" "$bindir/ws.tmp" && mv -f "$bindir/ws.tmp" "$bindir/ws"
  say "installed $bindir/ws"
  case ":$PATH:" in *":$bindir:"*) ;; *) say "add $bindir to your PATH (e.g. export PATH=\"$bindir:\$PATH\")" ;; esac
}

if [ ! -f "$here/src/main.ts" ] || [ ! -f "$here/scripts/install-release.sh" ]; then
  say "this is not a ws checkout: to install a released ws, run the release's own install.sh, which checks what it downloads:"
  say "  curl -fsSL --proto '=https' --tlsv1.2 <release>/install.sh | sh        (docs/install.md)"
  exit 1
fi
if [ -n "${WS_RELEASE_URL:-}" ]; then
  # A release, not a build: downloaded and checked by the one installer that checks it.
  exec sh "$here/scripts/install-release.sh" --prefix "$prefix" --base "$WS_RELEASE_URL" ${release_args[@]+"${release_args[@]}"}
fi

cd "$here"
find_bun() {
  if command -v bun >/dev/null 2>&1; then command -v bun; return; fi
  for c in "$HOME/.bun/bin/bun" "$(npm prefix -g 2>/dev/null)/bin/bun" "$HOME/.local/share/ws/bun/node_modules/.bin/bun"; do
    [ -x "$c" ] && { echo "$c"; return; }
  done
  return 1
}
on_path=1
command -v bun >/dev/null 2>&1 || on_path=0
if ! bun="$(find_bun)"; then
  say "Bun not found; installing it from npm"
  if ! npm install -g bun >/dev/null 2>&1; then
    # No write access to npm's global prefix: keep a private copy instead.
    npm install --prefix "$HOME/.local/share/ws/bun" bun >/dev/null
  fi
  bun="$(find_bun)" || { say "could not install Bun"; exit 1; }
fi
say "using $("$bun" --version 2>/dev/null | head -1) at $bun"
# package.json scripts call `bun` by name: put the one found first on the PATH.
PATH="$(dirname "$bun"):$PATH"
export PATH
"$bun" install --frozen-lockfile
"$bun" run build
install_binary dist/ws

# The man page and the completions, from the binary just built (as the release installer does).
share="$prefix/share"
mkdir -p "$share/man/man1"
install -m 0644 dist/ws.1 "$share/man/man1/ws.1"
say "man page: $share/man/man1/ws.1"
if [ "$completions" = 1 ]; then
  # ws itself knows where each shell looks (one rule for both installers).
  dist/ws completion --install "$prefix" 2>&1 | while IFS= read -r line; do say "$line"; done || say "could not write every completion script (ws completion SHELL prints one)"
fi

# A Bun found off the PATH (a private copy, or npm's global bin not on the PATH): linked beside ws,
# so the README's `bun run test` finds the same Bun once $bindir is on the PATH.
if [ "$on_path" = 0 ] && [ ! -e "$bindir/bun" ]; then
  ln -s "$bun" "$bindir/bun"
  say "linked $bindir/bun -> $bun (for bun run test and the other package.json scripts)"
fi
