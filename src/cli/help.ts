/** The `--help` texts: one overview and one per subcommand (printed on stdout, exit 0). */

export const OVERVIEW = `katalog: validate, inspect and run Katalog definitions

usage: katalog <command> [options] [file]

commands:
  validate <file>...   check definitions; every problem as file:line:column (exit 1 on any)
  graph <file>         the dependency (start) order of the CRDs; --dot for Graphviz
  rbac <file>          least-privilege ServiceAccount, ClusterRole and bindings as YAML
  run <file>           run the operator on the current kubeconfig (or --embedded) and serve the inspection API

Without a file, ./katalog.yaml (else ./komposer.yaml) is used; -f/--katalog <file> also names one.
'katalog <command> --help' describes a command. Exit codes: 0 ok, 1 definition problems, 2 usage,
3 could not run (API server, code module, port...), 130 forced exit. See docs/cli.md.
`;

export const HELP: Readonly<Record<string, string>> = Object.freeze({
  validate: `usage: katalog validate [--json] <file>...

Loads each Katalog or Komposer as the runtime would (schema, unknown fields, durations, dependencies and cycles,
templates, imports, Motifs) and prints every problem on stdout as file:line:column: path: message.
A summary goes to stderr. Exit 1 when any file has a problem, else 0.

  --json            one JSON document on stdout: {"valid", "files": [{"file", "valid", "crds", "problems"}]}
  -f, --katalog F   a file to check (repeatable; same as a positional argument)
`,
  graph: `usage: katalog graph [--dot] <file>

Prints the order in which the runtime starts the CRDs (dependencies first, ties in declaration order; stopping
goes in reverse), with what each waits for. Disabled CRDs are listed last.

  --dot             a Graphviz digraph instead (edges point from a CRD to what it depends on):
                    katalog graph --dot katalog.yaml | dot -Tsvg > graph.svg
  -f, --katalog F   the file (same as the positional argument)
`,
  rbac: `usage: katalog rbac [options] <file>

Prints the ServiceAccount, ClusterRole and ClusterRoleBinding the runtime needs for this definition: its CRDs
(with status and finalizers subresources), every child kind its templates can create, CustomResourceDefinition
watches, Events; with --leader-elect a Role and RoleBinding for its Lease. Notes on what the rules cannot cover
(hooks and constructors, templated kinds) go to stderr.

  -n, --namespace NS        namespace of the ServiceAccount (default katalog-system)
  --name NAME               name of the ClusterRole and binding (default: the definition's metadata.name)
  --service-account NAME    name of the ServiceAccount (default: --name)
  --leader-elect            add the Lease permissions
  --lease-namespace NS      namespace of the Lease (default: --namespace)
  --lease-name NAME         name of the Lease (default: --name)
  -o, --output FILE         write the YAML to FILE instead of stdout
  -f, --katalog F           the file (same as the positional argument)
`,
  run: `usage: katalog run [options] <file>

Runs the definition with the current kubeconfig and serves the inspection API. The API's URL is printed on stdout
once it listens; progress and logs go to stderr. Ctrl-C (SIGINT) or SIGTERM stops gracefully and exits 0; a
second signal exits at once with 130.

  --embedded               run against an in-process test API server (CRDs from crdFile are installed)
  --code MODULE            load hooks and constructors from MODULE: export const hooks = {...}, constructors = {...}
  --port N                 port of the inspection API (default 8080; 0 = any free port)
  --host H                 interface to listen on (default 127.0.0.1; 0.0.0.0 in a container)
  --kubeconfig FILE        kubeconfig to use (default: $KUBECONFIG, else ~/.kube/config, else in-cluster)
  --context NAME           kubeconfig context to use
  --install-crds           apply every crdFile before starting (development)
  --leader-elect           campaign for a Lease; only the leader reconciles
  --lease-namespace NS     namespace of the Lease (default katalog-system)
  --lease-name NAME        name of the Lease (default: the definition's metadata.name)
  --log-level L            debug, info (default), warn, error or silent
  --log-format F           text (default) or json
  -f, --katalog F          the file (same as the positional argument)
`,
});
