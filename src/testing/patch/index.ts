/** The patch engines of the test API server: pure functions over JSON values. */
export { PatchError } from './patch-error.js';
export { applyMergePatch } from './merge-patch.js';
export { applyJsonPatch, applyDecodedJsonPatch, decodeJsonPatch, type JsonPatch } from './json-patch.js';
export { applyStrategicMergePatch, type StrategicKind } from './strategic-merge.js';
export { strategicSchemaFor, listKeysFor, OBJECT_META_LIST_KEYS, type StrategicSchema, type ListStrategy } from './strategic-keys.js';
export { recordUpdate, type ManagedFieldsEntry, type ListKeyLookup, type ObjectsByVersion, type VersionPair } from './managed-fields.js';
export { serverSideApply, ApplyConflictError, type ApplyResult, type FieldConflict } from './server-side-apply.js';
