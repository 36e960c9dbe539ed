/**
 * A stored object and its serialisation. An object is serialised once per write, without `apiVersion` and `kind`;
 * responses, list items and watch events are assembled from that string by prefixing the version and kind the
 * client asked for (`kind` first for a built-in kind, as Go's struct has it; `apiVersion` first for a custom resource,
 * whose keys Go sorts). A record is never mutated after it is stored.
 */

/** A Kubernetes object as JSON. */
export type KubeObject = Record<string, unknown>;

/** One stored object. */
export interface StoredRecord {
  /** The object, with the storage apiVersion; shared, never mutated. */
  readonly object: KubeObject;
  /** JSON of the object without apiVersion and kind, from just after its opening brace. */
  readonly body: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly rv: number;
  readonly labels: Readonly<Record<string, string>>;
  /** The object's text begins with `kind` (a built-in kind), not `apiVersion`. */
  readonly kindFirst: boolean;
}

/** `object.metadata` as a record (an empty one when missing). */
export function metadataOf(object: KubeObject): Record<string, unknown> {
  const metadata = object['metadata'];
  return typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) ? (metadata as Record<string, unknown>) : {};
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function labelsOf(metadata: Record<string, unknown>): Record<string, string> {
  const labels = metadata['labels'];
  if (typeof labels !== 'object' || labels === null) return {};
  return labels as Record<string, string>;
}

/**
 * The JSON of `object` without apiVersion and kind, from just after its opening brace. Most objects begin with
 * those two fields (clients send them first): their JSON is cut after them instead of copying the object without them.
 */
function bodyJson(object: KubeObject): string {
  const apiVersion = object['apiVersion'];
  const kind = object['kind'];
  if (typeof apiVersion === 'string' && typeof kind === 'string' && plainJsonString(apiVersion) && plainJsonString(kind)) {
    // `{"apiVersion":"<apiVersion>","kind":"<kind>",` compared in place: no prefix string is built.
    const json = JSON.stringify(object);
    const kindAt = 15 + apiVersion.length + 10; // after `{"apiVersion":"`, the version, `","kind":"`
    const bodyAt = kindAt + kind.length + 2; // after the kind, `",`
    if (
      json.startsWith('{"apiVersion":"') &&
      json.startsWith(apiVersion, 15) &&
      json.startsWith('","kind":"', kindAt - 10) &&
      json.startsWith(kind, kindAt) &&
      json.startsWith('",', bodyAt - 2)
    ) {
      return json.slice(bodyAt);
    }
  }
  const rest: KubeObject = {};
  for (const key of Object.keys(object)) {
    if (key !== 'apiVersion' && key !== 'kind') rest[key] = object[key];
  }
  return JSON.stringify(rest).slice(1);
}

/** True when JSON spells `text` as itself between quotes: printable ASCII without `"` and `\\`. */
function plainJsonString(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 32 || c > 126 || c === 34 || c === 92) return false;
  }
  return true;
}

/**
 * Serialises `object` (already complete: metadata set, resourceVersion assigned, in the form the server writes it)
 * into a record; `kindFirst` for a built-in kind.
 */
export function makeRecord(object: KubeObject, kindFirst: boolean): StoredRecord {
  const body = bodyJson(object);
  const metadata = metadataOf(object);
  return {
    object,
    body: body === '}' ? '"metadata":{}}' : body,
    namespace: stringOf(metadata['namespace']),
    name: stringOf(metadata['name']),
    uid: stringOf(metadata['uid']),
    rv: Number(metadata['resourceVersion'] ?? 0),
    labels: labelsOf(metadata),
    kindFirst,
  };
}

/** The JSON of the object as `apiVersion` `kind`. */
export function objectJson(record: StoredRecord, apiVersion: string, kind: string): string {
  if (record.kindFirst) return `{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)},${record.body}`;
  return `{"apiVersion":${JSON.stringify(apiVersion)},"kind":${JSON.stringify(kind)},${record.body}`;
}

/** The JSON of a built-in list item (no apiVersion, no kind). */
export function bareJson(record: StoredRecord): string {
  return `{${record.body}`;
}

/** A fresh deep copy of the object as `apiVersion` (parsed from the stored JSON). */
export function copyObject(record: StoredRecord, apiVersion: string, kind: string): KubeObject {
  return JSON.parse(objectJson(record, apiVersion, kind)) as KubeObject;
}
