import type { ComponentProps } from 'react';
import type { ExtraProps } from 'react-markdown';
import { codeBlockLanguage, codeBlockText } from '../markdown/code-text';
import { CopyButton } from './CopyButton';

/** A fenced code block: the highlighted code with its language and a Copy button above it. */
export function CodeBlock({ node, children, ...rest }: ComponentProps<'pre'> & ExtraProps) {
  const language = codeBlockLanguage(node);
  return (
    <div className="code-block">
      <div className="code-block-header">
        {/* Shown through CSS so a message's text stays exactly what the agent wrote. */}
        <span className="code-block-language" data-label={language ?? 'text'} />
        <CopyButton getText={() => codeBlockText(node)} />
      </div>
      <pre {...rest}>{children}</pre>
    </div>
  );
}
