import { CoreError } from '../errors';
import { toWellFormed } from '../text/cut-text';

/**
 * The fields of a resource link: a resource the client can fetch by `uri` (MCP `resources/read`), named for people
 * and models. The shape of MCP's `resource_link` content (MCP specification 2025-06-18, "Resource Links",
 * https://modelcontextprotocol.io/specification/2025-06-18/server/tools#resource-links).
 */
export interface ResourceLinkInit {
  /** The resource's URI (any scheme: `file:`, `https:`, or a server's own such as `tool-output:`). Not empty. */
  readonly uri: string;
  /** The resource's name. Not empty. */
  readonly name: string;
  /** A display name for people. */
  readonly title?: string | undefined;
  /** What the resource holds, a hint for the model. */
  readonly description?: string | undefined;
  /** Its media type, when known. */
  readonly mimeType?: string | undefined;
  /** Its size in bytes (before any encoding), when known. */
  readonly size?: number | undefined;
}

const LINK_BRAND = Symbol.for('agenttoolkit.ResourceLink');
const LINKED_BRAND = Symbol.for('agenttoolkit.LinkedContent');

/**
 * A link to a resource, as a tool result carries it (see `ActionResult.resourceLink`). Frozen; its JSON form is the
 * MCP `resource_link` content block (`{ type: 'resource_link', uri, name, ... }`).
 */
export class ResourceLink implements ResourceLinkInit {
  declare readonly uri: string;
  declare readonly name: string;
  declare readonly title?: string;
  declare readonly description?: string;
  declare readonly mimeType?: string;
  declare readonly size?: number;

  /**
   * @throws CoreError `INVALID_RESULT` when `uri` or `name` is not a non-empty string, an optional text field is not a
   *   string, or `size` is not a non-negative finite number.
   */
  constructor(init: ResourceLinkInit) {
    const fields = (init ?? {}) as unknown as Record<string, unknown>;
    for (const key of ['uri', 'name'] as const) {
      if (typeof fields[key] !== 'string' || fields[key] === '') throw new CoreError('INVALID_RESULT', `A resource link needs a non-empty string '${key}'.`);
    }
    const self = this as unknown as Record<string, unknown>;
    self.uri = toWellFormed(init.uri);
    self.name = toWellFormed(init.name);
    for (const key of ['title', 'description', 'mimeType'] as const) {
      const value = fields[key];
      if (value === undefined) continue;
      if (typeof value !== 'string') throw new CoreError('INVALID_RESULT', `A resource link's '${key}' must be a string.`);
      self[key] = toWellFormed(value);
    }
    if (init.size !== undefined) {
      if (typeof init.size !== 'number' || !Number.isFinite(init.size) || init.size < 0) throw new CoreError('INVALID_RESULT', "A resource link's 'size' must be a non-negative number of bytes.");
      self.size = init.size;
    }
    Object.freeze(this);
  }

  /** The MCP `resource_link` content block. */
  toJSON(): { type: 'resource_link'; uri: string; name: string; title?: string; description?: string; mimeType?: string; size?: number } {
    return { type: 'resource_link', ...this };
  }
}
Object.defineProperty(ResourceLink.prototype, LINK_BRAND, { value: true });

/** True for a {@link ResourceLink} of this or another copy of the library. */
export function isResourceLink(value: unknown): value is ResourceLink {
  return value instanceof ResourceLink || (typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[LINK_BRAND] === true);
}

/**
 * Text for the model together with links to resources: the value of a result built by `ActionResult.resourceLink`,
 * and of a result whose text an output budget cut and saved. Providers with resource links (MCP) send the text and a
 * `resource_link` block per link; the others send the text only, so the text must tell the model what it needs.
 * Frozen.
 */
export class LinkedContent {
  readonly text: string;
  readonly links: readonly ResourceLink[];

  /** @param text - the model-facing text (made well-formed). @param links - the links (each checked as a {@link ResourceLink}). */
  constructor(text: string, links: ReadonlyArray<ResourceLink | ResourceLinkInit>) {
    this.text = toWellFormed(String(text));
    this.links = Object.freeze(links.map((link) => (isResourceLink(link) ? link : new ResourceLink(link))));
    Object.freeze(this);
  }

  /** The text (so `String(result.result)` is what the model reads). */
  toString(): string {
    return this.text;
  }

  /** `{ text, links }`, each link as its `resource_link` block. */
  toJSON(): { text: string; links: ReturnType<ResourceLink['toJSON']>[] } {
    return { text: this.text, links: this.links.map((link) => link.toJSON()) };
  }
}
Object.defineProperty(LinkedContent.prototype, LINKED_BRAND, { value: true });

/** True for a {@link LinkedContent} of this or another copy of the library. */
export function isLinkedContent(value: unknown): value is LinkedContent {
  return value instanceof LinkedContent || (typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[LINKED_BRAND] === true);
}

/** The text a model reads for a link on its own: `Resource <name>: <uri>` with its media type and description. */
export function describeLink(link: ResourceLinkInit): string {
  const type = link.mimeType === undefined ? '' : ` (${link.mimeType})`;
  const about = link.description === undefined ? '' : `: ${link.description}`;
  return `Resource '${link.title ?? link.name}' at ${link.uri}${type}${about}`;
}
