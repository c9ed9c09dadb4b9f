// Shell integration (docs/shell-integration.md): the interactive bash, zsh and fish that ws starts
// get hooks that mark their prompts and commands with OSC 133 (A prompt start, B command start,
// C pre-exec, D;status command end), as VS Code, WezTerm and kitty do. The user's rc files are
// never touched: ws writes its own start-up files into a private directory, and they source the
// user's first. WS_SHELL_INTEGRATION=0 in a pane's environment turns it off.
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { quoteFish, quoteSh } from "../shell-quote";
import { log } from "../log";

const BASH = String.raw`# ws shell integration (bash --rcfile): what bash would have read, then the OSC 133 hooks.
if [ -r /etc/bash.bashrc ]; then . /etc/bash.bashrc; fi
if [ -r "$HOME/.bashrc" ]; then . "$HOME/.bashrc"; fi
if [ -z "${"$"}{__ws_hooked-}" ]; then
  __ws_hooked=1
  __ws_ran=
  __ws_precmd() {
    local s=$?
    if [ -n "$__ws_ran" ]; then printf '\033]133;D;%s\007' "$s"; __ws_ran=; fi
    printf '\033]133;A\007'
    return $s
  }
  __ws_ps1() {
    local s=$?
    case "$PS1" in *'133;B'*) ;; *) PS1="$PS1"'\[\033]133;B\007\]' ;; esac
    return $s
  }
  if [[ "$(declare -p PROMPT_COMMAND 2>/dev/null)" == "declare -a"* ]]; then
    PROMPT_COMMAND=(__ws_precmd "${"$"}{PROMPT_COMMAND[@]}" __ws_ps1)
  else
    PROMPT_COMMAND=$'__ws_precmd\n'"${"$"}{PROMPT_COMMAND-}"$'\n__ws_ps1'
  fi
  # PS0 is printed once a command line is read, before it runs; the subscript sets __ws_ran.
  PS0="${"$"}{PS0-}"'${"$"}{__ws_noop[__ws_ran=1]-}\033]133;C\007'
fi
`;

const ZSH_HOOKS = String.raw`# ws shell integration: the OSC 133 hooks for zsh.
autoload -Uz add-zsh-hook
typeset -g __ws_ran= __ws_sp=
__ws_precmd() {
  local s=$?
  if [[ -n $__ws_ran ]]; then printf '\e]133;D;%s\a' $s; __ws_ran=; fi
  # zsh marks a partial last line (PROMPT_SP) before precmd runs, inside the command's output as
  # the marks see it: ws does that itself, after D.
  if [[ -o prompt_sp && -o prompt_cr ]]; then __ws_sp=1; setopt no_prompt_sp; fi
  if [[ -n $__ws_sp ]]; then
    local m=${"$"}{(%)PROMPT_EOL_MARK-%B%S%#%s%b}
    print -rn -- "$m"
    m=${"$"}{(S)m//$'\e'\[*m}
    printf '%*s\r \r' $(( COLUMNS - 1 - ${"$"}{#m} )) ''
  fi
  printf '\e]133;A\a'
  # B goes last, after any hook of the user's that sets PS1 (and now, for this prompt).
  precmd_functions=(${"$"}{precmd_functions:#__ws_ps1} __ws_ps1)
  __ws_ps1
  return $s
}
__ws_ps1() {
  [[ $PS1 == *'133;B'* ]] || PS1=$PS1$'%{\e]133;B\a%}'
}
__ws_preexec() { __ws_ran=1; printf '\e]133;C\a'; }
add-zsh-hook precmd __ws_precmd
add-zsh-hook preexec __ws_preexec
`;

/** zsh reads $ZDOTDIR/.zshenv first: put the user's ZDOTDIR back at once (so zsh reads their
 * .zprofile, .zshrc and .zlogin itself, and children see their own), source their .zshenv, and
 * hook an interactive shell. */
const zshenv = (dir: string) => `# ws shell integration (ZDOTDIR): the user's ZDOTDIR back, their .zshenv, then the hooks.
if [[ -n "${"$"}{WS_ZDOTDIR_SET-}" ]]; then ZDOTDIR=$WS_ZDOTDIR_ORIG; else unset ZDOTDIR; fi
unset WS_ZDOTDIR_ORIG WS_ZDOTDIR_SET
[[ -r "${"$"}{ZDOTDIR:-$HOME}/.zshenv" ]] && source "${"$"}{ZDOTDIR:-$HOME}/.zshenv"
[[ -o interactive ]] && source ${quoteSh(`${dir}/ws.zsh`)}
`;

const FISH = String.raw`# ws shell integration (fish --init-command): the OSC 133 hooks, after the user's config.
function __ws_prompt_start --on-event fish_prompt
    printf '\e]133;A\a'
end
function __ws_preexec --on-event fish_preexec
    printf '\e]133;C\a'
end
function __ws_postexec --on-event fish_postexec
    printf '\e]133;D;%s\a' $status
end
if functions -q fish_prompt; and not functions -q __ws_user_prompt
    functions -c fish_prompt __ws_user_prompt
    function fish_prompt
        __ws_user_prompt
        printf '\e]133;B\a'
    end
end
`;

/** The files of one version of the integration, by name. */
function files(dir: string): Record<string, string> {
  return { "bash.rc": BASH, ".zshenv": zshenv(dir), "ws.zsh": ZSH_HOOKS, "ws.fish": FISH };
}

/** How to start a shell with the integration: its argv and what its environment gains. */
export interface ShellLaunch {
  argv: string[];
  env: Record<string, string>;
  /** The directory of ws's start-up files the shell reads (a box shows it read-only). */
  dir?: string;
}

/** The shells that get the integration, and the arguments with which they are still interactive. */
const SHELLS: Record<string, readonly string[]> = {
  bash: ["-i"],
  zsh: ["-i", "-l", "--login"],
  fish: ["-i", "-l", "--login"],
};

export const shellKind = (argv: readonly string[]): string | undefined => {
  const name = (argv[0] ?? "").split("/").pop()!.replace(/^-/, "");
  const allowed = SHELLS[name];
  return allowed && argv.slice(1).every((a) => allowed.includes(a)) ? name : undefined;
};

/** Where the files are, written once per server (and version: the directory's name is the content's hash). */
const written = new Map<string, string>();

/** Write the integration's files into `base` (a private directory of ours): a directory 0700 named
 * by their hash, each file written to a temporary name with mode 0600 and renamed into place. */
function ensureFiles(base: string): string {
  const cached = written.get(base);
  if (cached && existsSync(cached)) return cached; // a server that quit may have removed them
  const probe = files("");
  const dir = `${base}/shell-${Bun.hash(JSON.stringify(probe)).toString(36)}`;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700); // mkdir's mode is filtered by the umask
  for (const [name, text] of Object.entries(files(dir))) {
    const tmp = `${dir}/.${name}.${process.pid}.tmp`;
    writeFileSync(tmp, text, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, `${dir}/${name}`);
  }
  written.set(base, dir);
  return dir;
}

/** Remove the integration's files from `base` (the server quits and no other server's socket is
 * left there): they are written again when a shell next starts. */
export function removeShellFiles(base: string): void {
  written.delete(base);
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return;
  }
  for (const n of names) if (/^shell-[0-9a-z]+$/.test(n)) rmSync(`${base}/${n}`, { recursive: true, force: true });
}

/**
 * How to start `argv` with shell integration, or undefined when it gets none: it is not an
 * interactive bash, zsh or fish, the pane's environment says WS_SHELL_INTEGRATION=0, or the files
 * could not be written (the shell then starts as it would have).
 */
export function shellLaunch(argv: readonly string[], env: Record<string, string>, privateDir: string): ShellLaunch | undefined {
  const kind = shellKind(argv);
  if (!kind || env.WS_SHELL_INTEGRATION === "0") return undefined;
  let dir: string;
  try {
    dir = ensureFiles(privateDir);
  } catch (e) {
    log.warn(`no shell integration (can't write its files in ${privateDir}: ${(e as Error).message})`);
    return undefined;
  }
  switch (kind) {
    case "bash":
      return { argv: [argv[0]!, "--rcfile", `${dir}/bash.rc`, ...argv.slice(1)], env: {}, dir };
    case "zsh": {
      const orig = env.ZDOTDIR;
      return { argv: [...argv], env: { ZDOTDIR: dir, ...(orig !== undefined ? { WS_ZDOTDIR_ORIG: orig, WS_ZDOTDIR_SET: "1" } : {}) }, dir };
    }
    default:
      return { argv: [argv[0]!, ...argv.slice(1), "--init-command", `source ${quoteFish(`${dir}/ws.fish`)}`], env: {}, dir };
  }
}
