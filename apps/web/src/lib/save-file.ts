/** Hands a file to the browser's downloads. */
export const saveFile = (blob: Blob, name: string) => {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has the data by now; free it after the click's task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
};
