// The country pages' copy buttons (a sha256 to the clipboard): hidden in the
// HTML, shown and wired here, so a page without script shows none.

/** Copies `text` to the clipboard; falls back to selecting a hidden field where the API is missing (http). */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy refused');
}

/** Makes every `button[data-copy]` copy its value and say so in its live region. */
export function enhanceCopyButtons(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
    button.hidden = false;
    const label = button.textContent;
    button.addEventListener('click', async () => {
      try {
        await copyText(button.dataset.copy ?? '');
        button.textContent = 'Copied';
      } catch {
        button.textContent = 'Copy failed';
      }
      setTimeout(() => (button.textContent = label), 2000);
    });
  }
}
