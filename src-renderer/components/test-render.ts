import type { ReactNode } from 'react';
import { prerender } from 'react-dom/static';

/**
 * Test support: the markup of `element` once every view it loads on first use (React.lazy) has
 * loaded, as renderToStaticMarkup gives it (without the Suspense boundaries' and text separators' comments).
 */
export async function renderWhenLoaded(element: ReactNode): Promise<string> {
  const { prelude } = await prerender(element);
  const html = await new Response(prelude).text();
  return html.replace(/<!--(?: |\/?[$?!]?)-->|<template[^>]*><\/template>/g, '');
}
