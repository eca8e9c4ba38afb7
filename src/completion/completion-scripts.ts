/**
 * The scripts `toolrun completion bash|zsh|fish` prints (SPEC §17). Each one only hands the words
 * typed so far to `toolrun __complete` (fast-complete.ts: a hidden entry that answers before the CLI
 * loads) and shows what it prints: a first line `:words` or `:files` (a path: the shell completes it
 * itself), then one candidate a line, `VALUE` or `VALUE<TAB>DESCRIPTION`. So what completes lives in
 * one place, and a new command or option needs no change here. (Plain template literals: every
 * `\${` and backslash of the scripts is escaped.)
 */
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

const BASH = `# toolrun completion for bash. Load it with: source <(toolrun completion bash)
# (in ~/.bashrc), or save it as /etc/bash_completion.d/toolrun.
_toolrun_complete() {
  local cmd=\${COMP_WORDS[0]} word i
  [[ $cmd == "~/"* ]] && cmd=$HOME/\${cmd#"~/"}
  # bash splits words at ':' and '=' (COMP_WORDBREAKS): server:tool and --server=NAME are joined back.
  local -a words=()
  for ((i = 1; i <= COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    if ((\${#words[@]} > 0)) && [[ $word == [:=] || \${words[\${#words[@]}-1]} == *[:=] ]]; then
      words[\${#words[@]}-1]+=$word
    else
      words+=("$word")
    fi
  done
  ((\${#words[@]} > 0)) || words=("")
  local cur=\${words[\${#words[@]}-1]} bash_cur=\${COMP_WORDS[COMP_CWORD]}
  local -a lines=()
  mapfile -t lines < <("$cmd" __complete "\${words[@]}" 2>/dev/null)
  COMPREPLY=()
  if [[ \${lines[0]} == :files ]]; then
    compopt -o filenames 2>/dev/null
    mapfile -t COMPREPLY < <(compgen -f -- "$bash_cur")
    return 0
  fi
  # bash replaces only its own last piece (after the last ':' or '='): what comes before is cut off.
  local cut=\${cur%"$bash_cur"} line
  for line in "\${lines[@]:1}"; do
    line=\${line%%$'\\t'*}
    [[ -n $line ]] || continue
    line=\${line#"$cut"}
    # bash inserts a candidate as it is: a name a shell would run (a;b, $(…), \`…\`) goes in quoted.
    [[ $line == *[!A-Za-z0-9_@%+=:,./-]* ]] && printf -v line '%q' "$line"
    COMPREPLY+=("$line")
  done
  # A lone SERVER: is completed further after the colon: no space after it.
  [[ \${#COMPREPLY[@]} -eq 1 && \${COMPREPLY[0]} == *: ]] && compopt -o nospace 2>/dev/null
  return 0
}
complete -F _toolrun_complete toolrun
`;

const ZSH = `#compdef toolrun
# toolrun completion for zsh. Save it in your fpath: toolrun completion zsh > "\${fpath[1]}/_toolrun"
# (then compinit), or load it after compinit with: source <(toolrun completion zsh)
_toolrun() {
  local -a lines candidates prefixes
  local out line value
  out=$(\${words[1]} __complete "\${(@Q)words[2,CURRENT]}" 2>/dev/null) || return 1
  lines=("\${(@f)out}")
  if [[ \${lines[1]} == :files ]]; then
    _files
    return
  fi
  for line in "\${(@)lines[2,-1]}"; do
    [[ -n $line ]] || continue
    value=\${line%%$'\\t'*}
    # _describe reads VALUE:DESCRIPTION; a colon in the value (server:tool) is escaped.
    if [[ $value == *: ]]; then prefixes+=("\${value//:/\\\\:}:\${line#*$'\\t'}")
    elif [[ $line == *$'\\t'* ]]; then candidates+=("\${value//:/\\\\:}:\${line#*$'\\t'}")
    else candidates+=("\${value//:/\\\\:}"); fi
  done
  (( \${#candidates} + \${#prefixes} )) || return 1
  local ret=1
  (( \${#candidates} )) && _describe -t toolrun-candidates 'toolrun' candidates && ret=0
  # SERVER: is completed further after the colon: no space after it.
  (( \${#prefixes} )) && _describe -t toolrun-servers 'server' prefixes -S '' && ret=0
  return $ret
}
if [[ $funcstack[1] == _toolrun ]]; then
  # Autoloaded from fpath by compinit: this file is the function's body.
  _toolrun "$@"
else
  compdef _toolrun toolrun
fi
`;

const FISH = `# toolrun completion for fish. Save it: toolrun completion fish > ~/.config/fish/completions/toolrun.fish
function __toolrun_complete
    set -l words (commandline -opc) (commandline -ct)
    # Not installed (or not on PATH): nothing to offer, and no error printed into the line.
    command -q $words[1]; or return
    set -l out ($words[1] __complete $words[2..-1] 2>/dev/null)
    or return
    if test "$out[1]" = :files
        __fish_complete_path (commandline -ct)
        return
    end
    printf '%s\\n' $out[2..-1]
end
complete -c toolrun -f -a '(__toolrun_complete)'
`;

export function completionScript(shell: CompletionShell): string {
  return { bash: BASH, zsh: ZSH, fish: FISH }[shell];
}
