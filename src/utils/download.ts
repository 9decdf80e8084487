// Saving what the API answered as a file in the browser. The requests themselves are the data
// provider's (exportCsv, downloadNodeImage, createKubeconfig).

/**
 * Saves a Blob as a file named `filename`: an object URL clicked through a temporary
 * <a download> (no navigation; works for what the API returned as JSON or fetched binary).
 */
export const saveBlob = (blob: Blob, filename: string): void => {
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

/** Saves `text` as a file named `filename`. */
export const saveTextFile = (text: string, filename: string, type = 'application/yaml'): void =>
  saveBlob(new Blob([text], { type }), filename);
