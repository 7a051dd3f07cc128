/** Hands a file the page received (an export) to the browser to save, under a name. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click's task ran.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
