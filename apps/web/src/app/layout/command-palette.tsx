import { Search } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { CurrentUser } from '@outlay/contracts/auth';

// The palette (cmdk, the search, the screen catalogue's grouping) is loaded when first opened, or
// when the pointer or focus comes to its button: no screen waits for it on a slow phone.
const loadDialog = () => import('./command-palette-dialog');
const CommandPaletteDialog = lazy(loadDialog);
const preload = () => void loadDialog().catch(() => undefined);

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/**
 * Go to any screen by name: Ctrl+K (⌘K on a Mac) or the top bar's search button. Escape closes
 * it and focus goes back to where it was.
 */
export function CommandPalette({ user }: { user: CurrentUser }) {
  const [open, setOpenState] = useState(false);
  // Mounted from the first opening on, so closing keeps the dialog's own focus return and animation.
  const [used, setUsed] = useState(false);
  // Where focus was when the palette opened (the search button, or wherever Ctrl+K was pressed):
  // it goes back there on close. Radix returns focus only to its own Trigger, which Ctrl+K bypasses.
  const returnTo = useRef<HTMLElement | null>(null);
  // The typed text also searches the records (debounced); the results come under the screens.
  const [text, setText] = useState('');
  const setOpen = (next: boolean) => {
    if (next && !open) returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (next) setUsed(true);
    // Closed however (Escape, a click outside, Ctrl+K again), it opens next time empty, listing every screen.
    if (!next) setText('');
    setOpenState(next);
  };

  const toggle = useRef(() => {});
  useEffect(() => {
    toggle.current = () => setOpen(!open);
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        toggle.current();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        onPointerEnter={preload}
        onFocus={preload}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-keyshortcuts="Control+K Meta+K"
        aria-label="Search screens"
        data-testid="command-palette-button"
        className="inline-flex h-9 shrink-0 items-center gap-2 rounded-md border bg-card px-2.5 text-sm text-slate-600 shadow-xs transition-colors hover:bg-slate-50 hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring cursor-pointer"
      >
        <Search className="size-4" aria-hidden="true" />
        <span className="hidden 2xl:inline">Search…</span>
        <kbd className="hidden rounded border bg-slate-50 px-1.5 font-sans text-[11px] text-slate-600 2xl:inline">
          {isMac ? '⌘K' : 'Ctrl K'}
        </kbd>
      </button>
      {used ? (
        <Suspense fallback={null}>
          <CommandPaletteDialog
            user={user}
            open={open}
            setOpen={setOpen}
            text={text}
            setText={setText}
            returnTo={returnTo}
          />
        </Suspense>
      ) : null}
    </>
  );
}
