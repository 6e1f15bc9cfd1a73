//! `completion SHELL`: clap_complete's static script for the shell, with a
//! small hook that asks the binary (`kubectl-releasex __complete WORDS...`)
//! for what only it knows at TAB time: release names, revisions, namespaces,
//! contexts, chart directories and values files. When the binary answers
//! nothing the static script still works. Committed under `completions/`;
//! a test keeps them in sync.

use super::Outcome;

pub fn script(shell: clap_complete::Shell) -> String {
    let mut cmd = super::command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "kubectl-releasex", &mut buf);
    let static_script = String::from_utf8_lossy(&buf).into_owned();
    match shell {
        clap_complete::Shell::Bash => static_script + BASH_DYNAMIC,
        clap_complete::Shell::Zsh => zsh(&static_script),
        clap_complete::Shell::Fish => fish(&static_script),
        clap_complete::Shell::PowerShell => static_script + POWERSHELL_DYNAMIC,
        _ => static_script,
    }
}

pub fn run(shell: clap_complete::Shell) -> anyhow::Result<Outcome> {
    Ok(Outcome { stdout: script(shell), ..Outcome::default() })
}

// The answer is Cobra's format: `value<TAB>help` lines, then `:DIRECTIVE`
// (2 = no space after the word, 4 = no file completion).
const BASH_DYNAMIC: &str = r#"
# Dynamic words (release names, revisions, namespaces, contexts, charts) from
# the binary itself; the static function above when it answers nothing.
_kubectl_releasex_dynamic() {
    local out line directive=0
    local -a cands=()
    out=$("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
    while IFS= read -r line; do
        case $line in
            :[0-9]*) directive=${line#:} ;;
            '') ;;
            *) cands+=("${line%%$'\t'*}") ;;
        esac
    done <<< "$out"
    if [[ ${#cands[@]} -eq 0 && $((directive & 4)) -eq 0 ]]; then
        _kubectl__releasex "$@"
        return
    fi
    COMPREPLY=("${cands[@]}")
    if (( directive & 2 )); then
        compopt -o nospace 2>/dev/null
    fi
}
complete -F _kubectl_releasex_dynamic -o nosort -o bashdefault -o default kubectl-releasex 2>/dev/null ||
    complete -F _kubectl_releasex_dynamic -o bashdefault -o default kubectl-releasex
"#;

const ZSH_DYNAMIC: &str = r#"
# Dynamic words (release names, revisions, namespaces, contexts, charts) from
# the binary itself; the static function above when it answers nothing.
_kubectl_releasex_dynamic() {
    local out line directive=0
    local -a cands descs
    out=$("${words[1]}" __complete "${(@)words[2,CURRENT]}" 2>/dev/null)
    for line in "${(@f)out}"; do
        case $line in
            :<->) directive=${line#:} ;;
            '') ;;
            *) cands+=("${line%%$'\t'*}"); descs+=("${${line//:/\\:}/$'\t'/:}") ;;
        esac
    done
    if (( ${#cands} == 0 )); then
        (( directive & 4 )) || _kubectl-releasex "$@"
        return
    fi
    if (( directive & 2 )); then
        compadd -Q -S '' -- "${cands[@]}"
    else
        _describe -t values 'kubectl-releasex' descs
    fi
}

compdef _kubectl_releasex_dynamic kubectl-releasex
if [ "$funcstack[1]" = "_kubectl-releasex" ]; then
    _kubectl_releasex_dynamic "$@"
fi
"#;

/// zsh: the static script ends by calling or registering `_kubectl-releasex`;
/// the dynamic function takes that place (and falls back to it).
fn zsh(static_script: &str) -> String {
    const TAIL: &str = "if [ \"$funcstack[1]\" = \"_kubectl-releasex\" ]; then\n    _kubectl-releasex \"$@\"\nelse\n    compdef _kubectl-releasex kubectl-releasex\nfi\n";
    let body = static_script.strip_suffix(TAIL).unwrap_or(static_script);
    format!("{body}{ZSH_DYNAMIC}")
}

const FISH_DYNAMIC: &str = r#"
# Dynamic words (release names, revisions, namespaces, contexts, charts) from
# the binary itself (fish reads `value<TAB>help` natively).
function __kubectl_releasex_dynamic
    set -l words (commandline -opc) (commandline -ct)
    set -e words[1]
    kubectl-releasex __complete $words 2>/dev/null | string match -rv '^:[0-9]+$'
end
complete -c kubectl-releasex -f -a '(__kubectl_releasex_dynamic)'
"#;

/// fish: an option that takes a value completes only through its own entry,
/// which for clap means file names; those entries ask the binary instead
/// (it answers files itself where a file is wanted).
fn fish(static_script: &str) -> String {
    let mut out = String::with_capacity(static_script.len() * 2);
    for line in static_script.lines() {
        out.push_str(line);
        if line.starts_with("complete ") && line.ends_with(" -r") {
            out.push_str(" -f -a '(__kubectl_releasex_dynamic)'");
        }
        out.push('\n');
    }
    out + FISH_DYNAMIC
}

const POWERSHELL_DYNAMIC: &str = r#"
# Dynamic words (release names, revisions, namespaces, contexts, charts) from
# the binary itself. It replaces the static completer above (the binary also
# answers subcommands and flags); passing the empty word needs PowerShell 7.3+.
Register-ArgumentCompleter -Native -CommandName 'kubectl-releasex' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $words = @($commandAst.CommandElements | Select-Object -Skip 1 | ForEach-Object { $_.ToString() })
    if ($wordToComplete -eq '') { $words += '' }
    $lines = @(& kubectl-releasex __complete @words 2>$null | Where-Object { $_ -and $_ -notmatch '^:\d+$' })
    foreach ($line in $lines) {
        $value, $help = $line -split "`t", 2
        if (-not $help) { $help = $value }
        [CompletionResult]::new($value, $value, [CompletionResultType]::ParameterValue, $help)
    }
}
"#;
