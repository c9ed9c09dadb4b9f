#!/usr/bin/env bash
# A CI script's view of ws: under `set -euo pipefail`, every exit status of docs/cli.md's table and
# the JSON each prints. Run by test/cli-contract.test.ts against a real server ($WS_CMD is how to
# run ws; the environment names the server's socket directory). Prints "checked STATUS" for each
# row of the table it proved; any surprise ends it non-zero with the line that failed.
set -euo pipefail

read -ra WSC <<<"$WS_CMD"
ws() { "${WSC[@]}" "$@"; }

fail() {
  echo "FAILED: $*" >&2
  exit 1
}

# Run a ws command that must exit with STATUS; its stdout in $out, its stderr in $err.
expect_status() {
  local want=$1
  shift
  local rc=0
  out=$(ws "$@" 2>/tmp/ws-ci-err.$$) || rc=$?
  err=$(cat /tmp/ws-ci-err.$$)
  rm -f /tmp/ws-ci-err.$$
  [[ $rc == "$want" ]] || fail "ws $* exited $rc, not $want (stderr: $err)"
}

# The --json success shape: one object per line, each with a number v and a string type.
is_result() {
  jq -es 'length > 0 and all(.[]; type == "object" and (.v | type == "number") and (.type | type == "string") and .type != "error")' <<<"$out" >/dev/null || fail "not a --json result: $out"
}

# The --json error shape, with the code wanted; the same message for people on stderr.
is_error() {
  jq -e --arg code "$1" 'type == "object" and .v == 6 and .type == "error" and .code == $code and (.message | type == "string") and (.hint | type == "object")' <<<"$out" >/dev/null || fail "not a $1 error: $out"
  [[ $err == ws:* ]] || fail "no message on stderr for $1: $err"
}

# 0: done, and under --json one object with v and type.
expect_status 0 --json pane list
is_result
pane=$(ws tab new --cwd /tmp -- bash)
[[ $pane =~ ^[0-9]+$ ]] || fail "tab new printed $pane"
expect_status 0 --json tab list
is_result
expect_status 0 --json templates list
is_result
expect_status 0 --json keys --list
is_result
# Type a command and wait for its output, not for the command line that holds the pattern.
expect_status 0 --json pane send "$pane" 'echo CI-$((40+2))' --enter --wait-output 'CI-\d+'
is_result
[[ $(jq -r .match <<<"$out") == CI-42 ]] || fail "pane send --wait-output matched $out"
echo "checked 0"

# 1: the server refused it, no server answers, no answer in time, a search that found nothing.
expect_status 1 --json pane close 999
is_error pane_not_found
expect_status 1 --json -L nobody-runs-this pane list
is_error no_server
expect_status 1 --json search "no-such-text-$$-anywhere"
is_result
# A stopped server: the request is taken and never answered.
ws -L ci-stopped start >/dev/null 2>&1
stopped=$(ws -L ci-stopped --json call hello '{"v":6}' | jq -r .pid)
kill -STOP "$stopped"
trap 'kill -CONT "$stopped" 2>/dev/null || true; ws -L ci-stopped kill-server >/dev/null 2>&1 || true' EXIT
expect_status 1 --json -L ci-stopped --timeout 500 pane list
is_error no_answer
# A wait with no --timeout of its own may take for ever, but not on a server that stopped answering
# (a hello unanswered for the reply deadline, here 1 s rather than 10).
WS_REPLY_TIMEOUT_MS=1000 expect_status 1 --json -L ci-stopped wait output 1 never-printed
is_error no_answer
kill -CONT "$stopped"
ws -L ci-stopped kill-server >/dev/null 2>&1
trap - EXIT
# A batch file: the failure names FILE:LINE; --keep-going runs the rest and exits with it.
printf '%s\n' '# setup' 'pane list' 'pane close 999' 'tab list' >ci.ws
expect_status 1 --json batch --keep-going ci.ws
jq -se '(map(select(.type == "error")) | length == 1 and .[0].at == "ci.ws:3" and .[0].code == "pane_not_found") and .[-1].type == "tabs"' <<<"$out" >/dev/null || fail "batch --keep-going printed $out"
[[ $err == "ws: ci.ws:3: "* ]] || fail "batch error names no line: $err"
# Bare ws with no terminal: refused, and no server left running for nobody.
expect_status 1 --json -L ci-bare
is_error client_failed
expect_status 1 --json -L ci-bare pane list
is_error no_server
echo "checked 1"

# 2: a missing or bad argument, found by the CLI or by the server.
expect_status 2 --json pane frobnicate
is_error usage
expect_status 2 --json pane read
is_error usage
[[ $out == *"which pane?"* ]] || fail "no which pane?: $out"
expect_status 2 --json done
is_error usage
[[ $out == *"which workstream?"* ]] || fail "no which workstream?: $out"
expect_status 2 --json split "$pane" --size 500%
is_error usage
jq -e '.hint.flag == "--size" and (.message | contains("--size")) and (.message | contains("percent") | not)' <<<"$out" >/dev/null || fail "the error names the protocol's field, not --size: $out"
expect_status 2 --json events --types bogus
is_error usage
expect_status 2 --json layout select nosuch --pane "$pane"
is_error usage
expect_status 2 --json pane send "$pane"
is_error usage
expect_status 2 --json -L bad/name pane list
is_error usage
expect_status 2 --json -L '' pane list
is_error usage
expect_status 2 call pane_info '{"v":6}'
[[ $err == ws:* ]] || fail "ws call said nothing on stderr: $err"
printf '%s\n' 'pane list' "pane send $pane 'unclosed" 'tab new' >ci-bad.ws
expect_status 2 --json batch ci-bad.ws
jq -se '.[-1] | .at == "ci-bad.ws:2" and .code == "usage"' <<<"$out" >/dev/null || fail "batch line error: $out"
echo "checked 2"

# 124: a wait that ran out of time.
expect_status 124 --json wait output "$pane" "never-printed-$$" --timeout 300
is_error timeout
echo "checked 124"

# The program's: ws run and ws wait exit exit with the program's status.
expect_status 7 --json run "$pane" -- 'sh -c "exit 7"'
is_result
[[ $(jq .exit_code <<<"$out") == 7 ]] || fail "run's exit_code: $out"
kept=$(ws tab new --keep --cwd /tmp -- sh -c 'exit 3')
expect_status 3 --json wait exit "$kept"
is_result
expect_status 0 wait exit "$kept" --status-ok
[[ $out == 3 ]] || fail "wait exit printed $out"
echo "checked the program's"
