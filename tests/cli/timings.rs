//! `--timings` and `RELEASEX_TIMINGS=1`: each phase's wall time on stderr,
//! the output itself unchanged.

use crate::support::{releasex, run};

const CHART: &str = "tests/data/corpus/kube-prometheus-stack";

fn phases(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("timings: "))
        .skip(1)
        .map(|l| l.split_whitespace().skip(2).collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn timings_flag_and_variable_print_each_phase_on_stderr_and_leave_stdout_alone() {
    let plain = run(releasex().args(["explain", CHART, "-o", "json"]));
    let flagged = run(releasex().args(["explain", CHART, "-o", "json", "--timings"]));
    let by_env = run(releasex().env("RELEASEX_TIMINGS", "1").args(["explain", CHART, "-o", "json"]));
    assert_eq!((plain.code, flagged.code, by_env.code), (0, 0, 0), "{}", flagged.stderr);
    assert_eq!(flagged.stdout, plain.stdout);
    assert_eq!(by_env.stdout, plain.stdout);
    assert!(plain.stderr.is_empty(), "{}", plain.stderr);
    for stderr in [&flagged.stderr, &by_env.stderr] {
        let names = phases(stderr);
        for want in ["parse arguments", "command", "load chart", "read values files", "dependencies", "coalescing", "attribution", "print", "total (to the end of the output)"] {
            assert!(names.iter().any(|n| n == want), "no phase {want:?} in:\n{stderr}");
        }
        // Phases inside `command` are indented under it.
        assert!(stderr.lines().any(|l| l.ends_with("   load chart")), "{stderr}");
        // Each line: start and duration in milliseconds.
        assert!(stderr.starts_with("timings:  start ms  took ms  phase (wall time)\n"), "{stderr}");
        for l in stderr.lines().filter(|l| l.starts_with("timings: ")).skip(1) {
            let fields: Vec<&str> = l.split_whitespace().collect();
            assert!(fields[1].parse::<f64>().is_ok() && fields[2].parse::<f64>().is_ok(), "{l}");
        }
    }
    let off = run(releasex().env("RELEASEX_TIMINGS", "0").args(["explain", CHART, "-o", "json"]));
    assert!(off.stderr.is_empty(), "{}", off.stderr);
}
