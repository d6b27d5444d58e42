// Light/dark: follows the system until the reader picks one with the toggle (remembered locally).
export function initThemeToggle(): void {
  const button = document.querySelector<HTMLButtonElement>('.theme-toggle');
  if (!button) return;
  const root = document.documentElement;
  const current = (): 'light' | 'dark' => (root.dataset.theme as 'light' | 'dark' | undefined) ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  const sync = (): void => button.setAttribute('aria-pressed', String(current() === 'dark'));
  sync();
  button.addEventListener('click', () => {
    const next = current() === 'dark' ? 'light' : 'dark';
    root.dataset.theme = next;
    try {
      localStorage.setItem('theme', next);
    } catch {
      /* private mode: the choice lasts for this page only */
    }
    sync();
  });
}
