//! The machine as helmfile's templates see it ([`Host`]): the process
//! environment, files relative to the state file's directory (helmfile
//! joins a relative path with its `basePath`: pkg/tmpl/context_funcs.go
//! `ReadFile`, `IsFile`, `ReadDir`), and commands only when the user passed
//! `--allow-exec` (helmfile's `EnvExec` runs them in that directory).

use std::path::{Path, PathBuf};

use crate::gotmpl::func::Host;

/// The real files, `sops --decrypt` from PATH (as helm-secrets runs it),
/// and [`SystemHost`] for templates.
pub struct SystemIo;

impl crate::helmfile::Io for SystemIo {
    fn read(&self, path: &Path) -> Result<String, String> {
        std::fs::read_to_string(path).map_err(|e| e.to_string())
    }
    fn exists(&self, path: &Path) -> bool {
        path.exists()
    }
    fn sops_decrypt(&self, path: &Path) -> Result<String, String> {
        let out = std::process::Command::new("sops").arg("--decrypt").arg(path).output().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => "`sops` is not on PATH (install sops to decrypt it)".to_string(),
            _ => format!("cannot run sops: {e}"),
        })?;
        if !out.status.success() {
            return Err(format!("sops --decrypt failed: {}", String::from_utf8_lossy(&out.stderr).trim()));
        }
        String::from_utf8(out.stdout).map_err(|_| "sops printed invalid UTF-8".to_string())
    }
    fn template_host(&self, base_dir: &Path, req: &crate::helmfile::Request) -> Box<dyn Host + '_> {
        Box::new(SystemHost { base_dir: base_dir.to_path_buf(), allow_exec: req.allow_exec })
    }
}

pub struct SystemHost {
    /// The state file's directory.
    pub base_dir: PathBuf,
    pub allow_exec: bool,
}

impl SystemHost {
    fn resolve(&self, path: &str) -> PathBuf {
        let p = Path::new(path);
        if p.is_absolute() { p.to_path_buf() } else { self.base_dir.join(p) }
    }
}

/// Go's `*PathError` wording: `open PATH: no such file or directory`.
fn path_error(op: &str, path: &Path, e: &std::io::Error) -> String {
    let why = match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    };
    format!("{op} {}: {why}", path.display())
}

impl Host for SystemHost {
    fn env(&self, name: &str) -> Option<String> {
        std::env::var(name).ok()
    }
    fn read_file(&self, path: &str) -> Result<Vec<u8>, String> {
        let p = self.resolve(path);
        std::fs::read(&p).map_err(|e| path_error("open", &p, &e))
    }
    fn read_dir(&self, path: &str) -> Result<Vec<(String, bool)>, String> {
        let p = self.resolve(path);
        let mut out: Vec<(String, bool)> = std::fs::read_dir(&p)
            .map_err(|e| path_error("open", &p, &e))?
            .filter_map(Result::ok)
            .map(|e| (e.file_name().to_string_lossy().into_owned(), e.file_type().is_ok_and(|t| t.is_dir())))
            .collect();
        out.sort();
        Ok(out)
    }
    fn stat(&self, path: &str) -> Option<bool> {
        std::fs::metadata(self.resolve(path)).ok().map(|m| m.is_dir())
    }
    fn exec(&self, command: &str, args: &[String], env: &[(String, String)], input: Option<&str>) -> Result<String, String> {
        if !self.allow_exec {
            return Err(format!("running `{}` is not allowed: pass --allow-exec to let templates run commands", std::iter::once(command).chain(args.iter().map(String::as_str)).collect::<Vec<_>>().join(" ")));
        }
        use std::io::Write;
        let mut child = std::process::Command::new(command)
            .args(args)
            .envs(env.iter().map(|(k, v)| (k, v)))
            // A state file named without a directory: the working directory.
            .current_dir(if self.base_dir.as_os_str().is_empty() { Path::new(".") } else { &self.base_dir })
            .stdin(if input.is_some() { std::process::Stdio::piped() } else { std::process::Stdio::null() })
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| format!("exec: {command:?}: {e}"))?;
        // stdin is written beside the reads (helmfile writes it in its own
        // goroutine): a command that prints much before reading all its
        // input would otherwise fill the pipe and wait for us forever.
        let writer = match (input, child.stdin.take()) {
            (Some(text), Some(mut stdin)) => {
                let text = text.to_string();
                Some(std::thread::spawn(move || stdin.write_all(text.as_bytes()).map_err(|e| (text.len(), e))))
            }
            _ => None,
        };
        let out = child.wait_with_output().map_err(|e| format!("exec: {command:?}: {e}"))?;
        if let Some(Ok(Err((len, e)))) = writer.map(std::thread::JoinHandle::join) {
            // A command that exits without reading its input closes the pipe; helmfile fails then too.
            return Err(format!("failed while writing {len} bytes to stdin of \"{command}\": {e}"));
        }
        if !out.status.success() {
            // helmexec.Output's wording for a failed command.
            return Err(format!("command \"{command}\" exited with non-zero status:\n\nPATH:\n  {command}\n\nARGS:\n{}\n\nERROR:\n  {}\n\nEXIT STATUS\n  {}\n\nSTDERR:\n  {}",
                args.iter().enumerate().map(|(i, a)| format!("  {i}: {a} ({} bytes)", a.len())).collect::<Vec<_>>().join("\n"),
                out.status, out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).trim()));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }
    fn now_unix_nanos(&self) -> i128 {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as i128)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_against_the_state_files_directory_and_exec_needs_the_flag() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("a.txt"), "hi").expect("write");
        std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
        let host = SystemHost { base_dir: dir.path().to_path_buf(), allow_exec: false };
        assert_eq!(host.read_file("a.txt").as_deref(), Ok(&b"hi"[..]));
        assert_eq!(host.read_dir(".").ok(), Some(vec![("a.txt".into(), false), ("sub".into(), true)]));
        assert_eq!((host.stat("a.txt"), host.stat("sub"), host.stat("nope")), (Some(false), Some(true), None));
        assert!(host.read_file("nope").is_err_and(|e| e.ends_with("/nope: no such file or directory") && e.starts_with("open ")));
        let refused = host.exec("echo", &["x".into()], &[], None).unwrap_err();
        assert!(refused.contains("`echo x`") && refused.contains("--allow-exec"), "{refused}");
        let allowed = SystemHost { allow_exec: true, ..host };
        assert_eq!(allowed.exec("cat", &[], &[], Some("piped")).as_deref(), Ok("piped"));
        assert_eq!(allowed.exec("ls", &[], &[], None).as_deref(), Ok("a.txt\nsub\n"));
    }

    #[test]
    fn env_exec_adds_its_variables_and_a_large_input_does_not_deadlock_a_chatty_command() {
        let host = SystemHost { base_dir: PathBuf::from("."), allow_exec: true };
        let env = [("RELEASEX_ENV_EXEC".to_string(), "from-env-exec".to_string())];
        assert_eq!(host.exec("sh", &["-c".into(), "printf %s \"$RELEASEX_ENV_EXEC\"".into()], &env, None).as_deref(), Ok("from-env-exec"));
        // 1 MiB in, the same out: both pipes are far beyond their buffers.
        let big = "x".repeat(1 << 20);
        assert_eq!(host.exec("cat", &[], &[], Some(&big)).map(|o| o.len()), Ok(big.len()));
    }
}
