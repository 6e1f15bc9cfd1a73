# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_kubectl_releasex_global_optspecs
    string join \n kubeconfig= context= n/namespace= request-timeout= o/output= color= timings h/help V/version
end

function __fish_kubectl_releasex_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_kubectl_releasex_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_kubectl_releasex_using_subcommand
    set -l cmd (__fish_kubectl_releasex_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -l kubeconfig -d 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -l context -d 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -s n -l namespace -d 'Namespace (default: the context\'s namespace, else "default"; $HELM_NAMESPACE under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -l request-timeout -d 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl\'s flag: 30s, 2m, a plain number is seconds, 0 means no limit)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -s o -l output -d 'Output format: text (the default), json or yaml (cli::help words it per command)' -r -f -a "text\t''
json\t''
yaml\t''
markdown\t'upgrade-preview only: the report for a pull-request comment'"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -l color -d 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -l timings -d 'Print each phase\'s wall time to stderr when done (also RELEASEX_TIMINGS=1)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -s V -l version -d 'Print version'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -f -a "release" -d 'Read what Helm stored about a release (Secrets, ConfigMaps, SQL rows, files)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -f -a "values" -d 'Where values come from'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -f -a "explain" -d 'Shorthand for `values explain`'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -f -a "upgrade-preview" -d 'What `helm upgrade RELEASE CHART [flags]` would do with the values: the baseline revision, each value mode, what is kept, dropped or new'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -f -a "rollback-preview" -d 'What `helm rollback RELEASE [REVISION]` would do: the target revision, the stored config it brings back, and per object the request Helm would send'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -f -a "blame" -d 'Which template action and which values keys produced each field of the rendered objects'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -f -a "template" -d 'Render a chart as `helm template [NAME] CHART [flags]` prints it, in process (no Helm binary)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -f -a "patch" -d 'Compute the patch `helm upgrade` sends for one object (original = previous manifest\'s object, modified = new manifest\'s object, current = live object)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -f -a "completion" -d 'Print a shell completion script (static words, plus release names, revisions, namespaces, contexts, charts and values files asked from the binary at TAB time)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and not __fish_seen_subcommand_from decode history help" -l kubeconfig -d 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and not __fish_seen_subcommand_from decode history help" -l context -d 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and not __fish_seen_subcommand_from decode history help" -s n -l namespace -d 'Namespace (default: the context\'s namespace, else "default"; $HELM_NAMESPACE under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and not __fish_seen_subcommand_from decode history help" -l request-timeout -d 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl\'s flag: 30s, 2m, a plain number is seconds, 0 means no limit)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and not __fish_seen_subcommand_from decode history help" -s o -l output -d 'Output format: text (the default), json or yaml (cli::help words it per command)' -r -f -a "text\t''
json\t''
yaml\t''
markdown\t'upgrade-preview only: the report for a pull-request comment'"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and not __fish_seen_subcommand_from decode history help" -l color -d 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and not __fish_seen_subcommand_from decode history help" -l timings -d 'Print each phase\'s wall time to stderr when done (also RELEASEX_TIMINGS=1)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and not __fish_seen_subcommand_from decode history help" -s h -l help -d 'Print help'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and not __fish_seen_subcommand_from decode history help" -f -a "decode" -d 'Decode one revision of a release record and show a view of it'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and not __fish_seen_subcommand_from decode history help" -f -a "history" -d 'One row per revision of a release, and what its state means for the next upgrade'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and not __fish_seen_subcommand_from decode history help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from decode" -l revision -d 'Revision to decode (default: the latest)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from decode" -l show -d 'What to show' -r -f -a "summary\t'Name, revision, status, chart, times, description, apply method, sizes'
values\t'The user-supplied values (like `helm get values`)'
all-values\t'Chart defaults coalesced with the user values (like `helm get values --all`)'
manifest\t'The rendered manifest (Secret data masked)'
hooks\t'Hooks with events, weight and delete policies (Secret data masked)'
notes\t'The chart\'s NOTES.txt as rendered'
chart\t'Chart metadata, dependencies, templates and files'
record\t'The whole decoded record'
size\t'Where the record\'s bytes go, against the 1 MiB object limit'"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from decode" -l template -d 'With --show chart: print this template (or file) of the stored chart, decoded' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from decode" -s f -l file -d 'Read records from FILE instead of the cluster: a Secret or ConfigMap as `kubectl get -o yaml|json` prints it, a List, a directory of such files, or a bare payload; `-` reads stdin. Repeatable' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from decode" -l driver -d 'Helm storage driver: secret (default), configmap or sql' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from decode" -l sql-connection -d 'PostgreSQL connection string for --driver sql (as Helm\'s HELM_DRIVER_SQL_CONNECTION_STRING)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from decode" -l kubeconfig -d 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from decode" -l context -d 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from decode" -s n -l namespace -d 'Namespace (default: the context\'s namespace, else "default"; $HELM_NAMESPACE under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from decode" -l request-timeout -d 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl\'s flag: 30s, 2m, a plain number is seconds, 0 means no limit)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from decode" -s o -l output -d 'Output format: text (the default), json or yaml (cli::help words it per command)' -r -f -a "text\t''
json\t''
yaml\t''
markdown\t'upgrade-preview only: the report for a pull-request comment'"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from decode" -l color -d 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from decode" -l show-secrets -d 'Show Secret data in manifests and hooks instead of masking it'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from decode" -l timings -d 'Print each phase\'s wall time to stderr when done (also RELEASEX_TIMINGS=1)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from decode" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from history" -l max -d 'Show at most this many of the latest revisions (like `helm history --max`)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from history" -s f -l file -d 'Read records from FILE instead of the cluster: a Secret or ConfigMap as `kubectl get -o yaml|json` prints it, a List, a directory of such files, or a bare payload; `-` reads stdin. Repeatable' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from history" -l driver -d 'Helm storage driver: secret (default), configmap or sql' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from history" -l sql-connection -d 'PostgreSQL connection string for --driver sql (as Helm\'s HELM_DRIVER_SQL_CONNECTION_STRING)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from history" -l kubeconfig -d 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from history" -l context -d 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from history" -s n -l namespace -d 'Namespace (default: the context\'s namespace, else "default"; $HELM_NAMESPACE under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from history" -l request-timeout -d 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl\'s flag: 30s, 2m, a plain number is seconds, 0 means no limit)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from history" -s o -l output -d 'Output format: text (the default), json or yaml (cli::help words it per command)' -r -f -a "text\t''
json\t''
yaml\t''
markdown\t'upgrade-preview only: the report for a pull-request comment'"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from history" -l color -d 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from history" -l timings -d 'Print each phase\'s wall time to stderr when done (also RELEASEX_TIMINGS=1)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from history" -s h -l help -d 'Print help'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from help" -f -a "decode" -d 'Decode one revision of a release record and show a view of it'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from help" -f -a "history" -d 'One row per revision of a release, and what its state means for the next upgrade'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand release; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and not __fish_seen_subcommand_from explain help" -l kubeconfig -d 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and not __fish_seen_subcommand_from explain help" -l context -d 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and not __fish_seen_subcommand_from explain help" -s n -l namespace -d 'Namespace (default: the context\'s namespace, else "default"; $HELM_NAMESPACE under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and not __fish_seen_subcommand_from explain help" -l request-timeout -d 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl\'s flag: 30s, 2m, a plain number is seconds, 0 means no limit)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and not __fish_seen_subcommand_from explain help" -s o -l output -d 'Output format: text (the default), json or yaml (cli::help words it per command)' -r -f -a "text\t''
json\t''
yaml\t''
markdown\t'upgrade-preview only: the report for a pull-request comment'"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and not __fish_seen_subcommand_from explain help" -l color -d 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and not __fish_seen_subcommand_from explain help" -l timings -d 'Print each phase\'s wall time to stderr when done (also RELEASEX_TIMINGS=1)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and not __fish_seen_subcommand_from explain help" -s h -l help -d 'Print help'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and not __fish_seen_subcommand_from explain help" -f -a "explain" -d 'The values a chart\'s templates will see, exactly as Helm computes them, with the source of every key'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and not __fish_seen_subcommand_from explain help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -s f -l values -d 'Values file (repeatable; a comma-separated list is read as one CSV record, as Helm does; - reads stdin)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l set -d 'Set a value (KEY=VALUE; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l set-string -d 'Set a STRING value (repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l set-json -d 'Set a JSON value (KEY=JSON, or a whole JSON object; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l set-file -d 'Set a value from a file\'s contents (KEY=PATH; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l set-literal -d 'Set a literal STRING value (no parsing of the value; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l key -d 'Show only this key and what is below it, with its full history (repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l release -d 'Explain a deployed release\'s values instead (what `helm get values --all` shows), read from the cluster; with --helmfile: the helmfile release to explain' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l revision -d 'With --release: the revision (default: the latest)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l release-file -d 'With --release: read the release records from FILE (as `release decode -f`)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l driver -d 'With --release: Helm storage driver (secret, configmap or sql)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l sql-connection -d 'With --release --driver sql: PostgreSQL connection string' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l version -d 'A version constraint for the chart (e.g. 1.2.3 or ^1.2); default: the latest' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l repo -d 'Chart repository URL where to find CHART' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l username -d 'Chart repository username' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l password -d 'Chart repository password (see also --password-stdin)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l ca-file -d 'Verify certificates of HTTPS chart servers with this CA bundle' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l cert-file -d 'Client certificate for the chart server' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l key-file -d 'Client key for the chart server' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l keyring -d 'Public keys for --verify (Helm\'s default: ~/.gnupg/pubring.gpg)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l helmfile -d 'Explain a helmfile\'s state values (or, with --release, one release\'s values through helmfile and Helm)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -s e -l environment -d 'With --helmfile: the environment' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l state-values-set -d 'With --helmfile: as helmfile --state-values-set (KEY=VALUE,...; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l state-values-set-string -d 'With --helmfile: as helmfile --state-values-set-string (repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l state-values-file -d 'With --helmfile: as helmfile --state-values-file (repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l kube-context -d 'With --helmfile: as helmfile --kube-context (what templates read as .KubeContext)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l env -d 'With --werf: the werf environment (default $WERF_ENV)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l secret-values -d 'With --werf: a secret values file (repeatable; later files win)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l werf-images -d 'With --werf: werf\'s image values (werf.image.*, werf.tag.*, werf.repo, global.werf.images.*) from a build report (werf build --save-build-report, JSON)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l kubeconfig -d 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l context -d 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -s n -l namespace -d 'Namespace (default: the context\'s namespace, else "default"; $HELM_NAMESPACE under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l request-timeout -d 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl\'s flag: 30s, 2m, a plain number is seconds, 0 means no limit)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -s o -l output -d 'Output format: text (the default), json or yaml (cli::help words it per command)' -r -f -a "text\t''
json\t''
yaml\t''
markdown\t'upgrade-preview only: the report for a pull-request comment'"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l color -d 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l show-overridden -d 'Also show what each key overrode'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l user -d 'Only the keys you set (values files, --set flags, the release config, helmfile and werf layers), with what they overrode'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l skip-schema-validation -d 'Skip values.schema.json validation, as Helm\'s --skip-schema-validation'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l show-secrets -d 'With --helmfile or --werf: print secret values instead of <secret>'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l devel -d 'Use development versions too (as version \'>0.0.0-0\'); ignored with --version'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l password-stdin -d 'Read the chart repository password from stdin'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l pass-credentials -d 'Pass credentials to all domains'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l insecure-skip-tls-verify -d 'Skip TLS certificate checks for the chart download'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l plain-http -d 'Use plain HTTP for the chart download'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l verify -d 'Verify the chart\'s provenance before using it'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l dependency-update -d 'Fetch missing dependencies first (into a temporary copy, never into your chart directory)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l skip-secrets -d 'With --helmfile: explain without sops-encrypted secrets files (reported as skipped)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l skip-templated -d 'With --helmfile: explain without .gotmpl files that hold template actions (reported as skipped)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l allow-exec -d 'With --helmfile: let templates run commands (exec, envExec), as helmfile does; without it they stop naming the command'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l werf -d 'Explain as werf computes values: CHART is the project root (default .), the chart is .helm/ or werf.yaml\'s deploy.helmChartDir; reads $WERF_VALUES_*, $WERF_SECRET_VALUES_*, $WERF_SET*_* (sorted by name)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l no-default-values -d 'With --werf: ignore the chart\'s values.yaml'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l no-default-secret-values -d 'With --werf: ignore the chart\'s secret-values.yaml'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l ignore-secret-key -d 'With --werf: do not decrypt; explain with the encrypted strings (as werf --ignore-secret-key)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -l timings -d 'Print each phase\'s wall time to stderr when done (also RELEASEX_TIMINGS=1)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from explain" -s h -l help -d 'Print help'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from help" -f -a "explain" -d 'The values a chart\'s templates will see, exactly as Helm computes them, with the source of every key'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand values; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -s f -l values -d 'Values file (repeatable; a comma-separated list is read as one CSV record, as Helm does; - reads stdin)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l set -d 'Set a value (KEY=VALUE; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l set-string -d 'Set a STRING value (repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l set-json -d 'Set a JSON value (KEY=JSON, or a whole JSON object; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l set-file -d 'Set a value from a file\'s contents (KEY=PATH; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l set-literal -d 'Set a literal STRING value (no parsing of the value; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l key -d 'Show only this key and what is below it, with its full history (repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l release -d 'Explain a deployed release\'s values instead (what `helm get values --all` shows), read from the cluster; with --helmfile: the helmfile release to explain' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l revision -d 'With --release: the revision (default: the latest)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l release-file -d 'With --release: read the release records from FILE (as `release decode -f`)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l driver -d 'With --release: Helm storage driver (secret, configmap or sql)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l sql-connection -d 'With --release --driver sql: PostgreSQL connection string' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l version -d 'A version constraint for the chart (e.g. 1.2.3 or ^1.2); default: the latest' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l repo -d 'Chart repository URL where to find CHART' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l username -d 'Chart repository username' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l password -d 'Chart repository password (see also --password-stdin)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l ca-file -d 'Verify certificates of HTTPS chart servers with this CA bundle' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l cert-file -d 'Client certificate for the chart server' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l key-file -d 'Client key for the chart server' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l keyring -d 'Public keys for --verify (Helm\'s default: ~/.gnupg/pubring.gpg)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l helmfile -d 'Explain a helmfile\'s state values (or, with --release, one release\'s values through helmfile and Helm)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -s e -l environment -d 'With --helmfile: the environment' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l state-values-set -d 'With --helmfile: as helmfile --state-values-set (KEY=VALUE,...; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l state-values-set-string -d 'With --helmfile: as helmfile --state-values-set-string (repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l state-values-file -d 'With --helmfile: as helmfile --state-values-file (repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l kube-context -d 'With --helmfile: as helmfile --kube-context (what templates read as .KubeContext)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l env -d 'With --werf: the werf environment (default $WERF_ENV)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l secret-values -d 'With --werf: a secret values file (repeatable; later files win)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l werf-images -d 'With --werf: werf\'s image values (werf.image.*, werf.tag.*, werf.repo, global.werf.images.*) from a build report (werf build --save-build-report, JSON)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l kubeconfig -d 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l context -d 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -s n -l namespace -d 'Namespace (default: the context\'s namespace, else "default"; $HELM_NAMESPACE under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l request-timeout -d 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl\'s flag: 30s, 2m, a plain number is seconds, 0 means no limit)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -s o -l output -d 'Output format: text (the default), json or yaml (cli::help words it per command)' -r -f -a "text\t''
json\t''
yaml\t''
markdown\t'upgrade-preview only: the report for a pull-request comment'"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l color -d 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l show-overridden -d 'Also show what each key overrode'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l user -d 'Only the keys you set (values files, --set flags, the release config, helmfile and werf layers), with what they overrode'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l skip-schema-validation -d 'Skip values.schema.json validation, as Helm\'s --skip-schema-validation'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l show-secrets -d 'With --helmfile or --werf: print secret values instead of <secret>'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l devel -d 'Use development versions too (as version \'>0.0.0-0\'); ignored with --version'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l password-stdin -d 'Read the chart repository password from stdin'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l pass-credentials -d 'Pass credentials to all domains'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l insecure-skip-tls-verify -d 'Skip TLS certificate checks for the chart download'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l plain-http -d 'Use plain HTTP for the chart download'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l verify -d 'Verify the chart\'s provenance before using it'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l dependency-update -d 'Fetch missing dependencies first (into a temporary copy, never into your chart directory)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l skip-secrets -d 'With --helmfile: explain without sops-encrypted secrets files (reported as skipped)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l skip-templated -d 'With --helmfile: explain without .gotmpl files that hold template actions (reported as skipped)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l allow-exec -d 'With --helmfile: let templates run commands (exec, envExec), as helmfile does; without it they stop naming the command'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l werf -d 'Explain as werf computes values: CHART is the project root (default .), the chart is .helm/ or werf.yaml\'s deploy.helmChartDir; reads $WERF_VALUES_*, $WERF_SECRET_VALUES_*, $WERF_SET*_* (sorted by name)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l no-default-values -d 'With --werf: ignore the chart\'s values.yaml'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l no-default-secret-values -d 'With --werf: ignore the chart\'s secret-values.yaml'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l ignore-secret-key -d 'With --werf: do not decrypt; explain with the encrypted strings (as werf --ignore-secret-key)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -l timings -d 'Print each phase\'s wall time to stderr when done (also RELEASEX_TIMINGS=1)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand explain" -s h -l help -d 'Print help'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -s f -l values -d 'Values file (repeatable; a comma-separated list is read as one CSV record, as Helm does; - reads stdin)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l set -d 'Set a value (KEY=VALUE; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l set-string -d 'Set a STRING value (repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l set-json -d 'Set a JSON value (KEY=JSON, or a whole JSON object; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l set-file -d 'Set a value from a file\'s contents (KEY=PATH; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l set-literal -d 'Set a literal STRING value (no parsing of the value; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l release-file -d 'Read the release\'s records from FILE instead of the cluster (as `release decode -f`; repeatable)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l driver -d 'Helm storage driver (secret, configmap or sql)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l sql-connection -d 'With --driver sql: PostgreSQL connection string' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l key -d 'Show only these keys (and what is below them) in the values, config and changes (repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l manifest -d 'Use this rendered manifest instead of running Helm (`-` reads stdin), e.g. the output of `helm template`' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l server-side -d 'As helm upgrade --server-side: auto follows the last revision\'s apply method' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l ignore -d 'Leave this field out of patches, drift and the exit code: PATH or Kind:PATH (repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -s C -l diff-context -d 'Lines of context around each change in the object diffs (helm diff\'s -C; --context is the kubeconfig context here)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l suppress -d 'Leave objects of this kind out of the listing (they still count in the plan; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l concurrency -d 'How many live objects to read at once' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l version -d 'A version constraint for the chart (e.g. 1.2.3 or ^1.2); default: the latest' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l repo -d 'Chart repository URL where to find CHART' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l username -d 'Chart repository username' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l password -d 'Chart repository password (see also --password-stdin)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l ca-file -d 'Verify certificates of HTTPS chart servers with this CA bundle' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l cert-file -d 'Client certificate for the chart server' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l key-file -d 'Client key for the chart server' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l keyring -d 'Public keys for --verify (Helm\'s default: ~/.gnupg/pubring.gpg)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l post-renderer -d 'Post-render the manifest (Helm 4: a postrenderer plugin\'s name; Helm 3: an executable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l post-renderer-args -d 'An argument to the post-renderer (repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l kube-version -d 'Render with this .Capabilities.KubeVersion instead of the cluster\'s' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -s a -l api-versions -d 'Add to .Capabilities.APIVersions (GROUP/VERSION or GROUP/VERSION/KIND; repeatable, comma-separated)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l history-max -d 'Maximum revisions Helm keeps (0: no limit); the preview lists the records Helm deletes after this upgrade' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l description -d 'The new record\'s description (Helm\'s default: "Upgrade complete")' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -s l -l labels -d 'Labels merged over the last record\'s (KEY=VALUE,...; VALUE null removes a label; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l wait -d 'Wait for resources to be ready (Helm 4: watcher, hookOnly or legacy)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l timeout -d 'How long Helm waits for each Kubernetes operation' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l dry-run -d 'Helm\'s own simulation (none, client or server); a preview never changes anything anyway' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l kubeconfig -d 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l context -d 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -s n -l namespace -d 'Namespace (default: the context\'s namespace, else "default"; $HELM_NAMESPACE under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l request-timeout -d 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl\'s flag: 30s, 2m, a plain number is seconds, 0 means no limit)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -s o -l output -d 'Output format: text (the default), json or yaml (cli::help words it per command)' -r -f -a "text\t''
json\t''
yaml\t''
markdown\t'upgrade-preview only: the report for a pull-request comment'"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l color -d 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l reuse-values -d 'As helm upgrade --reuse-values (ignored if --reset-values is given, as in Helm)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l reset-values -d 'As helm upgrade --reset-values'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l reset-then-reuse-values -d 'As helm upgrade --reset-then-reuse-values (ignored if either of the others is given, as in Helm)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l compare-modes -d 'Compute the four value modes side by side and recommend one'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l values-only -d 'Stop after the values (no rendering, no cluster objects)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l skip-schema-validation -d 'Skip values.schema.json validation, as Helm\'s --skip-schema-validation'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l take-ownership -d 'As helm upgrade --take-ownership: adopt existing objects without checking their owner'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -s i -l install -l allow-unreleased -d 'As helm upgrade --install: preview an install when the release has no records or its last one is uninstalled'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l create-namespace -d 'With --install: Helm creates the namespace when it does not exist (shown in the plan)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l no-hooks -d 'As helm upgrade --no-hooks: Helm stores the hooks in the new record but runs none of them'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l force-conflicts -d 'As helm upgrade --force-conflicts (server-side apply)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l force-replace -d 'As helm upgrade --force-replace: Helm replaces each existing object (PUT) instead of patching it (client-side apply only)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l force -d 'Deprecated spelling of --force-replace (Helm 3\'s --force)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l show-secrets -d 'Show Secret values, decoded from base64 in the diffs, and values under keys that look secret (masked by default)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l show-patch -d 'Also show the exact request body Helm sends for each object (patch, apply body or PUT; always in -o json)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l show-unchanged -d 'Also list the objects left unchanged'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l suppress-secrets -d 'Show Secrets by name only'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l diff -d 'Diffs are shown by default; kept so that older command lines still work'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l show-values -d 'Show every value the templates will see, the config Helm stores, and every new chart default'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l detailed-exitcode -d 'Exit 2 when the upgrade changes an object (with --values-only: a value), 0 when nothing changes; 3 when Helm would fail either way'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l lookup -d 'Let the templates\' lookup read the cluster while rendering, as helm upgrade does (GET and LIST only)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l render-with-helm -d 'Render with `helm template` ($HELM_BIN or helm on PATH) instead of releasex\'s own engine (also used for --post-renderer and --enable-dns; with --lookup, Helm renders with --dry-run=server)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l why -d 'Under each changed line of a diff, the values key (and where its value came from) or the template line that printed it (releasex\'s own renderer only)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l offline -d 'Contact no API server: the records come from --release-file (or --driver sql), each new object is compared with the baseline\'s stored manifest (as helm-diff does), and drift is unknown'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l devel -d 'Use development versions too (as version \'>0.0.0-0\'); ignored with --version'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l password-stdin -d 'Read the chart repository password from stdin'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l pass-credentials -d 'Pass credentials to all domains'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l insecure-skip-tls-verify -d 'Skip TLS certificate checks for the chart download'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l plain-http -d 'Use plain HTTP for the chart download'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l verify -d 'Verify the chart\'s provenance before using it'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l dependency-update -d 'Fetch missing dependencies first (into a temporary copy, never into your chart directory)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l enable-dns -d 'Let templates resolve DNS names (getHostByName)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l wait-for-jobs -d 'With --wait: also wait for Jobs to complete'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l cleanup-on-fail -d 'Delete new resources when the command fails'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l rollback-on-failure -l atomic -d 'Roll back on failure (Helm 3\'s --atomic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l hide-notes -d 'Do not print the chart\'s notes'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l hide-secret -d 'Hide Secrets in Helm\'s --dry-run output (the preview masks them unless --show-secrets)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l render-subchart-notes -d 'Render subcharts\' NOTES.txt too (only the notes Helm prints and stores change)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l skip-crds -d 'Without --install Helm never installs CRDs, so this changes nothing in an upgrade'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l disable-openapi-validation -d 'Skip Helm\'s OpenAPI validation of the rendered objects (the preview does not run that validation)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -l timings -d 'Print each phase\'s wall time to stderr when done (also RELEASEX_TIMINGS=1)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand upgrade-preview" -s h -l help -d 'Print help'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l server-side -d 'As helm rollback --server-side: auto follows the target revision\'s apply method' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l history-max -d 'Maximum revisions Helm keeps (0: no limit); the preview lists the records Helm deletes after this rollback' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l release-file -d 'Read the release\'s records from FILE instead of the cluster (as `release decode -f`; repeatable)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l driver -d 'Helm storage driver (secret, configmap or sql)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l sql-connection -d 'With --driver sql: PostgreSQL connection string' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l ignore -d 'Leave this field out of patches, drift and the exit code: PATH or Kind:PATH (repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -s C -l diff-context -d 'Lines of context around each change in the object diffs (helm diff\'s -C; --context is the kubeconfig context here)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l suppress -d 'Leave objects of this kind out of the listing (they still count in the plan; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l concurrency -d 'How many live objects to read at once' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l wait -d 'Wait for resources to be ready (Helm 4: watcher, hookOnly or legacy)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l timeout -d 'How long Helm waits for each Kubernetes operation' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l dry-run -d 'Helm\'s own simulation (none, client or server); a preview never changes anything anyway' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l kubeconfig -d 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l context -d 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -s n -l namespace -d 'Namespace (default: the context\'s namespace, else "default"; $HELM_NAMESPACE under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l request-timeout -d 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl\'s flag: 30s, 2m, a plain number is seconds, 0 means no limit)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -s o -l output -d 'Output format: text (the default), json or yaml (cli::help words it per command)' -r -f -a "text\t''
json\t''
yaml\t''
markdown\t'upgrade-preview only: the report for a pull-request comment'"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l color -d 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l force-replace -d 'As helm rollback --force-replace: Helm replaces each existing object (PUT) instead of patching it (client-side apply only)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l force -d 'Deprecated spelling of --force-replace (Helm 3\'s --force)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l force-conflicts -d 'As helm rollback --force-conflicts (server-side apply)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l no-hooks -d 'As helm rollback --no-hooks: the target\'s pre-/post-rollback hooks do not run'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l offline -d 'Contact no API server: the records come from --release-file (or --driver sql), each object of the target is compared with the current revision\'s stored manifest, and drift is unknown'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l show-secrets -d 'Show Secret values, decoded from base64 in the diffs, and values under keys that look secret (masked by default)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l show-patch -d 'Also show the exact request body Helm sends for each object (patch, apply body or PUT; always in -o json)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l show-unchanged -d 'Also list the objects left unchanged'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l suppress-secrets -d 'Show Secrets by name only'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l detailed-exitcode -d 'Exit 2 when the rollback changes an object, 0 when nothing changes; 3 when Helm would fail either way'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l wait-for-jobs -d 'With --wait: also wait for Jobs to complete'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l cleanup-on-fail -d 'Delete new resources when the command fails'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -l timings -d 'Print each phase\'s wall time to stderr when done (also RELEASEX_TIMINGS=1)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand rollback-preview" -s h -l help -d 'Print help'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l release-name -d 'The release name the chart is rendered for' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -s f -l values -d 'Values file (repeatable; a comma-separated list is read as one CSV record, as Helm does; - reads stdin)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l set -d 'Set a value (KEY=VALUE; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l set-string -d 'Set a STRING value (repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l set-json -d 'Set a JSON value (KEY=JSON, or a whole JSON object; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l set-file -d 'Set a value from a file\'s contents (KEY=PATH; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l set-literal -d 'Set a literal STRING value (no parsing of the value; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l kube-version -d 'Kubernetes version for .Capabilities.KubeVersion (default v1.36.0, as Helm 4.2.3)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -s a -l api-versions -d 'Kubernetes API versions for .Capabilities.APIVersions, added to Helm\'s defaults (repeatable, comma-separated)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l dry-run -d 'client (the default): no cluster; server: as helm template --dry-run=server, the cluster\'s capabilities, lookup reads the cluster, and an install checks that its objects do not exist already (GET only; no OpenAPI validation)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l version -d 'A version constraint for the chart (e.g. 1.2.3 or ^1.2); default: the latest' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l repo -d 'Chart repository URL where to find CHART' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l username -d 'Chart repository username' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l password -d 'Chart repository password (see also --password-stdin)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l ca-file -d 'Verify certificates of HTTPS chart servers with this CA bundle' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l cert-file -d 'Client certificate for the chart server' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l key-file -d 'Client key for the chart server' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l keyring -d 'Public keys for --verify (Helm\'s default: ~/.gnupg/pubring.gpg)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l kubeconfig -d 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l context -d 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -s n -l namespace -d 'Namespace (default: the context\'s namespace, else "default"; $HELM_NAMESPACE under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l request-timeout -d 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl\'s flag: 30s, 2m, a plain number is seconds, 0 means no limit)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -s o -l output -d 'Output format: text (the default), json or yaml (cli::help words it per command)' -r -f -a "text\t''
json\t''
yaml\t''
markdown\t'upgrade-preview only: the report for a pull-request comment'"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l color -d 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l show-secrets -d 'Show values in Secrets\' data, under keys that look secret, and in --set flags of such keys (masked by default)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l is-upgrade -d 'Render as an upgrade: .Release.IsUpgrade true, .Release.IsInstall false'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l skip-schema-validation -d 'Skip values.schema.json validation'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l lookup -d 'Let the templates\' lookup read the cluster (--kubeconfig, --context; GET and LIST only), as helm upgrade renders; without it every lookup is empty, as in helm template'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l devel -d 'Use development versions too (as version \'>0.0.0-0\'); ignored with --version'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l password-stdin -d 'Read the chart repository password from stdin'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l pass-credentials -d 'Pass credentials to all domains'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l insecure-skip-tls-verify -d 'Skip TLS certificate checks for the chart download'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l plain-http -d 'Use plain HTTP for the chart download'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l verify -d 'Verify the chart\'s provenance before using it'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l dependency-update -d 'Fetch missing dependencies first (into a temporary copy, never into your chart directory)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -l timings -d 'Print each phase\'s wall time to stderr when done (also RELEASEX_TIMINGS=1)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand blame" -s h -l help -d 'Print help'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -s f -l values -d 'Values file (repeatable; a comma-separated list is read as one CSV record, as Helm does; - reads stdin)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l set -d 'Set a value (KEY=VALUE; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l set-string -d 'Set a STRING value (repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l set-json -d 'Set a JSON value (KEY=JSON, or a whole JSON object; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l set-file -d 'Set a value from a file\'s contents (KEY=PATH; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l set-literal -d 'Set a literal STRING value (no parsing of the value; repeatable)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l kube-version -d 'Kubernetes version for .Capabilities.KubeVersion (default v1.36.0, as Helm 4.2.3)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -s a -l api-versions -d 'Kubernetes API versions for .Capabilities.APIVersions, added to Helm\'s defaults (repeatable, comma-separated)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l dry-run -d 'client (the default): no cluster; server: as helm template --dry-run=server, the cluster\'s capabilities, lookup reads the cluster, and an install checks that its objects do not exist already (GET only; no OpenAPI validation)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -s s -l show-only -d 'Only the documents of these templates (repeatable; globs as Go\'s filepath.Match)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l version -d 'A version constraint for the chart (e.g. 1.2.3 or ^1.2); default: the latest' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l repo -d 'Chart repository URL where to find CHART' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l username -d 'Chart repository username' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l password -d 'Chart repository password (see also --password-stdin)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l ca-file -d 'Verify certificates of HTTPS chart servers with this CA bundle' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l cert-file -d 'Client certificate for the chart server' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l key-file -d 'Client key for the chart server' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l keyring -d 'Public keys for --verify (Helm\'s default: ~/.gnupg/pubring.gpg)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l kubeconfig -d 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l context -d 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -s n -l namespace -d 'Namespace (default: the context\'s namespace, else "default"; $HELM_NAMESPACE under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l request-timeout -d 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl\'s flag: 30s, 2m, a plain number is seconds, 0 means no limit)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -s o -l output -d 'Output format: text (the default), json or yaml (cli::help words it per command)' -r -f -a "text\t''
json\t''
yaml\t''
markdown\t'upgrade-preview only: the report for a pull-request comment'"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l color -d 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l is-upgrade -d 'Render as an upgrade: .Release.IsUpgrade true, .Release.IsInstall false'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l skip-schema-validation -d 'Skip values.schema.json validation'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l lookup -d 'Let the templates\' lookup read the cluster (--kubeconfig, --context; GET and LIST only), as helm upgrade renders; without it every lookup is empty, as in helm template'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l include-crds -d 'Print the chart\'s CRDs (crds/) first'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l skip-tests -d 'Leave out test hooks'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l no-hooks -d 'Leave out all hooks'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l devel -d 'Use development versions too (as version \'>0.0.0-0\'); ignored with --version'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l password-stdin -d 'Read the chart repository password from stdin'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l pass-credentials -d 'Pass credentials to all domains'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l insecure-skip-tls-verify -d 'Skip TLS certificate checks for the chart download'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l plain-http -d 'Use plain HTTP for the chart download'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l verify -d 'Verify the chart\'s provenance before using it'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l dependency-update -d 'Fetch missing dependencies first (into a temporary copy, never into your chart directory)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -l timings -d 'Print each phase\'s wall time to stderr when done (also RELEASEX_TIMINGS=1)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand template" -s h -l help -d 'Print help'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand patch" -l type -d 'Patch type' -r -f -a "auto\t'Helm\'s choice for the object\'s kind'
strategic\t'Three-way strategic merge patch'
merge\t'JSON merge patch (two-way, as helm upgrade sends it)'"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand patch" -l patch-meta -d 'Patch metadata from an OpenAPI document instead of the embedded Kubernetes 1.36 table: v2 (`kubectl get --raw /openapi/v2`) or v3 (`kubectl get --raw /openapi/v3/apis/apps/v1`)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand patch" -l mask-secrets -d 'Mask a Secret\'s data, stringData and last-applied annotation in the patch (`--mask-secrets=false` shows them). Default: on for -o text, json and yaml; off for the raw request body, which stays byte for byte what Helm sends' -r -f -a "true\t''
false\t''"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand patch" -l kubeconfig -d 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand patch" -l context -d 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand patch" -s n -l namespace -d 'Namespace (default: the context\'s namespace, else "default"; $HELM_NAMESPACE under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand patch" -l request-timeout -d 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl\'s flag: 30s, 2m, a plain number is seconds, 0 means no limit)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand patch" -s o -l output -d 'Output format: text (the default), json or yaml (cli::help words it per command)' -r -f -a "text\t''
json\t''
yaml\t''
markdown\t'upgrade-preview only: the report for a pull-request comment'"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand patch" -l color -d 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand patch" -l patch-meta-from-cluster -d 'Patch metadata from the cluster\'s OpenAPI (v3, else v2; read-only GETs)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand patch" -l take-ownership -d 'The patch of `helm install --take-ownership` (client-side apply): unknown kinds get the three-way JSON merge patch with the apiVersion/kind/name preconditions instead of the two-way one'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand patch" -l timings -d 'Print each phase\'s wall time to stderr when done (also RELEASEX_TIMINGS=1)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand patch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand completion" -l kubeconfig -d 'Path to the kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)' -r -F
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand completion" -l context -d 'Kubeconfig context to use (default: the current context; $HELM_KUBECONTEXT under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand completion" -s n -l namespace -d 'Namespace (default: the context\'s namespace, else "default"; $HELM_NAMESPACE under Helm)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand completion" -l request-timeout -d 'The longest one request to the API server may take, from sending it to the last byte of the answer (kubectl\'s flag: 30s, 2m, a plain number is seconds, 0 means no limit)' -r -f -a '(__kubectl_releasex_dynamic)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand completion" -s o -l output -d 'Output format: text (the default), json or yaml (cli::help words it per command)' -r -f -a "text\t''
json\t''
yaml\t''
markdown\t'upgrade-preview only: the report for a pull-request comment'"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand completion" -l color -d 'When to use colors (auto honours NO_COLOR, CLICOLOR, CLICOLOR_FORCE, HELM_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand completion" -l timings -d 'Print each phase\'s wall time to stderr when done (also RELEASEX_TIMINGS=1)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand completion" -s h -l help -d 'Print help'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand help; and not __fish_seen_subcommand_from release values explain upgrade-preview rollback-preview blame template patch completion help" -f -a "release" -d 'Read what Helm stored about a release (Secrets, ConfigMaps, SQL rows, files)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand help; and not __fish_seen_subcommand_from release values explain upgrade-preview rollback-preview blame template patch completion help" -f -a "values" -d 'Where values come from'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand help; and not __fish_seen_subcommand_from release values explain upgrade-preview rollback-preview blame template patch completion help" -f -a "explain" -d 'Shorthand for `values explain`'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand help; and not __fish_seen_subcommand_from release values explain upgrade-preview rollback-preview blame template patch completion help" -f -a "upgrade-preview" -d 'What `helm upgrade RELEASE CHART [flags]` would do with the values: the baseline revision, each value mode, what is kept, dropped or new'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand help; and not __fish_seen_subcommand_from release values explain upgrade-preview rollback-preview blame template patch completion help" -f -a "rollback-preview" -d 'What `helm rollback RELEASE [REVISION]` would do: the target revision, the stored config it brings back, and per object the request Helm would send'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand help; and not __fish_seen_subcommand_from release values explain upgrade-preview rollback-preview blame template patch completion help" -f -a "blame" -d 'Which template action and which values keys produced each field of the rendered objects'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand help; and not __fish_seen_subcommand_from release values explain upgrade-preview rollback-preview blame template patch completion help" -f -a "template" -d 'Render a chart as `helm template [NAME] CHART [flags]` prints it, in process (no Helm binary)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand help; and not __fish_seen_subcommand_from release values explain upgrade-preview rollback-preview blame template patch completion help" -f -a "patch" -d 'Compute the patch `helm upgrade` sends for one object (original = previous manifest\'s object, modified = new manifest\'s object, current = live object)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand help; and not __fish_seen_subcommand_from release values explain upgrade-preview rollback-preview blame template patch completion help" -f -a "completion" -d 'Print a shell completion script (static words, plus release names, revisions, namespaces, contexts, charts and values files asked from the binary at TAB time)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand help; and not __fish_seen_subcommand_from release values explain upgrade-preview rollback-preview blame template patch completion help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand help; and __fish_seen_subcommand_from release" -f -a "decode" -d 'Decode one revision of a release record and show a view of it'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand help; and __fish_seen_subcommand_from release" -f -a "history" -d 'One row per revision of a release, and what its state means for the next upgrade'
complete -c kubectl-releasex -n "__fish_kubectl_releasex_using_subcommand help; and __fish_seen_subcommand_from values" -f -a "explain" -d 'The values a chart\'s templates will see, exactly as Helm computes them, with the source of every key'

# Dynamic words (release names, revisions, namespaces, contexts, charts) from
# the binary itself (fish reads `value<TAB>help` natively).
function __kubectl_releasex_dynamic
    set -l words (commandline -opc) (commandline -ct)
    set -e words[1]
    kubectl-releasex __complete $words 2>/dev/null | string match -rv '^:[0-9]+$'
end
complete -c kubectl-releasex -f -a '(__kubectl_releasex_dynamic)'
