// The Pod Security Standards evaluation (admission/pod-security/). Expected reasons and details are the ones
// k8s.io/pod-security-admission v0.37.2's policy/check_*_test.go list, joined as policy/checks.go's ForbiddenDetail
// joins them; the default pod's message and the synced AppArmor annotation are kube-apiserver 1.37.2's answers (dry-run
// POSTs into enforce=restricted and enforce=baseline namespaces, temp/probes/psa-eval.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podSecurityViolations, violationMessage, type PodSecurityLevel } from '../../src/testing/admission/pod-security/evaluate.js';

type Json = Record<string, unknown>;

/** A container that passes restricted, with `extra` securityContext fields over the restricted ones. */
function restrictedContainer(name: string, extra: Json = {}): Json {
  return {
    name,
    image: 'i',
    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, ...extra },
  };
}

/** A pod spec that passes restricted, with `extra` fields over it. */
function restrictedSpec(extra: Json = {}, podContext: Json = {}): Json {
  return {
    securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' }, ...podContext },
    containers: [restrictedContainer('c')],
    ...extra,
  };
}

function violations(level: PodSecurityLevel, spec: Json, metadata: Json = {}): string[] {
  return podSecurityViolations(level, metadata, spec);
}

test('the minimal restricted pod passes every level', () => {
  const spec = {
    containers: [{
      name: 'c',
      image: 'i',
      securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } },
    }],
  };
  for (const level of ['privileged', 'baseline', 'restricted'] as const) assert.deepEqual(violations(level, spec), [], level);
  assert.deepEqual(violations('restricted', restrictedSpec()), []);
});

test('the default pod: nothing at baseline, four reasons at restricted in registry order', () => {
  const spec = { containers: [{ name: 'c', image: 'i' }] };
  assert.deepEqual(violations('baseline', spec), []);
  const restricted = violations('restricted', spec);
  assert.deepEqual(restricted, [
    'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false)',
    'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"])',
    'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true)',
    'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  ]);
  assert.equal(
    violationMessage('restricted', 'latest', restricted),
    'violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
      'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
      'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
      'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  );
});

test('privileged allows anything', () => {
  assert.deepEqual(violations('privileged', { hostNetwork: true, containers: [{ name: 'c', securityContext: { privileged: true } }] }), []);
});

test('host namespaces, in hostNetwork, hostPID, hostIPC order', () => {
  const spec = { hostIPC: true, hostPID: true, hostNetwork: true, containers: [{ name: 'c' }] };
  assert.deepEqual(violations('baseline', spec), ['host namespaces (hostNetwork=true, hostPID=true, hostIPC=true)']);
  assert.deepEqual(violations('baseline', { hostNetwork: false, hostPID: null, containers: [{ name: 'c' }] }), []);
});

test('privileged containers', () => {
  const spec = {
    containers: [
      { name: 'a', securityContext: null },
      { name: 'b', securityContext: {} },
      { name: 'c', securityContext: { privileged: false } },
      { name: 'd', securityContext: { privileged: true } },
      { name: 'e', securityContext: { privileged: true } },
    ],
  };
  assert.deepEqual(violations('baseline', spec), ['privileged (containers "d", "e" must not set securityContext.privileged=true)']);
});

test('hostPath volumes at baseline; restricted names them under restricted volume types instead', () => {
  const spec = restrictedSpec({
    volumes: [
      { name: 'a', hostPath: { path: '/' } },
      { name: 'b', hostPath: { path: '/b' } },
      { name: 'c', emptyDir: {} },
    ],
  });
  assert.deepEqual(violations('baseline', spec), ['hostPath volumes (volumes "a", "b")']);
  assert.deepEqual(violations('restricted', spec), ['restricted volume types (volumes "a", "b" use restricted volume type "hostPath")']);
});

test('restricted volume types: every source, and a volume with none is unknown', () => {
  const allowed = ['emptyDir', 'secret', 'persistentVolumeClaim', 'downwardAPI', 'configMap', 'projected', 'csi', 'ephemeral', 'image'];
  const restricted = [
    'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume', 'cinder', 'cephfs',
    'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'storageos',
  ];
  const volumes = [
    ...allowed.map((source, i) => ({ name: `a${i + 1}`, [source]: {} })),
    ...restricted.map((source, i) => ({ name: `b${i + 1}`, [source]: {} })),
    { name: 'c1' },
  ];
  assert.deepEqual(violations('restricted', restrictedSpec({ volumes })), [
    'restricted volume types (volumes ' +
      '"b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9", "b10", "b11", "b12", "b13", "b14", "b15", "b16", "b17", "b18", "b19", "b20", "b21", "c1"' +
      ' use restricted volume types ' +
      '"awsElasticBlockStore", "azureDisk", "azureFile", "cephfs", "cinder", "fc", "flexVolume", "flocker", "gcePersistentDisk", "gitRepo", "glusterfs", ' +
      '"hostPath", "iscsi", "nfs", "photonPersistentDisk", "portworxVolume", "quobyte", "rbd", "scaleIO", "storageos", "unknown", "vsphereVolume")',
  ]);
  assert.deepEqual(violations('baseline', { containers: [{ name: 'c' }], volumes }), ['hostPath volumes (volume "b1")']);
});

test('hostPorts: containers in order, ports distinct and sorted as strings', () => {
  const one = { containers: [{ name: 'a', ports: [{ hostPort: 0 }] }, { name: 'b', ports: [{ hostPort: 0 }, { hostPort: 20 }] }] };
  assert.deepEqual(violations('baseline', one), ['hostPort (container "b" uses hostPort 20)']);
  const many = {
    containers: [
      { name: 'a', ports: [{ hostPort: 0 }] },
      { name: 'b', ports: [{ hostPort: 0 }, { hostPort: 10 }, { hostPort: 20 }] },
      { name: 'c', ports: [{ hostPort: 0 }, { hostPort: 10 }, { hostPort: 30 }] },
    ],
  };
  assert.deepEqual(violations('baseline', many), ['hostPort (containers "b", "c" use hostPorts 10, 20, 30)']);
  const stringOrder = { containers: [{ name: 'a', ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 81, hostPort: 10000 }] }] };
  assert.deepEqual(violations('baseline', stringOrder), ['hostPort (container "a" uses hostPorts 10000, 8080)']);
});

test('probe and lifecycle hosts: containers and hosts listed sorted', () => {
  const spec = {
    containers: [
      { name: 'invalid2', livenessProbe: { httpGet: { host: 'b.com', port: 80 } } },
      { name: 'valid', readinessProbe: { tcpSocket: { host: '', port: 80 } } },
      { name: 'invalid1', lifecycle: { preStop: { tcpSocket: { host: 'a.com', port: 80 } }, postStart: { httpGet: { host: 'b.com', port: 80 } } } },
    ],
  };
  assert.deepEqual(violations('baseline', spec), ['probe or lifecycle host (containers "invalid1", "invalid2" use probe or lifecycle hosts "a.com", "b.com")']);
  const init = { initContainers: [{ name: 'init', startupProbe: { httpGet: { host: 'invalid.init.host', port: 80 } } }], containers: [{ name: 'c' }] };
  assert.deepEqual(violations('baseline', init), ['probe or lifecycle host (container "init" uses probe or lifecycle host "invalid.init.host")']);
});

test('capabilities: baseline allows its default set; restricted wants drop ALL and only NET_BIND_SERVICE added', () => {
  const spec = {
    containers: [
      { name: 'a', securityContext: { capabilities: { add: ['FOO', 'BAR'] } } },
      { name: 'b', securityContext: { capabilities: { add: ['BAR', 'BAZ'] } } },
      { name: 'c', securityContext: { capabilities: { add: ['NET_BIND_SERVICE', 'CHOWN'], drop: ['ALL', 'FOO'] } } },
    ],
  };
  assert.deepEqual(violations('baseline', spec), ['non-default capabilities (containers "a", "b" must not include "BAR", "BAZ", "FOO" in securityContext.capabilities.add)']);
  assert.deepEqual(violations('restricted', spec)[1], 'unrestricted capabilities (containers "a", "b" must set securityContext.capabilities.drop=["ALL"]; ' +
    'containers "a", "b", "c" must not include "BAR", "BAZ", "CHOWN", "FOO" in securityContext.capabilities.add)');
  const netRaw = restrictedSpec({ containers: [restrictedContainer('c', { capabilities: { drop: ['ALL'], add: ['NET_RAW'] } })] });
  assert.deepEqual(violations('restricted', netRaw), ['unrestricted capabilities (container "c" must not include "NET_RAW" in securityContext.capabilities.add)']);
  assert.deepEqual(violations('baseline', netRaw), ['non-default capabilities (container "c" must not include "NET_RAW" in securityContext.capabilities.add)']);
});

test('procMount: only Default, unless the pod runs in a user namespace (baseline only)', () => {
  const containers = [
    restrictedContainer('a'),
    restrictedContainer('c', { procMount: 'Default' }),
    restrictedContainer('d', { procMount: 'Unmasked' }),
    restrictedContainer('e', { procMount: 'other' }),
  ];
  const detail = 'procMount (containers "d", "e" must not set securityContext.procMount to "Unmasked", "other")';
  assert.deepEqual(violations('baseline', { containers, hostUsers: true }), [detail]);
  assert.deepEqual(violations('baseline', { containers, hostUsers: false }), []);
  assert.deepEqual(violations('restricted', restrictedSpec({ containers, hostUsers: false })), [detail]);
});

test('seLinuxOptions: types, user and role, by the pod and its containers', () => {
  const spec = {
    securityContext: { seLinuxOptions: { type: 'foo', user: 'bar', role: 'baz' } },
    containers: [
      { name: 'a', securityContext: { seLinuxOptions: { type: 'container_t' } } },
      { name: 'b', securityContext: { seLinuxOptions: { type: 'container_init_t' } } },
      { name: 'c', securityContext: { seLinuxOptions: { type: 'container_kvm_t' } } },
      { name: 'd', securityContext: { seLinuxOptions: { type: 'container_engine_t' } } },
      { name: 'e', securityContext: { seLinuxOptions: { type: 'bar' } } },
      { name: 'f', securityContext: { seLinuxOptions: { user: 'bar' } } },
      { name: 'g', securityContext: { seLinuxOptions: { role: 'baz' } } },
    ],
  };
  assert.deepEqual(violations('baseline', spec), [
    'seLinuxOptions (pod and containers "e", "f", "g" set forbidden securityContext.seLinuxOptions: types "bar", "foo"; user may not be set; role may not be set)',
  ]);
  const pod = (options: Json) => violations('baseline', { securityContext: { seLinuxOptions: options }, containers: [{ name: 'c' }] });
  assert.deepEqual(pod({ type: 'bad' }), ['seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: type "bad")']);
  assert.deepEqual(pod({ user: 'bad' }), ['seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: user may not be set)']);
  assert.deepEqual(pod({ role: 'bad' }), ['seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: role may not be set)']);
  assert.deepEqual(pod({ level: 's0:c1,c2' }), []);
});

test('sysctls: the unsafe ones in the pod order', () => {
  const sysctls = [{ name: 'a', value: '1' }, { name: 'net.ipv4.tcp_notsent_lowat', value: '1' }, { name: 'b', value: '1' }];
  assert.deepEqual(violations('baseline', { securityContext: { sysctls }, containers: [{ name: 'c' }] }), ['forbidden sysctls (a, b)']);
});

test('AppArmor: profile types of the pod and containers, and the deprecated annotations', () => {
  assert.deepEqual(violations('baseline', { securityContext: { appArmorProfile: { type: 'Unconfined' } }, containers: [{ name: 'c' }] }), [
    'forbidden AppArmor profile (pod must not set AppArmor profile type to "Unconfined")',
  ]);
  const init = {
    securityContext: { appArmorProfile: { type: 'RuntimeDefault' } },
    containers: [{ name: 'foo' }],
    initContainers: [{ name: 'bar', securityContext: { appArmorProfile: { type: 'Unconfined' } } }],
  };
  assert.deepEqual(violations('baseline', init), ['forbidden AppArmor profile (container "bar" must not set AppArmor profile type to "Unconfined")']);
  const annotations = {
    'container.apparmor.security.beta.kubernetes.io/': 'bogus',
    'container.apparmor.security.beta.kubernetes.io/a': '',
    'container.apparmor.security.beta.kubernetes.io/b': 'runtime/default',
    'container.apparmor.security.beta.kubernetes.io/c': 'localhost/',
    'container.apparmor.security.beta.kubernetes.io/d': 'localhost/foo',
    'container.apparmor.security.beta.kubernetes.io/f': 'unknown',
    'container.apparmor.security.beta.kubernetes.io/e': 'unconfined',
  };
  assert.deepEqual(violations('baseline', { containers: [{ name: 'c' }] }, { annotations }), [
    'forbidden AppArmor profiles (annotations must not set AppArmor profile type to ' +
      '"container.apparmor.security.beta.kubernetes.io/="bogus"", ' +
      '"container.apparmor.security.beta.kubernetes.io/e="unconfined"", ' +
      '"container.apparmor.security.beta.kubernetes.io/f="unknown"")',
  ]);
  // kube-apiserver's pod strategy copies the annotation into the container's field before admission: its answer.
  const synced = { containers: [{ name: 'a', securityContext: { appArmorProfile: { type: 'Unconfined' } } }] };
  assert.deepEqual(violations('baseline', synced, { annotations: { 'container.apparmor.security.beta.kubernetes.io/a': 'unconfined' } }), [
    'forbidden AppArmor profiles (container "a" and annotation must not set AppArmor profile type to "Unconfined", "container.apparmor.security.beta.kubernetes.io/a="unconfined"")',
  ]);
});

test('windows hostProcess: the pod and its containers', () => {
  const spec = {
    securityContext: { windowsOptions: { hostProcess: true } },
    containers: [
      { name: 'a', securityContext: null },
      { name: 'b', securityContext: {} },
      { name: 'c', securityContext: { windowsOptions: {} } },
      { name: 'd', securityContext: { windowsOptions: { hostProcess: false } } },
      { name: 'e', securityContext: { windowsOptions: { hostProcess: true } } },
      { name: 'f', securityContext: { windowsOptions: { hostProcess: true } } },
    ],
  };
  assert.deepEqual(violations('baseline', spec), ['hostProcess (pod and containers "e", "f" must not set securityContext.windowsOptions.hostProcess=true)']);
});

test('a Windows pod skips allowPrivilegeEscalation, capabilities and seccomp at restricted', () => {
  const spec = { os: { name: 'windows' }, securityContext: { runAsNonRoot: true }, containers: [{ name: 'a' }] };
  assert.deepEqual(violations('restricted', spec), []);
  const linux = { os: { name: 'linux' }, securityContext: { runAsNonRoot: true, seccompProfile: { type: 'Localhost', localhostProfile: 'p' } }, containers: [{ name: 'a' }] };
  assert.deepEqual(violations('restricted', linux), [
    'allowPrivilegeEscalation != false (container "a" must set securityContext.allowPrivilegeEscalation=false)',
    'unrestricted capabilities (container "a" must set securityContext.capabilities.drop=["ALL"])',
  ]);
});

test('runAsNonRoot: explicit false by the pod or containers comes before the unset ones', () => {
  const unset = (podContext: Json, containers: Json[]) => violations('restricted', { ...restrictedSpec({ containers }, podContext) });
  assert.deepEqual(unset({ runAsNonRoot: false }, [restrictedContainer('a')]), ['runAsNonRoot != true (pod must not set securityContext.runAsNonRoot=false)']);
  assert.deepEqual(unset({ runAsNonRoot: null }, [restrictedContainer('a'), restrictedContainer('b'), restrictedContainer('c', { runAsNonRoot: false }), restrictedContainer('d', { runAsNonRoot: false })]), [
    'runAsNonRoot != true (containers "c", "d" must not set securityContext.runAsNonRoot=false)',
  ]);
  assert.deepEqual(unset({ runAsNonRoot: null }, [restrictedContainer('a'), restrictedContainer('b'), restrictedContainer('c', { runAsNonRoot: true })]), [
    'runAsNonRoot != true (pod or containers "a", "b" must set securityContext.runAsNonRoot=true)',
  ]);
  assert.deepEqual(violations('restricted', restrictedSpec({ hostUsers: false }, { runAsNonRoot: false, runAsUser: 0 })), []);
});

test('runAsUser=0 by the pod and containers, allowed in a user namespace', () => {
  assert.deepEqual(violations('restricted', restrictedSpec({}, { runAsUser: 0 })), ['runAsUser=0 (pod must not set runAsUser=0)']);
  assert.deepEqual(violations('restricted', restrictedSpec({}, { runAsUser: 1000 })), []);
  const containers = [restrictedContainer('a'), restrictedContainer('b', { runAsUser: 1 }), restrictedContainer('c', { runAsUser: 0 }), restrictedContainer('d', { runAsUser: 0 })];
  assert.deepEqual(violations('restricted', restrictedSpec({ containers })), ['runAsUser=0 (containers "c", "d" must not set runAsUser=0)']);
  assert.deepEqual(violations('restricted', restrictedSpec({ containers, hostUsers: false }, { runAsUser: 0 })), []);
  assert.deepEqual(violations('baseline', { securityContext: { runAsUser: 0 }, containers: [{ name: 'c' }] }), []);
});

test('seccomp: Unconfined refused at both levels; restricted also wants a profile set', () => {
  const unconfinedPod = restrictedSpec({}, { seccompProfile: { type: 'Unconfined' } });
  assert.deepEqual(violations('baseline', unconfinedPod), ['seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")']);
  assert.deepEqual(violations('restricted', unconfinedPod), ['seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")']);
  const containers = [restrictedContainer('a'), restrictedContainer('c', { seccompProfile: { type: 'Unconfined' } }), restrictedContainer('d', { seccompProfile: { type: 'Unconfined' } })];
  assert.deepEqual(violations('restricted', restrictedSpec({ containers }, { seccompProfile: { type: 'Unconfined' } })), [
    'seccompProfile (pod and containers "c", "d" must not set securityContext.seccompProfile.type to "Unconfined")',
  ]);
  assert.deepEqual(violations('restricted', restrictedSpec({ containers: [restrictedContainer('a'), restrictedContainer('b')] }, { seccompProfile: null })), [
    'seccompProfile (pod or containers "a", "b" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  ]);
  const perContainer = restrictedSpec({ containers: [restrictedContainer('a', { seccompProfile: { type: 'Localhost', localhostProfile: 'p' } })] }, { seccompProfile: null });
  assert.deepEqual(violations('restricted', perContainer), []);
});

test('init and ephemeral containers are named, in init, regular, ephemeral order', () => {
  const spec = {
    ephemeralContainers: [{ name: 'debug', image: 'i' }],
    containers: [{ name: 'app', image: 'i' }],
    initContainers: [{ name: 'init', image: 'i', securityContext: { privileged: true } }],
  };
  assert.deepEqual(violations('baseline', spec), ['privileged (container "init" must not set securityContext.privileged=true)']);
  assert.deepEqual(violations('restricted', spec), [
    'privileged (container "init" must not set securityContext.privileged=true)',
    'allowPrivilegeEscalation != false (containers "init", "app", "debug" must set securityContext.allowPrivilegeEscalation=false)',
    'unrestricted capabilities (containers "init", "app", "debug" must set securityContext.capabilities.drop=["ALL"])',
    'runAsNonRoot != true (pod or containers "init", "app", "debug" must set securityContext.runAsNonRoot=true)',
    'seccompProfile (pod or containers "init", "app", "debug" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  ]);
});

test('every check at once: baseline checks by ID, then the restricted ones', () => {
  const spec = {
    hostNetwork: true,
    securityContext: { sysctls: [{ name: 'kernel.msgmax', value: '1' }], runAsUser: 0, seLinuxOptions: { user: 'u' }, appArmorProfile: { type: 'Unconfined' } },
    volumes: [{ name: 'h', hostPath: { path: '/' } }],
    containers: [{
      name: 'c',
      ports: [{ containerPort: 80, hostPort: 80 }],
      livenessProbe: { httpGet: { host: 'h', port: 80 } },
      securityContext: { privileged: true, procMount: 'Unmasked', capabilities: { add: ['SYS_ADMIN'] }, seccompProfile: { type: 'Unconfined' }, windowsOptions: { hostProcess: true } },
    }],
  };
  assert.deepEqual(violations('restricted', spec).map((violation) => violation.replace(/ \(.*$/, '')), [
    'forbidden AppArmor profile',
    'host namespaces',
    'hostPort',
    'probe or lifecycle host',
    'privileged',
    'seLinuxOptions',
    'forbidden sysctls',
    'hostProcess',
    'allowPrivilegeEscalation != false',
    'unrestricted capabilities',
    'procMount',
    'restricted volume types',
    'runAsNonRoot != true',
    'runAsUser=0',
    'seccompProfile',
  ]);
  assert.deepEqual(violations('baseline', spec).map((violation) => violation.replace(/ \(.*$/, '')), [
    'forbidden AppArmor profile',
    'non-default capabilities',
    'host namespaces',
    'hostPath volumes',
    'hostPort',
    'probe or lifecycle host',
    'privileged',
    'procMount',
    'seLinuxOptions',
    'seccompProfile',
    'forbidden sysctls',
    'hostProcess',
  ]);
});

test('violationMessage names the level and version', () => {
  assert.equal(violationMessage('baseline', 'v1.30', ['privileged (container "c" must not set securityContext.privileged=true)']),
    'violates PodSecurity "baseline:v1.30": privileged (container "c" must not set securityContext.privileged=true)');
});
