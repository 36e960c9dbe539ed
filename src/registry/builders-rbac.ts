/**
 * Short forms of the RBAC kinds: `roles`, `clusterRoles` (`rules`), `roleBindings`, `clusterRoleBindings`
 * (`roleRef` as a name or a full reference, `subjects`, or `serviceAccount` as a shorthand for one subject).
 */
import type { KubeObject } from '../kube/resource.js';
import type { BuildContext, KindBuilder } from './kind-builder.js';
import { compact, defaultClusterName, defaultName, isPlainMap, manifestError, metadataOf, ShortForm } from './short-form.js';

const RBAC = 'rbac.authorization.k8s.io/v1';
const RBAC_GROUP = 'rbac.authorization.k8s.io';

function role(form: ShortForm, kind: 'Role' | 'ClusterRole', name: string): KubeObject {
  const metadata = metadataOf(form, name);
  if (kind === 'ClusterRole') delete metadata.namespace;
  return compact({ apiVersion: RBAC, kind, metadata, rules: form.list('rules') ?? [], aggregationRule: form.map('aggregationRule') });
}

function roleRefOf(form: ShortForm, defaultKind: 'Role' | 'ClusterRole', what: string): Record<string, unknown> {
  const value = form.raw('roleRef');
  if (value === undefined) throw manifestError(`${what} need "roleRef"`);
  if (isPlainMap(value)) return { apiGroup: RBAC_GROUP, kind: defaultKind, ...value };
  return { apiGroup: RBAC_GROUP, kind: defaultKind, name: form.requiredString('roleRef', what) };
}

function subjectsOf(form: ShortForm, context: BuildContext, what: string): unknown[] {
  const subjects: unknown[] = (form.list('subjects') ?? []).map((item, index) => {
    if (!isPlainMap(item)) throw manifestError(`"subjects[${index}]" must be a map`);
    if (item['kind'] === 'ServiceAccount' && item['namespace'] === undefined && context.parent.namespace !== undefined) {
      return { ...item, namespace: context.parent.namespace };
    }
    return item;
  });
  const account = form.string('serviceAccount');
  if (account !== undefined) subjects.push(compact({ kind: 'ServiceAccount', name: account, namespace: context.parent.namespace }));
  if (subjects.length === 0) throw manifestError(`${what} need "subjects" or "serviceAccount"`);
  return subjects;
}

function binding(form: ShortForm, context: BuildContext, kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, what: string): KubeObject {
  const metadata = metadataOf(form, name);
  if (kind === 'ClusterRoleBinding') delete metadata.namespace;
  const roleKind = kind === 'RoleBinding' ? 'Role' : 'ClusterRole';
  return { apiVersion: RBAC, kind, metadata, roleRef: roleRefOf(form, roleKind, what), subjects: subjectsOf(form, context, what) };
}

export const rolesBuilder: KindBuilder = {
  produces: { apiVersion: RBAC, kind: 'Role' },
  fields: ['rules'],
  build: (body, context) => role(new ShortForm(body), 'Role', defaultName(context, 'role')),
};

export const clusterRolesBuilder: KindBuilder = {
  produces: { apiVersion: RBAC, kind: 'ClusterRole' },
  fields: ['rules', 'aggregationRule'],
  build: (body, context) => role(new ShortForm(body), 'ClusterRole', defaultClusterName(context, 'clusterrole')),
};

export const roleBindingsBuilder: KindBuilder = {
  produces: { apiVersion: RBAC, kind: 'RoleBinding' },
  fields: ['roleRef', 'subjects', 'serviceAccount'],
  build: (body, context) => binding(new ShortForm(body), context, 'RoleBinding', defaultName(context, 'rolebinding'), 'roleBindings'),
};

export const clusterRoleBindingsBuilder: KindBuilder = {
  produces: { apiVersion: RBAC, kind: 'ClusterRoleBinding' },
  fields: ['roleRef', 'subjects', 'serviceAccount'],
  build: (body, context) =>
    binding(new ShortForm(body), context, 'ClusterRoleBinding', defaultClusterName(context, 'clusterrolebinding'), 'clusterRoleBindings'),
};
