import type { Command } from 'commander';

import { UsageError } from '../../lib/errors.ts';
import type { CliIo } from '../../lib/io.ts';
import { printOut } from '../../lib/io.ts';

// Shell completion scripts written from the program's own tree of commands and options, so they
// never drift from it: `source <(ccp completion bash)`.

type Node = { path: string[]; subcommands: string[]; options: string[] };

const walk = (command: Command, path: string[] = []): Node[] => {
  const subs = command.commands.filter((sub) => !(sub as unknown as { _hidden?: boolean })._hidden);
  const options = [
    ...command.options.flatMap((option) => [option.long, option.short].filter(Boolean) as string[]),
    '--help',
  ];
  return [
    { path, subcommands: subs.map((sub) => sub.name()), options },
    ...subs.flatMap((sub) => walk(sub, [...path, sub.name()])),
  ];
};

const bash = (nodes: Node[]): string => {
  const cases = nodes
    .map(
      (node) =>
        `    "${node.path.join(' ')}") subs="${node.subcommands.join(' ')}"; opts="${node.options.join(' ')}" ;;`,
    )
    .join('\n');
  return `# ccp completion for bash: source <(ccp completion bash)
_ccp_completion() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" subs opts word
  local i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    _ccp_node "$path"
    case " $subs " in *" $word "*) path="\${path:+$path }$word" ;; esac
  done
  _ccp_node "$path"
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
  fi
}
_ccp_node() {
  case "$1" in
${cases}
    *) subs=""; opts="" ;;
  esac
}
complete -o default -F _ccp_completion ccp
`;
};

const zsh = (nodes: Node[]): string =>
  `#compdef ccp
# ccp completion for zsh: source <(ccp completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bash(nodes).replace(/^# ccp completion for bash.*\n/, '')}`;

const fish = (nodes: Node[]): string => {
  const lines = ['# ccp completion for fish: ccp completion fish | source', 'complete -c ccp -f'];
  for (const node of nodes) {
    const all = node.path.length === 0 ? [] : node.path;
    const here =
      node.path.length === 0
        ? '__fish_use_subcommand'
        : `__fish_seen_subcommand_from ${all[all.length - 1]}${node.subcommands.length ? `; and not __fish_seen_subcommand_from ${node.subcommands.join(' ')}` : ''}`;
    if (node.subcommands.length > 0) {
      lines.push(`complete -c ccp -n '${here}' -a '${node.subcommands.join(' ')}'`);
    }
    for (const option of node.options.filter((name) => name.startsWith('--'))) {
      lines.push(`complete -c ccp -n '${here}' -l ${option.slice(2)}`);
    }
  }
  return `${lines.join('\n')}\n`;
};

/** `ccp completion bash|zsh|fish`: the script on stdout. */
export function completion(shell: string, program: Command, io: CliIo): void {
  const nodes = walk(program);
  if (shell === 'bash') printOut(io, bash(nodes));
  else if (shell === 'zsh') printOut(io, zsh(nodes));
  else if (shell === 'fish') printOut(io, fish(nodes));
  else throw new UsageError(`Unknown shell "${shell}": bash, zsh or fish.`);
}
