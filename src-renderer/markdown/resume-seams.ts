import type { Element, ElementContent, Root } from 'hast';
import { SEAM, SEAM_BASE } from './seam-marks';

/** The rehype plugin: each seam character becomes an empty `span[data-resume-seam]`. */
export function rehypeResumeSeams() {
  return (tree: Root) => split(tree);
}

function split(node: Root | Element): void {
  const children: ElementContent[] = [];
  for (const child of node.children as ElementContent[]) {
    if (child.type === 'element') split(child);
    if (child.type !== 'text' || !SEAM.test(child.value)) {
      children.push(child);
      continue;
    }
    let rest = child.value;
    for (let match = SEAM.exec(rest); match !== null; match = SEAM.exec(rest)) {
      if (match.index > 0) children.push({ type: 'text', value: rest.slice(0, match.index) });
      const seam = rest.charCodeAt(match.index) - SEAM_BASE;
      children.push({ type: 'element', tagName: 'span', properties: { dataResumeSeam: String(seam) }, children: [] });
      rest = rest.slice(match.index + 1);
    }
    if (rest !== '') children.push({ type: 'text', value: rest });
  }
  node.children = children as typeof node.children;
}
