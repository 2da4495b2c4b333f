import { useEffect, useRef, useState, type RefObject } from 'react';

/**
 * After a refused submit, focus moves to the form's first invalid field (or the first control of an
 * invalid group), as the best forms do, instead of staying on the Submit button.
 */
export function useFocusFirstInvalid<T extends HTMLElement>(): { readonly ref: RefObject<T | null>; refused(): void } {
  const ref = useRef<T | null>(null);
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals === 0) return;
    const invalid = ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    const target =
      invalid instanceof HTMLFieldSetElement
        ? invalid.querySelector<HTMLElement>('input:not(:disabled), select:not(:disabled), textarea:not(:disabled)')
        : invalid;
    target?.focus();
  }, [refusals]);
  return { ref, refused: () => setRefusals((count) => count + 1) };
}
