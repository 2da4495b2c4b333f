import { describe, expect, it } from 'vitest';
import {
  attachmentRefsIn,
  attachmentRefusal,
  classifyAttachment,
  imageRefusal,
  MAX_IMAGE_ATTACHMENT_BYTES,
  MAX_TEXT_ATTACHMENT_BYTES,
} from './attachment-model';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('classifyAttachment', () => {
  it('sends UTF-8 files as text whatever their name, and images by their first bytes', () => {
    expect(classifyAttachment('notes.ts', utf8('const x = "é";\n'))).toEqual({ kind: 'text', mediaType: 'text/plain' });
    expect(classifyAttachment('picture.txt', PNG)).toEqual({ kind: 'image', mediaType: 'image/png' });
    expect(classifyAttachment('p.jpg', Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toEqual({
      kind: 'image',
      mediaType: 'image/jpeg',
    });
  });

  it('refuses binary files that are not images, naming the file', () => {
    const refused = classifyAttachment('archive.zip', Uint8Array.from([0x50, 0x4b, 3, 4, 0, 0]));
    expect(refused).toEqual({
      refusal: expect.stringContaining('“archive.zip” is neither a text file nor a PNG, JPEG, GIF or WebP image'),
    });
    expect(classifyAttachment('latin1.txt', Uint8Array.from([0x63, 0x61, 0x66, 0xe9]))).toHaveProperty('refusal');
  });

  it('refuses text over 1 MB and images over 5 MB, saying the size and the limit', () => {
    const big = new Uint8Array(MAX_TEXT_ATTACHMENT_BYTES + 1).fill(0x61);
    expect(classifyAttachment('big.log', big)).toEqual({
      refusal: '“big.log” is 1 MB; text files can be at most 1 MB.',
    });
    expect(classifyAttachment('ok.log', big.subarray(1))).toMatchObject({ kind: 'text' });
    const image = new Uint8Array(MAX_IMAGE_ATTACHMENT_BYTES + 600_000);
    image.set(PNG);
    expect(classifyAttachment('huge.png', image)).toEqual({
      refusal: '“huge.png” is 5.6 MB; images can be at most 5 MB.',
    });
  });
});

describe('which models take images', () => {
  it('accepts OpenAI and Anthropic, vision models on Ollama, and refuses the Offline demo and text-only models plainly', () => {
    expect(imageRefusal({ providerType: 'openai', modelId: 'gpt-4o-mini' })).toBeNull();
    expect(imageRefusal({ providerType: 'anthropic', modelId: 'claude-sonnet-4' })).toBeNull();
    expect(imageRefusal({ providerType: 'ollama', modelId: 'llava:13b' })).toBeNull();
    expect(imageRefusal({ providerType: 'ollama', modelId: 'llama3.1:8b' })).toMatch(
      /^llama3\.1:8b does not accept images/,
    );
    expect(imageRefusal({ providerType: 'scripted', modelId: 'scripted' })).toMatch(
      /^The Offline demo cannot look at images/,
    );
    expect(attachmentRefusal('text', { providerType: 'scripted', modelId: 'scripted' })).toBeNull();
    expect(attachmentRefusal('text', { providerType: 'codex', modelId: 'gpt-5' })).toMatch(/Codex/);
  });
});

describe('attachmentRefsIn', () => {
  it('reads well-formed references from transcript data and ignores anything else', () => {
    const ref = { attachmentId: 'a1', name: 'n.txt', mediaType: 'text/plain', kind: 'text', sizeBytes: 3 };
    expect(attachmentRefsIn({ attachments: [ref, { attachmentId: 5 }, null] })).toEqual([ref]);
    expect(attachmentRefsIn(null)).toEqual([]);
    expect(attachmentRefsIn({ attachments: 'x' })).toEqual([]);
  });
});
