//! `completion SHELL`: the static completion scripts (also committed under
//! `completions/`; a test keeps them in sync).

use super::Outcome;

pub fn script(shell: clap_complete::Shell) -> String {
    let mut cmd = super::command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "kubectl-releasex", &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

pub fn run(shell: clap_complete::Shell) -> anyhow::Result<Outcome> {
    Ok(Outcome { stdout: script(shell), ..Outcome::default() })
}
