# Completes each LINE in an interactive zsh run in a zpty (test/e2e/completion.test.ts): the _toolrun
# script is found in FPATH_DIR by compinit, a Tab is typed, and a compadd wrapper appends the matches
# to OUT; a completion post-function marks the end. Prints each line, then its matches sorted.
# Usage: zsh -f complete-in-zsh.zsh FPATH_DIR OUT LINE...
zmodload zsh/zpty
fpath_dir=$1 out=$2
shift 2
: > $out
zpty z zsh -f -i
zpty -w z "fpath=(${(q)fpath_dir} \$fpath); autoload -U compinit && compinit -u -D"
zpty -w z "compadd() { if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd \"\$@\"; return; fi; local -a hits; builtin compadd -O hits \"\$@\"; (( \$#hits )) && print -rl -- \$hits >> ${(q)out}; builtin compadd \"\$@\"; }"
zpty -w z "_matches_done() { print -r -- '<end>' >> ${(q)out}; compstate[insert]=''; compstate[list]=''; }"
for line in "$@"; do
  print -r -- "<$line>"
  zpty -w z "comppostfuncs=(_matches_done)"
  zpty -w -n z "$line"$'\t'
  for i in {1..200}; do grep -q '<end>' $out 2>/dev/null && break; sleep 0.05; done
  grep -v '<end>' $out | sort
  : > $out
  zpty -w -n z $'\C-u'
done
zpty -d z
