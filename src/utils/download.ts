/**
 * Saves `text` as a file named `filename`: a Blob behind an object URL, clicked through a
 * temporary <a download> (no navigation, works for text the API returned as JSON).
 */
export const saveTextFile = (text: string, filename: string, type = 'application/yaml'): void => {
  const blob = new Blob([text], { type });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.appendChild(anchor);
  try {
    anchor.click();
  } finally {
    anchor.remove();
    // Revoked after the browser has started the download.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
};
