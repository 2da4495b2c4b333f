import { randomUUID } from 'node:crypto';
import { RequestError, type ContentBlock } from '@agentclientprotocol/sdk';
import type { LocalHostClient } from '../host-client/local-host-client';

export interface PromptParts {
  /** The message Cairn's turn starts with. */
  readonly text: string;
  /** Images of the prompt, stored as the session's attachments. */
  readonly attachmentIds: readonly string[];
}

const IMAGE_EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/**
 * An ACP prompt as a Cairn message: text as it is, a file the editor embedded as a fenced block
 * naming it, a link to a file as its path (the agent reads it with its tools), and images as
 * attachments of the session.
 */
export async function promptParts(
  host: LocalHostClient,
  sessionId: string,
  blocks: readonly ContentBlock[],
): Promise<PromptParts> {
  const texts: string[] = [];
  const attachmentIds: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        texts.push(block.text);
        break;
      case 'resource_link':
        texts.push(`[${block.name}](${block.uri})`);
        break;
      case 'resource':
        if ('text' in block.resource) texts.push(`${block.resource.uri}\n\`\`\`\n${block.resource.text}\n\`\`\``);
        else texts.push(`[${block.resource.uri}] (binary content, not included)`);
        break;
      case 'image': {
        const extension = IMAGE_EXTENSIONS[block.mimeType];
        if (extension === undefined)
          throw RequestError.invalidParams(undefined, `Images of type ${block.mimeType} are not supported`);
        const attachmentId = `acp-${randomUUID()}`;
        const added = await host.invoke('attachment.add', {
          sessionId,
          attachmentId,
          name: `image-${attachmentIds.length + 1}.${extension}`,
          dataBase64: block.data,
        });
        if (!added.ok) throw RequestError.invalidParams(undefined, added.error.message);
        attachmentIds.push(attachmentId);
        break;
      }
      case 'audio':
        throw RequestError.invalidParams(undefined, 'Cairn does not take audio');
    }
  }
  const text = texts.join('\n\n');
  if (text.trim() === '' && attachmentIds.length === 0)
    throw RequestError.invalidParams(undefined, 'The prompt is empty');
  return { text: text.trim() === '' ? 'See the attached image.' : text, attachmentIds };
}
