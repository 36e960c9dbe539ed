// Orkestra's notes that katalog adds to the Orkestra dialect, pinned row by row against Orkestra's own catalog
// (orkspace/orkestra pkg/note/catalog_generated.go @ eacb2604bc775f58156f6f49907c4e5d494ebf30, generated from
// pkg/note/docs/): each row's expected value is the one the catalog's example gives, or follows its description.
// None of these names exists in the katalog dialect
// unless katalog has a function of its own by that name (then the Sprig meaning stays there).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TemplateError } from '../../src/errors.js';
import { compileTemplate, type TemplateData } from '../../src/template/index.js';

const CATALOG = 'pkg/note/catalog_generated.go @ eacb2604';
const at = (domain: string): string => `${CATALOG} (${domain})`;
const [STRINGS, DATA, DOMAIN, COLLECTIONS, TYPES, CRON, SEMVER, QUANTITY, TIME, NET, VALIDATION, KUBEVALIDATION, KUBERNETES, HPA, PVC, INGRESS, JOB, STATEFULSET, SERVICE, NODE, SERVE, MATH] = [
  'strings', 'data', 'domain', 'collections', 'types', 'cron', 'semver', 'quantity', 'time', 'net', 'validation', 'kubevalidation',
  'kubernetes', 'hpa', 'pvc', 'ingress', 'job', 'statefulset', 'service', 'node', 'serve', 'math',
].map(at) as [string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string];

const hpa = {
  spec: { minReplicas: 2, maxReplicas: 10 },
  status: { currentReplicas: 10, desiredReplicas: 10, conditions: [{ type: 'AbleToScale', status: 'True' }, { type: 'ScalingActive', status: 'True' }, { type: 'ScalingLimited', status: 'True' }] },
};
const data: TemplateData = {
  metadata: {
    name: 'site',
    namespace: 'prod',
    generation: 3,
    labels: { app: 'frontend', env: 'prod', replicas: '4' },
    annotations: { 'autoscale/min-replicas': '2', 'orkestra.orkspace.io/serve-target': 'smartapp' },
  },
  spec: { schedule: { minute: '*/5', hour: '0', dayOfWeek: '1' }, regions: ['us-east-1', 'eu-west-1'], version: 'v1.2.3', json: '["a","b"]', resources: { requests: { cpu: '250m' } } },
  status: { observedGeneration: 3, phase: 'Running', readyReplicas: 3, conditions: [{ type: 'Ready', status: 'True', reason: 'AllGood', message: 'fine' }] },
  children: {
    hpa,
    pvc: { spec: { accessModes: ['ReadWriteOnce', 'ReadOnlyMany'], storageClassName: 'standard', resources: { requests: { storage: '10Gi' } } }, status: { phase: 'Bound' } },
    ingress: {
      spec: { ingressClassName: 'nginx', rules: [{ host: 'api.example.com' }, {}, { host: 'www.example.com' }], tls: [{ hosts: ['api.example.com'] }] },
      status: { loadBalancer: { ingress: [{ hostname: 'abc.elb.amazonaws.com' }] } },
    },
    job: { status: { active: 1 } },
    cronjob: { status: { active: [{ name: 'j1' }], lastScheduleTime: '2026-05-19T10:00:00Z' } },
    statefulset: { status: { currentRevision: 'sts-6d8f', updateRevision: 'sts-7a2c' } },
    service: { spec: { ports: [{ port: 80, nodePort: 31234 }] }, status: { loadBalancer: { ingress: [{ ip: '34.123.45.67' }] } } },
    node: { spec: { taints: [{ key: 'node.kubernetes.io/not-ready' }] }, status: { allocatable: { cpu: '3920m', memory: '15032020Ki' }, conditions: [{ type: 'Ready', status: 'True' }, { type: 'MemoryPressure', status: 'False' }] } },
    deployment: { metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' }, spec: { template: { spec: { containers: [{ ports: [{ containerPort: 8080 }] }] } } } },
  },
};

function render(source: string, dialect: 'orkestra' | 'katalog' = 'orkestra'): unknown {
  return compileTemplate(source, { name: 't', dialect }).render(data);
}

// [template, Orkestra result, source]
const ROWS: ReadonlyArray<readonly [string, unknown, string]> = [
  // strings: Go's argument order, the subject first
  ['{{ replace "my.app.example.com" "." "-" }}', 'my-app-example-com', STRINGS],
  ['{{ trimPrefix "app-frontend" "app-" }}', 'frontend', STRINGS],
  ['{{ trimSuffix "nginx:latest" ":latest" }}', 'nginx', STRINGS],
  ['{{ hasPrefix "gcr.io/myproject/app:v1" "gcr.io/" }}', true, STRINGS],
  ['{{ hasSuffix "gcr.io/myproject/app:v1" "v1" }}', true, STRINGS],
  ['{{ contains "production" "prod" }}', true, STRINGS],
  ['{{ trim "/images/nginx/" "/" }}', 'images/nginx', STRINGS],
  ['{{ trimSpace "  example.com  " }}', 'example.com', STRINGS],
  ['{{ index (split "latest,stable,v2" ",") 0 }}', 'latest', STRINGS],
  ['{{ join .spec.regions ", " }}', 'us-east-1, eu-west-1', STRINGS],
  ['{{ repeat "ha" 3 }}', 'hahaha', STRINGS],
  ['{{ truncate "abcdefgh" 3 }}', 'abc...', STRINGS],
  ['{{ truncate "abc" 63 }}', 'abc', STRINGS],
  ['{{ concat .metadata.name "-" "prod" }}', 'site-prod', STRINGS],
  ['{{ camelToKebab "WebsiteOperator" }}', 'website-operator', STRINGS],
  ['{{ camelToKebab "myAppName" }}', 'my-app-name', STRINGS],
  // data
  ['{{ sha256sum "hello" }}', '2cf24dba', DATA],
  ['{{ truncateName "abcdefgh" 5 }}', 'abcde', DATA],
  ['{{ repoSlug "git@github.com:myorg/payments-api.git" }}', 'payments-api', DATA],
  ['{{ repoSlug "https://github.com/myorg/payments-api" }}', 'payments-api', DATA],
  ['{{ lookup "myorg/orders-api" "myorg/payments-api" "team-payments" "myorg/orders-api" "team-orders" }}', 'team-orders', DATA],
  ['{{ lookup "other" "a" "1" "dangling" }}', '', DATA],
  ['{{ toJSON .metadata.labels }}', '{"app":"frontend","env":"prod","replicas":"4"}', DATA],
  // domain
  ['{{ domainHost " https://acme.example.com/ " }}', 'acme.example.com', DOMAIN],
  ['{{ domainBare "https://www.acme.com/" }}', 'acme.com', DOMAIN],
  // collections
  ['{{ listGet .spec.regions 0 }}', 'us-east-1', COLLECTIONS],
  ['{{ listGet .spec.regions 5 }}', undefined, COLLECTIONS], // nil: a single action keeps it (prints as "" inside text)
  ['{{ div 7 2 }}', 3.5, MATH],
  ['{{ div 8 4 }}', 2, MATH],
  ['{{ listHas .spec.regions "eu-west-1" }}', true, COLLECTIONS],
  ['{{ listLen .spec.regions }}', 2, COLLECTIONS],
  ['{{ listLen "text" }}', 0, COLLECTIONS],
  ['{{ len (asList .spec.json) }}', 2, COLLECTIONS],
  ['{{ mapGet .metadata.labels "app" }}', 'frontend', COLLECTIONS],
  ['{{ join (mapKeys .metadata.labels) ", " }}', 'app, env, replicas', COLLECTIONS],
  ['{{ len (mapValues .spec.schedule) }}', 3, COLLECTIONS],
  ['{{ asString .spec.regions }}', '["us-east-1","eu-west-1"]', COLLECTIONS],
  // types
  ['{{ typeOf .spec.schedule }}', 'map', TYPES],
  ['{{ typeOf .spec.regions }}', 'slice', TYPES],
  ['{{ typeMap .spec.schedule }}', true, TYPES],
  ['{{ typeList .spec.regions }}', true, TYPES],
  ['{{ typeNull .spec.missing }}', true, TYPES],
  ['{{ typeString .metadata.name }}', true, TYPES],
  ['{{ typeNumber .metadata.generation }}', true, TYPES],
  ['{{ toBool "yes" }}', true, TYPES],
  ['{{ toBool "OFF" }}', false, TYPES],
  ['{{ toBool "" }}', false, TYPES],
  ['{{ len (toList "a, b, c") }}', 3, TYPES],
  ['{{ len (toList "") }}', 0, TYPES],
  ['{{ abs -300 }}', 300, MATH],
  // cron
  ['{{ cronMinute "*/5 2 * * 1" }}', '*/5', CRON],
  ['{{ cronHour "*/5 2 * * 1" }}', '2', CRON],
  ['{{ cronDom "0 0 15 * *" }}', '15', CRON],
  ['{{ cronMonth "0 0 1 6 *" }}', '6', CRON],
  ['{{ cronDow "0 0 * * 1" }}', '1', CRON],
  ['{{ cronMinute "" }}', '*', CRON],
  ['{{ cronField "0 0 1 6 *" 3 }}', '6', CRON],
  ['{{ cronExpr "*/1" "" "*" "*" "*" }}', '*/1 * * * *', CRON],
  ['{{ cronFromMap .spec.schedule }}', '*/5 0 * * 1', CRON],
  ['{{ cronFromAny .spec.schedule }}', '*/5 0 * * 1', CRON],
  ['{{ cronFromAny "  */5 0 * * 1 " }}', '*/5 0 * * 1', CRON],
  ['{{ cronFromAny .spec.missing }}', '* * * * *', CRON],
  ['{{ cronNormalize "@daily" }}', '0 0 * * *', CRON],
  ['{{ cronNormalize "@hourly" }}', '0 * * * *', CRON],
  ['{{ cronNormalize "" }}', '* * * * *', CRON],
  ['{{ cronNormalize "not cron" }}', '* * * * *', CRON],
  ['{{ (cronToMap "@hourly").minute }}', '0', CRON],
  ['{{ (cronToMap "*/5 0 * * 1").dayOfWeek }}', '1', CRON],
  ['{{ cronValid "*/5 0-6 1,15 jan-jun mon" }}', true, CRON],
  ['{{ cronValid "61 * * * *" }}', false, CRON],
  ['{{ cronValid "* * *" }}', false, CRON],
  // semver
  ['{{ semverValid "v1.2.3" }}', true, SEMVER],
  ['{{ semverValid "not-a-version" }}', false, SEMVER],
  ['{{ semverCompare "1.3.0" "1.2.9" }}', 1, SEMVER],
  ['{{ semverCompare "1.0.0-rc1" "1.0.0" }}', -1, SEMVER],
  ['{{ semverCompare "bad" "1.0.0" }}', 0, SEMVER],
  ['{{ semverMajor .spec.version }}', 1, SEMVER],
  ['{{ semverMinor .spec.version }}', 2, SEMVER],
  ['{{ semverPatch .spec.version }}', 3, SEMVER],
  ['{{ semverBump "1.2.3" "patch" }}', '1.2.4', SEMVER],
  ['{{ semverBump "2.1.0-rc1" "patch" }}', '2.1.1', SEMVER],
  ['{{ semverBump "1.2.3" "minor" }}', '1.3.0', SEMVER],
  ['{{ semverBump "1.2.3" "major" }}', '2.0.0', SEMVER],
  ['{{ semverBump "1.2.3" "other" }}', '1.2.3', SEMVER],
  ['{{ semverConstraint "1.4.0" "^1.0" }}', true, SEMVER],
  ['{{ semverConstraint "2.0.0" "^1.0" }}', false, SEMVER],
  ['{{ semverConstraint "1.5.0" ">=1.2.0,<2.0.0" }}', true, SEMVER],
  ['{{ semverConstraint "1.2.9" "~1.2" }}', true, SEMVER],
  ['{{ semverConstraint "1.3.0" "~1.2" }}', false, SEMVER],
  ['{{ semverConstraint "1.7.1" "1.x" }}', true, SEMVER],
  ['{{ semverConstraint "3.0.0" "<2.0.0 || >=3.0.0" }}', true, SEMVER],
  // quantity
  ['{{ parseQuantity "100m" }}', 0.1, QUANTITY],
  ['{{ parseQuantity "1Gi" }}', 1073741824, QUANTITY],
  ['{{ parseQuantity "2" }}', 2, QUANTITY],
  ['{{ formatQuantity 0.5 }}', '500m', QUANTITY],
  ['{{ formatQuantity 1.0 }}', '1', QUANTITY],
  ['{{ formatQuantity 1073741824 }}', '1Gi', QUANTITY],
  ['{{ sumQuantity "100m" "200m" }}', '300m', QUANTITY],
  ['{{ sumQuantity "500m" "500m" }}', '1', QUANTITY],
  ['{{ sumQuantity "1Gi" "512Mi" }}', '1536Mi', QUANTITY],
  ['{{ subtractQuantity "1Gi" "512Mi" }}', '512Mi', QUANTITY],
  ['{{ subtractQuantity "500m" "500m" }}', '0', QUANTITY],
  ['{{ subtractQuantity "100m" "200m" }}', '-100m', QUANTITY],
  ['{{ formatQuantity (div (parseQuantity "1") 4) }}', '250m', QUANTITY],
  // time (the pure ones)
  ['{{ durationSeconds "5m" }}', 300, TIME],
  ['{{ durationSeconds "1h30m" }}', 5400, TIME],
  ['{{ durationSeconds "7d" }}', 604800, TIME],
  ['{{ durationSeconds "nonsense" }}', 0, TIME],
  ['{{ durationAdd "5m" "30s" }}', '5m30s', TIME],
  ['{{ durationAdd "x" "30s" }}', '0s', TIME],
  ['{{ durationValid "30d" }}', true, TIME],
  ['{{ durationValid "1y" }}', true, TIME],
  ['{{ durationValid "soon" }}', false, TIME],
  // net
  ['{{ cidrContains "10.0.0.0/8" "10.1.2.3" }}', true, NET],
  ['{{ cidrContains "192.168.0.0/16" "10.0.0.1" }}', false, NET],
  ['{{ cidrContains "bad-cidr" "10.0.0.1" }}', false, NET],
  ['{{ ipIsPrivate "172.20.0.5" }}', true, NET],
  ['{{ ipIsPrivate "8.8.8.8" }}', false, NET],
  ['{{ ipIsPrivate "2001:db8::1" }}', false, NET],
  ['{{ ipValid "2001:db8::1" }}', true, NET],
  ['{{ ipValid "not-an-ip" }}', false, NET],
  // validation
  ['{{ isValidEmail "team@myorg.io" }}', true, VALIDATION],
  ['{{ isValidEmail "Team <team@myorg.io>" }}', false, VALIDATION],
  ['{{ isValidGitRepository "https://github.com/myorg/payments" }}', true, VALIDATION],
  ['{{ isValidGitRepository "git@github.com:myorg/payments.git" }}', true, VALIDATION],
  ['{{ isValidGitRepository "not a repo" }}', false, VALIDATION],
  ['{{ isValidImageRef "myorg/app:v1.2.3" }}', true, VALIDATION],
  ['{{ isValidImageRef "registry.myorg.io:5000/team/app:latest" }}', true, VALIDATION],
  ['{{ isValidImageRef "MyOrg/App" }}', false, VALIDATION],
  ['{{ isValidJSON "{not json" }}', false, VALIDATION],
  ['{{ isValidPort "8080" }}', true, VALIDATION],
  ['{{ isValidPort "70000" }}', false, VALIDATION],
  ['{{ isValidURL "https://example.com/webhook" }}', true, VALIDATION],
  ['{{ isValidURL "ftp://example.com" }}', false, VALIDATION],
  ['{{ isDNS1123Subdomain "my-app.example.com" }}', true, KUBEVALIDATION],
  ['{{ isDNS1123Subdomain "My_App" }}', false, KUBEVALIDATION],
  ['{{ isValidLabelKey "platform.myorg.io/tier" }}', true, KUBEVALIDATION],
  ['{{ isValidLabelKey "bad key" }}', false, KUBEVALIDATION],
  ['{{ isValidAnnotationKey "platform.myorg.io/jira-ticket" }}', true, KUBEVALIDATION],
  ['{{ isValidLabelValue "" }}', true, KUBEVALIDATION],
  ['{{ isValidLabelValue "-leading-dash" }}', false, KUBEVALIDATION],
  // kubernetes: one object from the template data
  ['{{ generation . }}', 3, KUBERNETES],
  ['{{ observedGeneration . }}', 3, KUBERNETES],
  ['{{ isSynced . }}', true, KUBERNETES],
  ['{{ isTerminating .children.deployment }}', true, KUBERNETES],
  ['{{ isTerminating . }}', false, KUBERNETES],
  ['{{ phase . }}', 'Running', KUBERNETES],
  ['{{ phase .children.missing }}', '', KUBERNETES],
  ['{{ conditionReason . "Ready" }}', 'AllGood', KUBERNETES],
  ['{{ conditionMessage . "Ready" }}', 'fine', KUBERNETES],
  ['{{ conditionMessage . "Other" }}', '', KUBERNETES],
  ['{{ getLabel . "app" }}', 'frontend', KUBERNETES],
  ['{{ getLabelInt . "replicas" }}', 4, KUBERNETES],
  ['{{ getAnnotation . "autoscale/min-replicas" }}', '2', KUBERNETES],
  ['{{ getAnnotationInt . "autoscale/min-replicas" }}', 2, KUBERNETES],
  ['{{ hasLabel . "env" }}', true, KUBERNETES],
  ['{{ hasAnnotation . "absent" }}', false, KUBERNETES],
  ['{{ labelMatches . "app" "frontend" "env" "prod" }}', true, KUBERNETES],
  ['{{ labelMatches . "app" "backend" }}', false, KUBERNETES],
  ['{{ getStatus . "readyReplicas" }}', '3', KUBERNETES],
  ['{{ getStatus . "conditions" }}', '', KUBERNETES],
  ['{{ hasStatus . "conditions" }}', true, KUBERNETES],
  ['{{ hasStatus . "loadBalancer" }}', false, KUBERNETES],
  ['{{ resourceCPU . }}', '250m', KUBERNETES],
  ['{{ resourceMemory . | default "128Mi" }}', '128Mi', KUBERNETES],
  ['{{ containerPort .children.deployment 0 8080 }}', true, KUBERNETES],
  ['{{ containerPort .children.deployment 0 9090 }}', false, KUBERNETES],
  // hpa
  ['{{ hpaCurrentReplicas .children.hpa }}', 10, HPA],
  ['{{ hpaDesiredReplicas .children.hpa }}', 10, HPA],
  ['{{ hpaMaxReplicas .children.hpa }}', 10, HPA],
  ['{{ hpaMinReplicas .children.hpa }}', 2, HPA],
  ['{{ hpaMinReplicas .children.missing }}', 1, HPA],
  ['{{ hpaAtMax .children.hpa }}', true, HPA],
  ['{{ hpaAbleToScale .children.hpa }}', true, HPA],
  ['{{ hpaScalingActive .children.hpa }}', true, HPA],
  ['{{ hpaScalingLimited .children.hpa }}', true, HPA],
  ['{{ hpaScaling .children.hpa }}', false, HPA],
  // pvc
  ['{{ pvcBound .children.pvc }}', true, PVC],
  ['{{ pvcPhase .children.pvc }}', 'Bound', PVC],
  ['{{ pvcCapacity .children.pvc }}', '10Gi', PVC],
  ['{{ pvcStorageClass .children.pvc }}', 'standard', PVC],
  ['{{ pvcAccessModes .children.pvc }}', 'ReadWriteOnce, ReadOnlyMany', PVC],
  // ingress
  ['{{ ingressClassName .children.ingress }}', 'nginx', INGRESS],
  ['{{ ingressHost .children.ingress }}', 'abc.elb.amazonaws.com', INGRESS],
  ['{{ ingressIP .children.ingress }}', '', INGRESS],
  ['{{ ingressReady .children.ingress }}', true, INGRESS],
  ['{{ ingressRules .children.ingress }}', 'api.example.com, www.example.com', INGRESS],
  ['{{ ingressTLSHosts .children.ingress }}', 'api.example.com', INGRESS],
  // job, cronjob, statefulset, service, node
  ['{{ jobActive .children.job }}', true, JOB],
  ['{{ cronJobActiveCount .children.cronjob }}', 1, JOB],
  ['{{ cronJobLastScheduleTime .children.cronjob }}', '2026-05-19T10:00:00Z', JOB],
  ['{{ cronJobLastSuccessTime .children.cronjob }}', '', JOB],
  ['{{ statefulSetCurrentRevision .children.statefulset }}', 'sts-6d8f', STATEFULSET],
  ['{{ statefulSetUpdateRevision .children.statefulset }}', 'sts-7a2c', STATEFULSET],
  ['{{ serviceLoadBalancerIP .children.service }}', '34.123.45.67', SERVICE],
  ['{{ serviceLoadBalancerHost .children.service }}', '', SERVICE],
  ['{{ serviceNodePort .children.service }}', 31234, SERVICE],
  ['{{ nodeReady .children.node }}', true, NODE],
  ['{{ nodeCondition .children.node "MemoryPressure" }}', 'False', NODE],
  ['{{ nodeAllocatableCPU .children.node }}', '3920m', NODE],
  ['{{ nodeAllocatableMemory .children.node }}', '15032020Ki', NODE],
  ['{{ nodeTaints .children.node }}', 'node.kubernetes.io/not-ready', NODE],
  // serve
  ['{{ getServeTarget . }}', 'smartapp', SERVE],
  ['{{ hasServeTarget . }}', true, SERVE],
  ['{{ getServeAlias . }}', '', SERVE],
  ['{{ hasServeSource . }}', false, SERVE],
  ['{{ isDirectApply . }}', false, SERVE],
  ['{{ isDirectApply .children.node }}', true, SERVE],
];

describe('Orkestra notes (Orkestra dialect)', () => {
  for (const [source, expected, origin] of ROWS) {
    test(`${source} → ${JSON.stringify(expected)}  [${origin}]`, () => {
      assert.deepEqual(render(source), expected);
    });
  }

  test('the Sprig argument order stays in the katalog dialect', () => {
    assert.equal(render('{{ replace "." "-" "a.b" }}', 'katalog'), 'a-b');
    assert.equal(render('{{ hasPrefix "gcr.io/" "gcr.io/app" }}', 'katalog'), true);
    assert.equal(String(render('{{ sha256sum "hello" }}', 'katalog')).length, 64);
    assert.throws(() => render('{{ cronNormalize "@daily" }}', 'katalog'), /cronNormalize/);
  });

  test('errors where Orkestra errors: a cron text without five fields, a text that is not a quantity', () => {
    assert.throws(() => render('{{ cronMinute "* *" }}'), (e: unknown) => e instanceof TemplateError && /five fields/.test(e.message));
    assert.throws(() => render('{{ cronFromMap "x" }}'), /expected a map/);
    assert.throws(() => render('{{ parseQuantity "lots" }}'), /not a Kubernetes quantity/);
  });

  test('the clock notes are Orkestra notes only: the katalog dialect does not define them', () => {
    for (const name of ['timeSince .metadata.creationTimestamp', 'weekday']) {
      assert.doesNotThrow(() => compileTemplate(`{{ ${name} }}`, { name: 't', dialect: 'orkestra' }), name);
      assert.throws(() => compileTemplate(`{{ ${name} }}`, { name: 't', dialect: 'katalog' }), (e: unknown) => e instanceof TemplateError && /not defined/.test(e.message), name);
    }
    assert.throws(() => compileTemplate('{{ podNames . }}', { name: 't', dialect: 'katalog' }), (e: unknown) => e instanceof TemplateError && !/enrich/.test(e.message));
  });
});
