import { useRef } from 'react';

/**
 * Where focus goes back when a dialog closes (Escape, Cancel, the close button, a save).
 *
 * Radix returns focus to whatever was focused when the dialog opened. Most dialogs here are
 * opened from a row's actions menu, whose item is gone by the time the dialog closes, so focus
 * fell to the page's start. This remembers the control a person last activated (a menu item
 * counts as its menu's trigger button) and hands focus back to it.
 */
let lastActivated: HTMLElement | null = null;

const ACTIVATABLE =
  'button, a[href], [role="menuitem"], [role="menuitemcheckbox"], [role="option"], [role="tab"], input, select, textarea, [tabindex]';

/** A menu item stands for the button that opened its menu (Radix marks it with aria-controls). */
function openerOf(el: Element | null): HTMLElement | null {
  if (!(el instanceof HTMLElement) || el === document.body) return null;
  const menu = el.closest('[role="menu"]');
  if (menu?.id) {
    const trigger = document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(menu.id)}"]`);
    if (trigger) return trigger;
  }
  return menu ? null : el;
}

function remember(target: EventTarget | null) {
  const el = target instanceof Element ? target.closest(ACTIVATABLE) : null;
  const opener = openerOf(el);
  if (opener) lastActivated = opener;
}

if (typeof document !== 'undefined') {
  document.addEventListener('pointerdown', (event) => remember(event.target), true);
  document.addEventListener(
    'keydown',
    (event) => {
      if (event.key === 'Enter' || event.key === ' ') remember(event.target);
    },
    true,
  );
}

function focusable(el: HTMLElement | null): el is HTMLElement {
  return Boolean(
    el?.isConnected && !el.closest('[inert], [aria-hidden="true"]') && !(el as HTMLButtonElement).disabled,
  );
}

/** Handlers for a Radix Dialog.Content: pass them through with the caller's own. */
export function useReturnFocus(own: {
  onOpenAutoFocus?: (event: Event) => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event: Event) => {
      // Still focused (a button that opened it directly) or, from a menu, the menu's trigger.
      opener.current = openerOf(document.activeElement) ?? lastActivated;
      own.onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event: Event) => {
      own.onCloseAutoFocus?.(event);
      if (event.defaultPrevented) return;
      const target = opener.current;
      opener.current = null;
      if (focusable(target)) {
        event.preventDefault();
        target.focus({ preventScroll: true });
      }
    },
  };
}
