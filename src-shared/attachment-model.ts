/**
 * Files a person attaches to a message: what may be attached, how each is sent, and which models
 * can take an image. Pure: used by the host at its boundary and by the renderer to refuse early.
 */
import type { ProviderType } from './connection-model';

/** How an attachment travels to the model: as text in the message, or as an image part. */
export type AttachmentKind = 'text' | 'image';

export const MAX_ATTACHMENTS_PER_MESSAGE = 10;
export const MAX_TEXT_ATTACHMENT_BYTES = 1024 * 1024;
/** Anthropic's own limit for one image; the others accept at least this. */
export const MAX_IMAGE_ATTACHMENT_BYTES = 5 * 1024 * 1024;
export const MAX_ATTACHMENT_NAME_LENGTH = 255;
/** Images every provider that takes images accepts. */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** A stored attachment, as clients see it. Its bytes live in the data directory, named by their hash. */
export interface AttachmentRecord {
  readonly attachmentId: string;
  readonly sessionId: string;
  readonly name: string;
  readonly mediaType: string;
  readonly kind: AttachmentKind;
  readonly sizeBytes: number;
  readonly sha256: string;
  readonly createdAt: number;
}

/** What a user message's transcript item keeps of each attachment (its `data.attachments`). */
export interface AttachmentRef {
  readonly attachmentId: string;
  readonly name: string;
  readonly mediaType: string;
  readonly kind: AttachmentKind;
  readonly sizeBytes: number;
}

export function refOf(record: AttachmentRecord): AttachmentRef {
  const { attachmentId, name, mediaType, kind, sizeBytes } = record;
  return { attachmentId, name, mediaType, kind, sizeBytes };
}

/** A size for people: `812 bytes`, `14 KB`, `2.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}

export type Classified = { readonly kind: AttachmentKind; readonly mediaType: string } | { readonly refusal: string };

/**
 * Decides how a file is sent, or why it cannot be. Images are recognised by their first bytes (not
 * by the name or the type a browser guessed); anything else must be UTF-8 text without NUL bytes.
 */
export function classifyAttachment(name: string, bytes: Uint8Array): Classified {
  const image = sniffImage(bytes);
  if (image !== null) {
    if (bytes.length > MAX_IMAGE_ATTACHMENT_BYTES) {
      return {
        refusal: `“${name}” is ${formatBytes(bytes.length)}; images can be at most ${formatBytes(MAX_IMAGE_ATTACHMENT_BYTES)}.`,
      };
    }
    return { kind: 'image', mediaType: image };
  }
  if (bytes.length > MAX_TEXT_ATTACHMENT_BYTES) {
    return {
      refusal: `“${name}” is ${formatBytes(bytes.length)}; text files can be at most ${formatBytes(MAX_TEXT_ATTACHMENT_BYTES)}.`,
    };
  }
  if (!isUtf8Text(bytes)) {
    return {
      refusal: `“${name}” is neither a text file nor a PNG, JPEG, GIF or WebP image, so it cannot be sent to a model.`,
    };
  }
  return { kind: 'text', mediaType: 'text/plain' };
}

function sniffImage(bytes: Uint8Array): (typeof IMAGE_MEDIA_TYPES)[number] | null {
  const starts = (...prefix: number[]) => prefix.every((byte, index) => bytes[index] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (
    starts(0x52, 0x49, 0x46, 0x46) &&
    bytes[8] === 0x57 &&
    bytes[9] === 0x45 &&
    bytes[10] === 0x42 &&
    bytes[11] === 0x50
  )
    return 'image/webp';
  return null;
}

function isUtf8Text(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The session's model, as far as attachments care. */
export interface AttachmentTarget {
  readonly providerType: ProviderType | 'scripted';
  readonly modelId: string;
}

/** Model names on Ollama and OpenAI-compatible servers that take images. */
const VISION_MODEL_PATTERN =
  /llava|bakllava|vision|moondream|minicpm-v|gemma3|qwen2\.5vl|qwen2\.5-vl|qwen-vl|qwen3-vl|mistral-small3\.[12]|granite3\.2-vision|llama4|pixtral|gpt-4o|gpt-4\.1|gpt-5|claude|gemini/i;

/** Why this model cannot take an image, or null when it can. */
export function imageRefusal(target: AttachmentTarget): string | null {
  switch (target.providerType) {
    case 'openai':
    case 'anthropic':
      return null;
    case 'ollama':
    case 'openai_compatible':
      return VISION_MODEL_PATTERN.test(target.modelId)
        ? null
        : `${target.modelId} does not accept images. Choose a vision model (for example llava or gemma3) for this session, or send text files only.`;
    case 'scripted':
      return 'The Offline demo cannot look at images. Choose a model that accepts images (OpenAI, Anthropic, or a vision model on Ollama) for this session.';
    case 'codex':
      return 'Codex sessions do not take attachments in Cairn yet.';
    case 'acp':
      return 'ACP agent sessions do not take attachments in Cairn yet.';
  }
}

/** Why this session cannot take this attachment, or null when it can. */
export function attachmentRefusal(kind: AttachmentKind, target: AttachmentTarget): string | null {
  if (target.providerType === 'codex') return 'Codex sessions do not take attachments in Cairn yet.';
  if (target.providerType === 'acp') return 'ACP agent sessions do not take attachments in Cairn yet.';
  return kind === 'image' ? imageRefusal(target) : null;
}

/** The attachments a user message's transcript item carries (none when its data has no list). */
export function attachmentRefsIn(data: Readonly<Record<string, unknown>> | null): AttachmentRef[] {
  const list = data?.attachments;
  if (!Array.isArray(list)) return [];
  return list.filter(isRef);
}

function isRef(value: unknown): value is AttachmentRef {
  if (typeof value !== 'object' || value === null) return false;
  const ref = value as Record<string, unknown>;
  return (
    typeof ref.attachmentId === 'string' &&
    typeof ref.name === 'string' &&
    typeof ref.mediaType === 'string' &&
    (ref.kind === 'text' || ref.kind === 'image') &&
    typeof ref.sizeBytes === 'number'
  );
}
