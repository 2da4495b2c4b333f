/** Hands a file to the browser's downloads (the headless host's way of saving an export). */
export function downloadFile(fileName: string, mimeType: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: `${mimeType};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own reference to the data once started; the URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
