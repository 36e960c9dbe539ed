/**
 * The tag of a container image reference, as the kubelet's image parser reads it (the docker/distribution reference
 * grammar, normalized): the tag when there is one, `latest` when there is neither a tag nor a digest, and `''` for a
 * reference the grammar refuses or one with only a digest. kube-apiserver defaults `imagePullPolicy` from it.
 */
const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const DOMAIN_PART = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_PART}(?:\\.${DOMAIN_PART})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^((?:${DOMAIN}/)?${COMPONENT}(?:/${COMPONENT})*)(?::(${TAG}))?(?:@(${DIGEST}))?$`);
/** A 64-hex-digit name is an image ID, which the normalizing parser refuses as a reference. */
const IMAGE_ID = /^[a-f0-9]{64}$/;
const NAME_MAX = 255;

/** The tag kube-apiserver's defaulting reads from `image`: the tag, `latest` when none is given, `''` when unparsable or digest only. */
export function imageTag(image: string): string {
  if (IMAGE_ID.test(image)) return '';
  const match = REFERENCE.exec(image);
  if (match === null || (match[1] ?? '').length > NAME_MAX) return '';
  const [, , tag, digest] = match;
  if (tag !== undefined) return tag;
  return digest === undefined ? 'latest' : '';
}
