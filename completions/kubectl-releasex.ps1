
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'kubectl-releasex' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'kubectl-releasex'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'kubectl-releasex' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl''s flag: 30s, 2m, a plain number is seconds, 0 means no limit)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)')
            [CompletionResult]::new('--timings', '--timings', [CompletionResultType]::ParameterName, 'Print each phase''s wall time to stderr when done (also RELEASEX_TIMINGS=1)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('release', 'release', [CompletionResultType]::ParameterValue, 'Read what Helm stored about a release (Secrets, ConfigMaps, SQL rows, files)')
            [CompletionResult]::new('values', 'values', [CompletionResultType]::ParameterValue, 'Where values come from')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Shorthand for `values explain`')
            [CompletionResult]::new('upgrade-preview', 'upgrade-preview', [CompletionResultType]::ParameterValue, 'What `helm upgrade RELEASE CHART [flags]` would do with the values: the baseline revision, each value mode, what is kept, dropped or new')
            [CompletionResult]::new('rollback-preview', 'rollback-preview', [CompletionResultType]::ParameterValue, 'What `helm rollback RELEASE [REVISION]` would do: the target revision, the stored config it brings back, and per object the request Helm would send')
            [CompletionResult]::new('blame', 'blame', [CompletionResultType]::ParameterValue, 'Which template action and which values keys produced each field of the rendered objects')
            [CompletionResult]::new('template', 'template', [CompletionResultType]::ParameterValue, 'Render a chart as `helm template [NAME] CHART [flags]` prints it, in process (no Helm binary)')
            [CompletionResult]::new('patch', 'patch', [CompletionResultType]::ParameterValue, 'Compute the patch `helm upgrade` sends for one object (original = previous manifest''s object, modified = new manifest''s object, current = live object)')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print a shell completion script (static words, plus release names, revisions, namespaces, contexts, charts and values files asked from the binary at TAB time)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-releasex;release' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl''s flag: 30s, 2m, a plain number is seconds, 0 means no limit)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)')
            [CompletionResult]::new('--timings', '--timings', [CompletionResultType]::ParameterName, 'Print each phase''s wall time to stderr when done (also RELEASEX_TIMINGS=1)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('decode', 'decode', [CompletionResultType]::ParameterValue, 'Decode one revision of a release record and show a view of it')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'One row per revision of a release, and what its state means for the next upgrade')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-releasex;release;decode' {
            [CompletionResult]::new('--revision', '--revision', [CompletionResultType]::ParameterName, 'Revision to decode (default: the latest)')
            [CompletionResult]::new('--show', '--show', [CompletionResultType]::ParameterName, 'What to show')
            [CompletionResult]::new('--template', '--template', [CompletionResultType]::ParameterName, 'With --show chart: print this template (or file) of the stored chart, decoded')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Read records from FILE instead of the cluster: a Secret or ConfigMap as `kubectl get -o yaml|json` prints it, a List, a directory of such files, or a bare payload; `-` reads stdin. Repeatable')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Read records from FILE instead of the cluster: a Secret or ConfigMap as `kubectl get -o yaml|json` prints it, a List, a directory of such files, or a bare payload; `-` reads stdin. Repeatable')
            [CompletionResult]::new('--driver', '--driver', [CompletionResultType]::ParameterName, 'Helm storage driver: secret (default), configmap or sql')
            [CompletionResult]::new('--sql-connection', '--sql-connection', [CompletionResultType]::ParameterName, 'PostgreSQL connection string for --driver sql (as Helm''s HELM_DRIVER_SQL_CONNECTION_STRING)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl''s flag: 30s, 2m, a plain number is seconds, 0 means no limit)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'Show Secret data in manifests and hooks instead of masking it')
            [CompletionResult]::new('--timings', '--timings', [CompletionResultType]::ParameterName, 'Print each phase''s wall time to stderr when done (also RELEASEX_TIMINGS=1)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-releasex;release;history' {
            [CompletionResult]::new('--max', '--max', [CompletionResultType]::ParameterName, 'Show at most this many of the latest revisions (like `helm history --max`)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Read records from FILE instead of the cluster: a Secret or ConfigMap as `kubectl get -o yaml|json` prints it, a List, a directory of such files, or a bare payload; `-` reads stdin. Repeatable')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Read records from FILE instead of the cluster: a Secret or ConfigMap as `kubectl get -o yaml|json` prints it, a List, a directory of such files, or a bare payload; `-` reads stdin. Repeatable')
            [CompletionResult]::new('--driver', '--driver', [CompletionResultType]::ParameterName, 'Helm storage driver: secret (default), configmap or sql')
            [CompletionResult]::new('--sql-connection', '--sql-connection', [CompletionResultType]::ParameterName, 'PostgreSQL connection string for --driver sql (as Helm''s HELM_DRIVER_SQL_CONNECTION_STRING)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl''s flag: 30s, 2m, a plain number is seconds, 0 means no limit)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)')
            [CompletionResult]::new('--timings', '--timings', [CompletionResultType]::ParameterName, 'Print each phase''s wall time to stderr when done (also RELEASEX_TIMINGS=1)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-releasex;release;help' {
            [CompletionResult]::new('decode', 'decode', [CompletionResultType]::ParameterValue, 'Decode one revision of a release record and show a view of it')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'One row per revision of a release, and what its state means for the next upgrade')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-releasex;release;help;decode' {
            break
        }
        'kubectl-releasex;release;help;history' {
            break
        }
        'kubectl-releasex;release;help;help' {
            break
        }
        'kubectl-releasex;values' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl''s flag: 30s, 2m, a plain number is seconds, 0 means no limit)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)')
            [CompletionResult]::new('--timings', '--timings', [CompletionResultType]::ParameterName, 'Print each phase''s wall time to stderr when done (also RELEASEX_TIMINGS=1)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'The values a chart''s templates will see, exactly as Helm computes them, with the source of every key')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-releasex;values;explain' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Values file (repeatable; a comma-separated list is read as one CSV record, as Helm does; - reads stdin)')
            [CompletionResult]::new('--values', '--values', [CompletionResultType]::ParameterName, 'Values file (repeatable; a comma-separated list is read as one CSV record, as Helm does; - reads stdin)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a value (KEY=VALUE; repeatable)')
            [CompletionResult]::new('--set-string', '--set-string', [CompletionResultType]::ParameterName, 'Set a STRING value (repeatable)')
            [CompletionResult]::new('--set-json', '--set-json', [CompletionResultType]::ParameterName, 'Set a JSON value (KEY=JSON, or a whole JSON object; repeatable)')
            [CompletionResult]::new('--set-file', '--set-file', [CompletionResultType]::ParameterName, 'Set a value from a file''s contents (KEY=PATH; repeatable)')
            [CompletionResult]::new('--set-literal', '--set-literal', [CompletionResultType]::ParameterName, 'Set a literal STRING value (no parsing of the value; repeatable)')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'Show only this key and what is below it, with its full history (repeatable)')
            [CompletionResult]::new('--release', '--release', [CompletionResultType]::ParameterName, 'Explain a deployed release''s values instead (what `helm get values --all` shows), read from the cluster; with --helmfile: the helmfile release to explain')
            [CompletionResult]::new('--revision', '--revision', [CompletionResultType]::ParameterName, 'With --release: the revision (default: the latest)')
            [CompletionResult]::new('--release-file', '--release-file', [CompletionResultType]::ParameterName, 'With --release: read the release records from FILE (as `release decode -f`)')
            [CompletionResult]::new('--driver', '--driver', [CompletionResultType]::ParameterName, 'With --release: Helm storage driver (secret, configmap or sql)')
            [CompletionResult]::new('--sql-connection', '--sql-connection', [CompletionResultType]::ParameterName, 'With --release --driver sql: PostgreSQL connection string')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'A version constraint for the chart (e.g. 1.2.3 or ^1.2); default: the latest')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Chart repository URL where to find CHART')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Chart repository username')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Chart repository password (see also --password-stdin)')
            [CompletionResult]::new('--ca-file', '--ca-file', [CompletionResultType]::ParameterName, 'Verify certificates of HTTPS chart servers with this CA bundle')
            [CompletionResult]::new('--cert-file', '--cert-file', [CompletionResultType]::ParameterName, 'Client certificate for the chart server')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'Client key for the chart server')
            [CompletionResult]::new('--keyring', '--keyring', [CompletionResultType]::ParameterName, 'Public keys for --verify (Helm''s default: ~/.gnupg/pubring.gpg)')
            [CompletionResult]::new('--helmfile', '--helmfile', [CompletionResultType]::ParameterName, 'Explain a helmfile''s state values (or, with --release, one release''s values through helmfile and Helm)')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'With --helmfile: the environment')
            [CompletionResult]::new('--environment', '--environment', [CompletionResultType]::ParameterName, 'With --helmfile: the environment')
            [CompletionResult]::new('--state-values-set', '--state-values-set', [CompletionResultType]::ParameterName, 'With --helmfile: as helmfile --state-values-set (KEY=VALUE,...; repeatable)')
            [CompletionResult]::new('--state-values-set-string', '--state-values-set-string', [CompletionResultType]::ParameterName, 'With --helmfile: as helmfile --state-values-set-string (repeatable)')
            [CompletionResult]::new('--state-values-file', '--state-values-file', [CompletionResultType]::ParameterName, 'With --helmfile: as helmfile --state-values-file (repeatable)')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'With --helmfile: as helmfile --kube-context (what templates read as .KubeContext)')
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'With --werf: the werf environment (default $WERF_ENV)')
            [CompletionResult]::new('--secret-values', '--secret-values', [CompletionResultType]::ParameterName, 'With --werf: a secret values file (repeatable; later files win)')
            [CompletionResult]::new('--werf-images', '--werf-images', [CompletionResultType]::ParameterName, 'With --werf: werf''s image values (werf.image.*, werf.tag.*, werf.repo, global.werf.images.*) from a build report (werf build --save-build-report, JSON)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl''s flag: 30s, 2m, a plain number is seconds, 0 means no limit)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)')
            [CompletionResult]::new('--show-overridden', '--show-overridden', [CompletionResultType]::ParameterName, 'Also show what each key overrode')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Only the keys you set (values files, --set flags, the release config, helmfile and werf layers), with what they overrode')
            [CompletionResult]::new('--skip-schema-validation', '--skip-schema-validation', [CompletionResultType]::ParameterName, 'Skip values.schema.json validation, as Helm''s --skip-schema-validation')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'With --helmfile or --werf: print secret values instead of <secret>')
            [CompletionResult]::new('--devel', '--devel', [CompletionResultType]::ParameterName, 'Use development versions too (as version ''>0.0.0-0''); ignored with --version')
            [CompletionResult]::new('--password-stdin', '--password-stdin', [CompletionResultType]::ParameterName, 'Read the chart repository password from stdin')
            [CompletionResult]::new('--pass-credentials', '--pass-credentials', [CompletionResultType]::ParameterName, 'Pass credentials to all domains')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Skip TLS certificate checks for the chart download')
            [CompletionResult]::new('--plain-http', '--plain-http', [CompletionResultType]::ParameterName, 'Use plain HTTP for the chart download')
            [CompletionResult]::new('--verify', '--verify', [CompletionResultType]::ParameterName, 'Verify the chart''s provenance before using it')
            [CompletionResult]::new('--dependency-update', '--dependency-update', [CompletionResultType]::ParameterName, 'Fetch missing dependencies first (into a temporary copy, never into your chart directory)')
            [CompletionResult]::new('--skip-secrets', '--skip-secrets', [CompletionResultType]::ParameterName, 'With --helmfile: explain without sops-encrypted secrets files (reported as skipped)')
            [CompletionResult]::new('--skip-templated', '--skip-templated', [CompletionResultType]::ParameterName, 'With --helmfile: explain without .gotmpl files that hold template actions (reported as skipped)')
            [CompletionResult]::new('--allow-exec', '--allow-exec', [CompletionResultType]::ParameterName, 'With --helmfile: let templates run commands (exec, envExec), as helmfile does; without it they stop naming the command')
            [CompletionResult]::new('--werf', '--werf', [CompletionResultType]::ParameterName, 'Explain as werf computes values: CHART is the project root (default .), the chart is .helm/ or werf.yaml''s deploy.helmChartDir; reads $WERF_VALUES_*, $WERF_SECRET_VALUES_*, $WERF_SET*_* (sorted by name)')
            [CompletionResult]::new('--no-default-values', '--no-default-values', [CompletionResultType]::ParameterName, 'With --werf: ignore the chart''s values.yaml')
            [CompletionResult]::new('--no-default-secret-values', '--no-default-secret-values', [CompletionResultType]::ParameterName, 'With --werf: ignore the chart''s secret-values.yaml')
            [CompletionResult]::new('--ignore-secret-key', '--ignore-secret-key', [CompletionResultType]::ParameterName, 'With --werf: do not decrypt; explain with the encrypted strings (as werf --ignore-secret-key)')
            [CompletionResult]::new('--timings', '--timings', [CompletionResultType]::ParameterName, 'Print each phase''s wall time to stderr when done (also RELEASEX_TIMINGS=1)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-releasex;values;help' {
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'The values a chart''s templates will see, exactly as Helm computes them, with the source of every key')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-releasex;values;help;explain' {
            break
        }
        'kubectl-releasex;values;help;help' {
            break
        }
        'kubectl-releasex;explain' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Values file (repeatable; a comma-separated list is read as one CSV record, as Helm does; - reads stdin)')
            [CompletionResult]::new('--values', '--values', [CompletionResultType]::ParameterName, 'Values file (repeatable; a comma-separated list is read as one CSV record, as Helm does; - reads stdin)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a value (KEY=VALUE; repeatable)')
            [CompletionResult]::new('--set-string', '--set-string', [CompletionResultType]::ParameterName, 'Set a STRING value (repeatable)')
            [CompletionResult]::new('--set-json', '--set-json', [CompletionResultType]::ParameterName, 'Set a JSON value (KEY=JSON, or a whole JSON object; repeatable)')
            [CompletionResult]::new('--set-file', '--set-file', [CompletionResultType]::ParameterName, 'Set a value from a file''s contents (KEY=PATH; repeatable)')
            [CompletionResult]::new('--set-literal', '--set-literal', [CompletionResultType]::ParameterName, 'Set a literal STRING value (no parsing of the value; repeatable)')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'Show only this key and what is below it, with its full history (repeatable)')
            [CompletionResult]::new('--release', '--release', [CompletionResultType]::ParameterName, 'Explain a deployed release''s values instead (what `helm get values --all` shows), read from the cluster; with --helmfile: the helmfile release to explain')
            [CompletionResult]::new('--revision', '--revision', [CompletionResultType]::ParameterName, 'With --release: the revision (default: the latest)')
            [CompletionResult]::new('--release-file', '--release-file', [CompletionResultType]::ParameterName, 'With --release: read the release records from FILE (as `release decode -f`)')
            [CompletionResult]::new('--driver', '--driver', [CompletionResultType]::ParameterName, 'With --release: Helm storage driver (secret, configmap or sql)')
            [CompletionResult]::new('--sql-connection', '--sql-connection', [CompletionResultType]::ParameterName, 'With --release --driver sql: PostgreSQL connection string')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'A version constraint for the chart (e.g. 1.2.3 or ^1.2); default: the latest')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Chart repository URL where to find CHART')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Chart repository username')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Chart repository password (see also --password-stdin)')
            [CompletionResult]::new('--ca-file', '--ca-file', [CompletionResultType]::ParameterName, 'Verify certificates of HTTPS chart servers with this CA bundle')
            [CompletionResult]::new('--cert-file', '--cert-file', [CompletionResultType]::ParameterName, 'Client certificate for the chart server')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'Client key for the chart server')
            [CompletionResult]::new('--keyring', '--keyring', [CompletionResultType]::ParameterName, 'Public keys for --verify (Helm''s default: ~/.gnupg/pubring.gpg)')
            [CompletionResult]::new('--helmfile', '--helmfile', [CompletionResultType]::ParameterName, 'Explain a helmfile''s state values (or, with --release, one release''s values through helmfile and Helm)')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'With --helmfile: the environment')
            [CompletionResult]::new('--environment', '--environment', [CompletionResultType]::ParameterName, 'With --helmfile: the environment')
            [CompletionResult]::new('--state-values-set', '--state-values-set', [CompletionResultType]::ParameterName, 'With --helmfile: as helmfile --state-values-set (KEY=VALUE,...; repeatable)')
            [CompletionResult]::new('--state-values-set-string', '--state-values-set-string', [CompletionResultType]::ParameterName, 'With --helmfile: as helmfile --state-values-set-string (repeatable)')
            [CompletionResult]::new('--state-values-file', '--state-values-file', [CompletionResultType]::ParameterName, 'With --helmfile: as helmfile --state-values-file (repeatable)')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'With --helmfile: as helmfile --kube-context (what templates read as .KubeContext)')
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'With --werf: the werf environment (default $WERF_ENV)')
            [CompletionResult]::new('--secret-values', '--secret-values', [CompletionResultType]::ParameterName, 'With --werf: a secret values file (repeatable; later files win)')
            [CompletionResult]::new('--werf-images', '--werf-images', [CompletionResultType]::ParameterName, 'With --werf: werf''s image values (werf.image.*, werf.tag.*, werf.repo, global.werf.images.*) from a build report (werf build --save-build-report, JSON)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl''s flag: 30s, 2m, a plain number is seconds, 0 means no limit)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)')
            [CompletionResult]::new('--show-overridden', '--show-overridden', [CompletionResultType]::ParameterName, 'Also show what each key overrode')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Only the keys you set (values files, --set flags, the release config, helmfile and werf layers), with what they overrode')
            [CompletionResult]::new('--skip-schema-validation', '--skip-schema-validation', [CompletionResultType]::ParameterName, 'Skip values.schema.json validation, as Helm''s --skip-schema-validation')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'With --helmfile or --werf: print secret values instead of <secret>')
            [CompletionResult]::new('--devel', '--devel', [CompletionResultType]::ParameterName, 'Use development versions too (as version ''>0.0.0-0''); ignored with --version')
            [CompletionResult]::new('--password-stdin', '--password-stdin', [CompletionResultType]::ParameterName, 'Read the chart repository password from stdin')
            [CompletionResult]::new('--pass-credentials', '--pass-credentials', [CompletionResultType]::ParameterName, 'Pass credentials to all domains')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Skip TLS certificate checks for the chart download')
            [CompletionResult]::new('--plain-http', '--plain-http', [CompletionResultType]::ParameterName, 'Use plain HTTP for the chart download')
            [CompletionResult]::new('--verify', '--verify', [CompletionResultType]::ParameterName, 'Verify the chart''s provenance before using it')
            [CompletionResult]::new('--dependency-update', '--dependency-update', [CompletionResultType]::ParameterName, 'Fetch missing dependencies first (into a temporary copy, never into your chart directory)')
            [CompletionResult]::new('--skip-secrets', '--skip-secrets', [CompletionResultType]::ParameterName, 'With --helmfile: explain without sops-encrypted secrets files (reported as skipped)')
            [CompletionResult]::new('--skip-templated', '--skip-templated', [CompletionResultType]::ParameterName, 'With --helmfile: explain without .gotmpl files that hold template actions (reported as skipped)')
            [CompletionResult]::new('--allow-exec', '--allow-exec', [CompletionResultType]::ParameterName, 'With --helmfile: let templates run commands (exec, envExec), as helmfile does; without it they stop naming the command')
            [CompletionResult]::new('--werf', '--werf', [CompletionResultType]::ParameterName, 'Explain as werf computes values: CHART is the project root (default .), the chart is .helm/ or werf.yaml''s deploy.helmChartDir; reads $WERF_VALUES_*, $WERF_SECRET_VALUES_*, $WERF_SET*_* (sorted by name)')
            [CompletionResult]::new('--no-default-values', '--no-default-values', [CompletionResultType]::ParameterName, 'With --werf: ignore the chart''s values.yaml')
            [CompletionResult]::new('--no-default-secret-values', '--no-default-secret-values', [CompletionResultType]::ParameterName, 'With --werf: ignore the chart''s secret-values.yaml')
            [CompletionResult]::new('--ignore-secret-key', '--ignore-secret-key', [CompletionResultType]::ParameterName, 'With --werf: do not decrypt; explain with the encrypted strings (as werf --ignore-secret-key)')
            [CompletionResult]::new('--timings', '--timings', [CompletionResultType]::ParameterName, 'Print each phase''s wall time to stderr when done (also RELEASEX_TIMINGS=1)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-releasex;upgrade-preview' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Values file (repeatable; a comma-separated list is read as one CSV record, as Helm does; - reads stdin)')
            [CompletionResult]::new('--values', '--values', [CompletionResultType]::ParameterName, 'Values file (repeatable; a comma-separated list is read as one CSV record, as Helm does; - reads stdin)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a value (KEY=VALUE; repeatable)')
            [CompletionResult]::new('--set-string', '--set-string', [CompletionResultType]::ParameterName, 'Set a STRING value (repeatable)')
            [CompletionResult]::new('--set-json', '--set-json', [CompletionResultType]::ParameterName, 'Set a JSON value (KEY=JSON, or a whole JSON object; repeatable)')
            [CompletionResult]::new('--set-file', '--set-file', [CompletionResultType]::ParameterName, 'Set a value from a file''s contents (KEY=PATH; repeatable)')
            [CompletionResult]::new('--set-literal', '--set-literal', [CompletionResultType]::ParameterName, 'Set a literal STRING value (no parsing of the value; repeatable)')
            [CompletionResult]::new('--release-file', '--release-file', [CompletionResultType]::ParameterName, 'Read the release''s records from FILE instead of the cluster (as `release decode -f`; repeatable)')
            [CompletionResult]::new('--driver', '--driver', [CompletionResultType]::ParameterName, 'Helm storage driver (secret, configmap or sql)')
            [CompletionResult]::new('--sql-connection', '--sql-connection', [CompletionResultType]::ParameterName, 'With --driver sql: PostgreSQL connection string')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'Show only these keys (and what is below them) in the values, config and changes (repeatable)')
            [CompletionResult]::new('--manifest', '--manifest', [CompletionResultType]::ParameterName, 'Use this rendered manifest instead of running Helm (`-` reads stdin), e.g. the output of `helm template`')
            [CompletionResult]::new('--server-side', '--server-side', [CompletionResultType]::ParameterName, 'As helm upgrade --server-side: auto follows the last revision''s apply method')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'Leave this field out of patches, drift and the exit code: PATH or Kind:PATH (repeatable)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Lines of context around each change in the object diffs (helm diff''s -C; --context is the kubeconfig context here)')
            [CompletionResult]::new('--diff-context', '--diff-context', [CompletionResultType]::ParameterName, 'Lines of context around each change in the object diffs (helm diff''s -C; --context is the kubeconfig context here)')
            [CompletionResult]::new('--suppress', '--suppress', [CompletionResultType]::ParameterName, 'Leave objects of this kind out of the listing (they still count in the plan; repeatable)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many live objects to read at once')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'A version constraint for the chart (e.g. 1.2.3 or ^1.2); default: the latest')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Chart repository URL where to find CHART')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Chart repository username')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Chart repository password (see also --password-stdin)')
            [CompletionResult]::new('--ca-file', '--ca-file', [CompletionResultType]::ParameterName, 'Verify certificates of HTTPS chart servers with this CA bundle')
            [CompletionResult]::new('--cert-file', '--cert-file', [CompletionResultType]::ParameterName, 'Client certificate for the chart server')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'Client key for the chart server')
            [CompletionResult]::new('--keyring', '--keyring', [CompletionResultType]::ParameterName, 'Public keys for --verify (Helm''s default: ~/.gnupg/pubring.gpg)')
            [CompletionResult]::new('--post-renderer', '--post-renderer', [CompletionResultType]::ParameterName, 'Post-render the manifest (Helm 4: a postrenderer plugin''s name; Helm 3: an executable)')
            [CompletionResult]::new('--post-renderer-args', '--post-renderer-args', [CompletionResultType]::ParameterName, 'An argument to the post-renderer (repeatable)')
            [CompletionResult]::new('--kube-version', '--kube-version', [CompletionResultType]::ParameterName, 'Render with this .Capabilities.KubeVersion instead of the cluster''s')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Add to .Capabilities.APIVersions (GROUP/VERSION or GROUP/VERSION/KIND; repeatable, comma-separated)')
            [CompletionResult]::new('--api-versions', '--api-versions', [CompletionResultType]::ParameterName, 'Add to .Capabilities.APIVersions (GROUP/VERSION or GROUP/VERSION/KIND; repeatable, comma-separated)')
            [CompletionResult]::new('--history-max', '--history-max', [CompletionResultType]::ParameterName, 'Maximum revisions Helm keeps (0: no limit); the preview lists the records Helm deletes after this upgrade')
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'The new record''s description (Helm''s default: "Upgrade complete")')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Labels merged over the last record''s (KEY=VALUE,...; VALUE null removes a label; repeatable)')
            [CompletionResult]::new('--labels', '--labels', [CompletionResultType]::ParameterName, 'Labels merged over the last record''s (KEY=VALUE,...; VALUE null removes a label; repeatable)')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Wait for resources to be ready (Helm 4: watcher, hookOnly or legacy)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long Helm waits for each Kubernetes operation')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Helm''s own simulation (none, client or server); a preview never changes anything anyway')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl''s flag: 30s, 2m, a plain number is seconds, 0 means no limit)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)')
            [CompletionResult]::new('--reuse-values', '--reuse-values', [CompletionResultType]::ParameterName, 'As helm upgrade --reuse-values (ignored if --reset-values is given, as in Helm)')
            [CompletionResult]::new('--reset-values', '--reset-values', [CompletionResultType]::ParameterName, 'As helm upgrade --reset-values')
            [CompletionResult]::new('--reset-then-reuse-values', '--reset-then-reuse-values', [CompletionResultType]::ParameterName, 'As helm upgrade --reset-then-reuse-values (ignored if either of the others is given, as in Helm)')
            [CompletionResult]::new('--compare-modes', '--compare-modes', [CompletionResultType]::ParameterName, 'Compute the four value modes side by side and recommend one')
            [CompletionResult]::new('--values-only', '--values-only', [CompletionResultType]::ParameterName, 'Stop after the values (no rendering, no cluster objects)')
            [CompletionResult]::new('--skip-schema-validation', '--skip-schema-validation', [CompletionResultType]::ParameterName, 'Skip values.schema.json validation, as Helm''s --skip-schema-validation')
            [CompletionResult]::new('--take-ownership', '--take-ownership', [CompletionResultType]::ParameterName, 'As helm upgrade --take-ownership: adopt existing objects without checking their owner')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'As helm upgrade --install: preview an install when the release has no records or its last one is uninstalled')
            [CompletionResult]::new('--install', '--install', [CompletionResultType]::ParameterName, 'As helm upgrade --install: preview an install when the release has no records or its last one is uninstalled')
            [CompletionResult]::new('--allow-unreleased', '--allow-unreleased', [CompletionResultType]::ParameterName, 'As helm upgrade --install: preview an install when the release has no records or its last one is uninstalled')
            [CompletionResult]::new('--create-namespace', '--create-namespace', [CompletionResultType]::ParameterName, 'With --install: Helm creates the namespace when it does not exist (shown in the plan)')
            [CompletionResult]::new('--no-hooks', '--no-hooks', [CompletionResultType]::ParameterName, 'As helm upgrade --no-hooks: Helm stores the hooks in the new record but runs none of them')
            [CompletionResult]::new('--force-conflicts', '--force-conflicts', [CompletionResultType]::ParameterName, 'As helm upgrade --force-conflicts (server-side apply)')
            [CompletionResult]::new('--force-replace', '--force-replace', [CompletionResultType]::ParameterName, 'As helm upgrade --force-replace: Helm replaces each existing object (PUT) instead of patching it (client-side apply only)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Deprecated spelling of --force-replace (Helm 3''s --force)')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'Show Secret values, decoded from base64 in the diffs, and values under keys that look secret (masked by default)')
            [CompletionResult]::new('--show-patch', '--show-patch', [CompletionResultType]::ParameterName, 'Also show the exact request body Helm sends for each object (patch, apply body or PUT; always in -o json)')
            [CompletionResult]::new('--show-unchanged', '--show-unchanged', [CompletionResultType]::ParameterName, 'Also list the objects left unchanged')
            [CompletionResult]::new('--suppress-secrets', '--suppress-secrets', [CompletionResultType]::ParameterName, 'Show Secrets by name only')
            [CompletionResult]::new('--diff', '--diff', [CompletionResultType]::ParameterName, 'Diffs are shown by default; kept so that older command lines still work')
            [CompletionResult]::new('--show-values', '--show-values', [CompletionResultType]::ParameterName, 'Show every value the templates will see, the config Helm stores, and every new chart default')
            [CompletionResult]::new('--detailed-exitcode', '--detailed-exitcode', [CompletionResultType]::ParameterName, 'Exit 2 when the upgrade changes an object (with --values-only: a value), 0 when nothing changes; 3 when Helm would fail either way')
            [CompletionResult]::new('--lookup', '--lookup', [CompletionResultType]::ParameterName, 'Let the templates'' lookup read the cluster while rendering, as helm upgrade does (GET and LIST only)')
            [CompletionResult]::new('--render-with-helm', '--render-with-helm', [CompletionResultType]::ParameterName, 'Render with `helm template` ($HELM_BIN or helm on PATH) instead of releasex''s own engine (also used for --post-renderer and --enable-dns; with --lookup, Helm renders with --dry-run=server)')
            [CompletionResult]::new('--why', '--why', [CompletionResultType]::ParameterName, 'Under each changed line of a diff, the values key (and where its value came from) or the template line that printed it (releasex''s own renderer only)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Contact no API server: the records come from --release-file (or --driver sql), each new object is compared with the baseline''s stored manifest (as helm-diff does), and drift is unknown')
            [CompletionResult]::new('--devel', '--devel', [CompletionResultType]::ParameterName, 'Use development versions too (as version ''>0.0.0-0''); ignored with --version')
            [CompletionResult]::new('--password-stdin', '--password-stdin', [CompletionResultType]::ParameterName, 'Read the chart repository password from stdin')
            [CompletionResult]::new('--pass-credentials', '--pass-credentials', [CompletionResultType]::ParameterName, 'Pass credentials to all domains')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Skip TLS certificate checks for the chart download')
            [CompletionResult]::new('--plain-http', '--plain-http', [CompletionResultType]::ParameterName, 'Use plain HTTP for the chart download')
            [CompletionResult]::new('--verify', '--verify', [CompletionResultType]::ParameterName, 'Verify the chart''s provenance before using it')
            [CompletionResult]::new('--dependency-update', '--dependency-update', [CompletionResultType]::ParameterName, 'Fetch missing dependencies first (into a temporary copy, never into your chart directory)')
            [CompletionResult]::new('--enable-dns', '--enable-dns', [CompletionResultType]::ParameterName, 'Let templates resolve DNS names (getHostByName)')
            [CompletionResult]::new('--wait-for-jobs', '--wait-for-jobs', [CompletionResultType]::ParameterName, 'With --wait: also wait for Jobs to complete')
            [CompletionResult]::new('--cleanup-on-fail', '--cleanup-on-fail', [CompletionResultType]::ParameterName, 'Delete new resources when the command fails')
            [CompletionResult]::new('--rollback-on-failure', '--rollback-on-failure', [CompletionResultType]::ParameterName, 'Roll back on failure (Helm 3''s --atomic)')
            [CompletionResult]::new('--atomic', '--atomic', [CompletionResultType]::ParameterName, 'Roll back on failure (Helm 3''s --atomic)')
            [CompletionResult]::new('--hide-notes', '--hide-notes', [CompletionResultType]::ParameterName, 'Do not print the chart''s notes')
            [CompletionResult]::new('--hide-secret', '--hide-secret', [CompletionResultType]::ParameterName, 'Hide Secrets in Helm''s --dry-run output (the preview masks them unless --show-secrets)')
            [CompletionResult]::new('--render-subchart-notes', '--render-subchart-notes', [CompletionResultType]::ParameterName, 'Render subcharts'' NOTES.txt too (only the notes Helm prints and stores change)')
            [CompletionResult]::new('--skip-crds', '--skip-crds', [CompletionResultType]::ParameterName, 'Without --install Helm never installs CRDs, so this changes nothing in an upgrade')
            [CompletionResult]::new('--disable-openapi-validation', '--disable-openapi-validation', [CompletionResultType]::ParameterName, 'Skip Helm''s OpenAPI validation of the rendered objects (the preview does not run that validation)')
            [CompletionResult]::new('--timings', '--timings', [CompletionResultType]::ParameterName, 'Print each phase''s wall time to stderr when done (also RELEASEX_TIMINGS=1)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-releasex;rollback-preview' {
            [CompletionResult]::new('--server-side', '--server-side', [CompletionResultType]::ParameterName, 'As helm rollback --server-side: auto follows the target revision''s apply method')
            [CompletionResult]::new('--history-max', '--history-max', [CompletionResultType]::ParameterName, 'Maximum revisions Helm keeps (0: no limit); the preview lists the records Helm deletes after this rollback')
            [CompletionResult]::new('--release-file', '--release-file', [CompletionResultType]::ParameterName, 'Read the release''s records from FILE instead of the cluster (as `release decode -f`; repeatable)')
            [CompletionResult]::new('--driver', '--driver', [CompletionResultType]::ParameterName, 'Helm storage driver (secret, configmap or sql)')
            [CompletionResult]::new('--sql-connection', '--sql-connection', [CompletionResultType]::ParameterName, 'With --driver sql: PostgreSQL connection string')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'Leave this field out of patches, drift and the exit code: PATH or Kind:PATH (repeatable)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Lines of context around each change in the object diffs (helm diff''s -C; --context is the kubeconfig context here)')
            [CompletionResult]::new('--diff-context', '--diff-context', [CompletionResultType]::ParameterName, 'Lines of context around each change in the object diffs (helm diff''s -C; --context is the kubeconfig context here)')
            [CompletionResult]::new('--suppress', '--suppress', [CompletionResultType]::ParameterName, 'Leave objects of this kind out of the listing (they still count in the plan; repeatable)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many live objects to read at once')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Wait for resources to be ready (Helm 4: watcher, hookOnly or legacy)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long Helm waits for each Kubernetes operation')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Helm''s own simulation (none, client or server); a preview never changes anything anyway')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl''s flag: 30s, 2m, a plain number is seconds, 0 means no limit)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)')
            [CompletionResult]::new('--force-replace', '--force-replace', [CompletionResultType]::ParameterName, 'As helm rollback --force-replace: Helm replaces each existing object (PUT) instead of patching it (client-side apply only)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Deprecated spelling of --force-replace (Helm 3''s --force)')
            [CompletionResult]::new('--force-conflicts', '--force-conflicts', [CompletionResultType]::ParameterName, 'As helm rollback --force-conflicts (server-side apply)')
            [CompletionResult]::new('--no-hooks', '--no-hooks', [CompletionResultType]::ParameterName, 'As helm rollback --no-hooks: the target''s pre-/post-rollback hooks do not run')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Contact no API server: the records come from --release-file (or --driver sql), each object of the target is compared with the current revision''s stored manifest, and drift is unknown')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'Show Secret values, decoded from base64 in the diffs, and values under keys that look secret (masked by default)')
            [CompletionResult]::new('--show-patch', '--show-patch', [CompletionResultType]::ParameterName, 'Also show the exact request body Helm sends for each object (patch, apply body or PUT; always in -o json)')
            [CompletionResult]::new('--show-unchanged', '--show-unchanged', [CompletionResultType]::ParameterName, 'Also list the objects left unchanged')
            [CompletionResult]::new('--suppress-secrets', '--suppress-secrets', [CompletionResultType]::ParameterName, 'Show Secrets by name only')
            [CompletionResult]::new('--detailed-exitcode', '--detailed-exitcode', [CompletionResultType]::ParameterName, 'Exit 2 when the rollback changes an object, 0 when nothing changes; 3 when Helm would fail either way')
            [CompletionResult]::new('--wait-for-jobs', '--wait-for-jobs', [CompletionResultType]::ParameterName, 'With --wait: also wait for Jobs to complete')
            [CompletionResult]::new('--cleanup-on-fail', '--cleanup-on-fail', [CompletionResultType]::ParameterName, 'Delete new resources when the command fails')
            [CompletionResult]::new('--timings', '--timings', [CompletionResultType]::ParameterName, 'Print each phase''s wall time to stderr when done (also RELEASEX_TIMINGS=1)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-releasex;blame' {
            [CompletionResult]::new('--release-name', '--release-name', [CompletionResultType]::ParameterName, 'The release name the chart is rendered for')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Values file (repeatable; a comma-separated list is read as one CSV record, as Helm does; - reads stdin)')
            [CompletionResult]::new('--values', '--values', [CompletionResultType]::ParameterName, 'Values file (repeatable; a comma-separated list is read as one CSV record, as Helm does; - reads stdin)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a value (KEY=VALUE; repeatable)')
            [CompletionResult]::new('--set-string', '--set-string', [CompletionResultType]::ParameterName, 'Set a STRING value (repeatable)')
            [CompletionResult]::new('--set-json', '--set-json', [CompletionResultType]::ParameterName, 'Set a JSON value (KEY=JSON, or a whole JSON object; repeatable)')
            [CompletionResult]::new('--set-file', '--set-file', [CompletionResultType]::ParameterName, 'Set a value from a file''s contents (KEY=PATH; repeatable)')
            [CompletionResult]::new('--set-literal', '--set-literal', [CompletionResultType]::ParameterName, 'Set a literal STRING value (no parsing of the value; repeatable)')
            [CompletionResult]::new('--kube-version', '--kube-version', [CompletionResultType]::ParameterName, 'Kubernetes version for .Capabilities.KubeVersion (default v1.36.0, as Helm 4.2.3)')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Kubernetes API versions for .Capabilities.APIVersions, added to Helm''s defaults (repeatable, comma-separated)')
            [CompletionResult]::new('--api-versions', '--api-versions', [CompletionResultType]::ParameterName, 'Kubernetes API versions for .Capabilities.APIVersions, added to Helm''s defaults (repeatable, comma-separated)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'client (the default): no cluster; server: as helm template --dry-run=server, the cluster''s capabilities, lookup reads the cluster, and an install checks that its objects do not exist already (GET only; no OpenAPI validation)')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'A version constraint for the chart (e.g. 1.2.3 or ^1.2); default: the latest')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Chart repository URL where to find CHART')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Chart repository username')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Chart repository password (see also --password-stdin)')
            [CompletionResult]::new('--ca-file', '--ca-file', [CompletionResultType]::ParameterName, 'Verify certificates of HTTPS chart servers with this CA bundle')
            [CompletionResult]::new('--cert-file', '--cert-file', [CompletionResultType]::ParameterName, 'Client certificate for the chart server')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'Client key for the chart server')
            [CompletionResult]::new('--keyring', '--keyring', [CompletionResultType]::ParameterName, 'Public keys for --verify (Helm''s default: ~/.gnupg/pubring.gpg)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl''s flag: 30s, 2m, a plain number is seconds, 0 means no limit)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'Show values in Secrets'' data, under keys that look secret, and in --set flags of such keys (masked by default)')
            [CompletionResult]::new('--is-upgrade', '--is-upgrade', [CompletionResultType]::ParameterName, 'Render as an upgrade: .Release.IsUpgrade true, .Release.IsInstall false')
            [CompletionResult]::new('--skip-schema-validation', '--skip-schema-validation', [CompletionResultType]::ParameterName, 'Skip values.schema.json validation')
            [CompletionResult]::new('--lookup', '--lookup', [CompletionResultType]::ParameterName, 'Let the templates'' lookup read the cluster (--kubeconfig, --context; GET and LIST only), as helm upgrade renders; without it every lookup is empty, as in helm template')
            [CompletionResult]::new('--devel', '--devel', [CompletionResultType]::ParameterName, 'Use development versions too (as version ''>0.0.0-0''); ignored with --version')
            [CompletionResult]::new('--password-stdin', '--password-stdin', [CompletionResultType]::ParameterName, 'Read the chart repository password from stdin')
            [CompletionResult]::new('--pass-credentials', '--pass-credentials', [CompletionResultType]::ParameterName, 'Pass credentials to all domains')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Skip TLS certificate checks for the chart download')
            [CompletionResult]::new('--plain-http', '--plain-http', [CompletionResultType]::ParameterName, 'Use plain HTTP for the chart download')
            [CompletionResult]::new('--verify', '--verify', [CompletionResultType]::ParameterName, 'Verify the chart''s provenance before using it')
            [CompletionResult]::new('--dependency-update', '--dependency-update', [CompletionResultType]::ParameterName, 'Fetch missing dependencies first (into a temporary copy, never into your chart directory)')
            [CompletionResult]::new('--timings', '--timings', [CompletionResultType]::ParameterName, 'Print each phase''s wall time to stderr when done (also RELEASEX_TIMINGS=1)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-releasex;template' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Values file (repeatable; a comma-separated list is read as one CSV record, as Helm does; - reads stdin)')
            [CompletionResult]::new('--values', '--values', [CompletionResultType]::ParameterName, 'Values file (repeatable; a comma-separated list is read as one CSV record, as Helm does; - reads stdin)')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a value (KEY=VALUE; repeatable)')
            [CompletionResult]::new('--set-string', '--set-string', [CompletionResultType]::ParameterName, 'Set a STRING value (repeatable)')
            [CompletionResult]::new('--set-json', '--set-json', [CompletionResultType]::ParameterName, 'Set a JSON value (KEY=JSON, or a whole JSON object; repeatable)')
            [CompletionResult]::new('--set-file', '--set-file', [CompletionResultType]::ParameterName, 'Set a value from a file''s contents (KEY=PATH; repeatable)')
            [CompletionResult]::new('--set-literal', '--set-literal', [CompletionResultType]::ParameterName, 'Set a literal STRING value (no parsing of the value; repeatable)')
            [CompletionResult]::new('--kube-version', '--kube-version', [CompletionResultType]::ParameterName, 'Kubernetes version for .Capabilities.KubeVersion (default v1.36.0, as Helm 4.2.3)')
            [CompletionResult]::new('-a', '-a', [CompletionResultType]::ParameterName, 'Kubernetes API versions for .Capabilities.APIVersions, added to Helm''s defaults (repeatable, comma-separated)')
            [CompletionResult]::new('--api-versions', '--api-versions', [CompletionResultType]::ParameterName, 'Kubernetes API versions for .Capabilities.APIVersions, added to Helm''s defaults (repeatable, comma-separated)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'client (the default): no cluster; server: as helm template --dry-run=server, the cluster''s capabilities, lookup reads the cluster, and an install checks that its objects do not exist already (GET only; no OpenAPI validation)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Only the documents of these templates (repeatable; globs as Go''s filepath.Match)')
            [CompletionResult]::new('--show-only', '--show-only', [CompletionResultType]::ParameterName, 'Only the documents of these templates (repeatable; globs as Go''s filepath.Match)')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'A version constraint for the chart (e.g. 1.2.3 or ^1.2); default: the latest')
            [CompletionResult]::new('--repo', '--repo', [CompletionResultType]::ParameterName, 'Chart repository URL where to find CHART')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Chart repository username')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Chart repository password (see also --password-stdin)')
            [CompletionResult]::new('--ca-file', '--ca-file', [CompletionResultType]::ParameterName, 'Verify certificates of HTTPS chart servers with this CA bundle')
            [CompletionResult]::new('--cert-file', '--cert-file', [CompletionResultType]::ParameterName, 'Client certificate for the chart server')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'Client key for the chart server')
            [CompletionResult]::new('--keyring', '--keyring', [CompletionResultType]::ParameterName, 'Public keys for --verify (Helm''s default: ~/.gnupg/pubring.gpg)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl''s flag: 30s, 2m, a plain number is seconds, 0 means no limit)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)')
            [CompletionResult]::new('--is-upgrade', '--is-upgrade', [CompletionResultType]::ParameterName, 'Render as an upgrade: .Release.IsUpgrade true, .Release.IsInstall false')
            [CompletionResult]::new('--skip-schema-validation', '--skip-schema-validation', [CompletionResultType]::ParameterName, 'Skip values.schema.json validation')
            [CompletionResult]::new('--lookup', '--lookup', [CompletionResultType]::ParameterName, 'Let the templates'' lookup read the cluster (--kubeconfig, --context; GET and LIST only), as helm upgrade renders; without it every lookup is empty, as in helm template')
            [CompletionResult]::new('--include-crds', '--include-crds', [CompletionResultType]::ParameterName, 'Print the chart''s CRDs (crds/) first')
            [CompletionResult]::new('--skip-tests', '--skip-tests', [CompletionResultType]::ParameterName, 'Leave out test hooks')
            [CompletionResult]::new('--no-hooks', '--no-hooks', [CompletionResultType]::ParameterName, 'Leave out all hooks')
            [CompletionResult]::new('--devel', '--devel', [CompletionResultType]::ParameterName, 'Use development versions too (as version ''>0.0.0-0''); ignored with --version')
            [CompletionResult]::new('--password-stdin', '--password-stdin', [CompletionResultType]::ParameterName, 'Read the chart repository password from stdin')
            [CompletionResult]::new('--pass-credentials', '--pass-credentials', [CompletionResultType]::ParameterName, 'Pass credentials to all domains')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Skip TLS certificate checks for the chart download')
            [CompletionResult]::new('--plain-http', '--plain-http', [CompletionResultType]::ParameterName, 'Use plain HTTP for the chart download')
            [CompletionResult]::new('--verify', '--verify', [CompletionResultType]::ParameterName, 'Verify the chart''s provenance before using it')
            [CompletionResult]::new('--dependency-update', '--dependency-update', [CompletionResultType]::ParameterName, 'Fetch missing dependencies first (into a temporary copy, never into your chart directory)')
            [CompletionResult]::new('--timings', '--timings', [CompletionResultType]::ParameterName, 'Print each phase''s wall time to stderr when done (also RELEASEX_TIMINGS=1)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-releasex;patch' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Patch type')
            [CompletionResult]::new('--patch-meta', '--patch-meta', [CompletionResultType]::ParameterName, 'Patch metadata from an OpenAPI document instead of the embedded Kubernetes 1.36 table: v2 (`kubectl get --raw /openapi/v2`) or v3 (`kubectl get --raw /openapi/v3/apis/apps/v1`)')
            [CompletionResult]::new('--mask-secrets', '--mask-secrets', [CompletionResultType]::ParameterName, 'Mask a Secret''s data, stringData and last-applied annotation in the patch (`--mask-secrets=false` shows them). Default: on for -o text, json and yaml; off for the raw request body, which stays byte for byte what Helm sends')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl''s flag: 30s, 2m, a plain number is seconds, 0 means no limit)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)')
            [CompletionResult]::new('--patch-meta-from-cluster', '--patch-meta-from-cluster', [CompletionResultType]::ParameterName, 'Patch metadata from the cluster''s OpenAPI (v3, else v2; read-only GETs)')
            [CompletionResult]::new('--take-ownership', '--take-ownership', [CompletionResultType]::ParameterName, 'The patch of `helm install --take-ownership` (client-side apply): unknown kinds get the three-way JSON merge patch with the apiVersion/kind/name preconditions instead of the two-way one')
            [CompletionResult]::new('--timings', '--timings', [CompletionResultType]::ParameterName, 'Print each phase''s wall time to stderr when done (also RELEASEX_TIMINGS=1)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-releasex;completion' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace (default: the context''s namespace, else "default"; $HELM_NAMESPACE under Helm)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl''s flag: 30s, 2m, a plain number is seconds, 0 means no limit)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: text (the default), json or yaml (cli::help words it per command)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)')
            [CompletionResult]::new('--timings', '--timings', [CompletionResultType]::ParameterName, 'Print each phase''s wall time to stderr when done (also RELEASEX_TIMINGS=1)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-releasex;help' {
            [CompletionResult]::new('release', 'release', [CompletionResultType]::ParameterValue, 'Read what Helm stored about a release (Secrets, ConfigMaps, SQL rows, files)')
            [CompletionResult]::new('values', 'values', [CompletionResultType]::ParameterValue, 'Where values come from')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Shorthand for `values explain`')
            [CompletionResult]::new('upgrade-preview', 'upgrade-preview', [CompletionResultType]::ParameterValue, 'What `helm upgrade RELEASE CHART [flags]` would do with the values: the baseline revision, each value mode, what is kept, dropped or new')
            [CompletionResult]::new('rollback-preview', 'rollback-preview', [CompletionResultType]::ParameterValue, 'What `helm rollback RELEASE [REVISION]` would do: the target revision, the stored config it brings back, and per object the request Helm would send')
            [CompletionResult]::new('blame', 'blame', [CompletionResultType]::ParameterValue, 'Which template action and which values keys produced each field of the rendered objects')
            [CompletionResult]::new('template', 'template', [CompletionResultType]::ParameterValue, 'Render a chart as `helm template [NAME] CHART [flags]` prints it, in process (no Helm binary)')
            [CompletionResult]::new('patch', 'patch', [CompletionResultType]::ParameterValue, 'Compute the patch `helm upgrade` sends for one object (original = previous manifest''s object, modified = new manifest''s object, current = live object)')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print a shell completion script (static words, plus release names, revisions, namespaces, contexts, charts and values files asked from the binary at TAB time)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-releasex;help;release' {
            [CompletionResult]::new('decode', 'decode', [CompletionResultType]::ParameterValue, 'Decode one revision of a release record and show a view of it')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'One row per revision of a release, and what its state means for the next upgrade')
            break
        }
        'kubectl-releasex;help;release;decode' {
            break
        }
        'kubectl-releasex;help;release;history' {
            break
        }
        'kubectl-releasex;help;values' {
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'The values a chart''s templates will see, exactly as Helm computes them, with the source of every key')
            break
        }
        'kubectl-releasex;help;values;explain' {
            break
        }
        'kubectl-releasex;help;explain' {
            break
        }
        'kubectl-releasex;help;upgrade-preview' {
            break
        }
        'kubectl-releasex;help;rollback-preview' {
            break
        }
        'kubectl-releasex;help;blame' {
            break
        }
        'kubectl-releasex;help;template' {
            break
        }
        'kubectl-releasex;help;patch' {
            break
        }
        'kubectl-releasex;help;completion' {
            break
        }
        'kubectl-releasex;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

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
