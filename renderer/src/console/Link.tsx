import type { ReactNode } from 'react';
import { useShell } from './context.ts';
import { followsInPage } from './router.ts';

/** A link to a console path, followed without reloading the page. */
export function Link(props: { to: string; children: ReactNode; className?: string; current?: boolean }) {
  const { navigate } = useShell();
  return (
    <a
      href={props.to}
      className={props.className}
      aria-current={props.current ? 'page' : undefined}
      onClick={(event) => {
        if (!followsInPage(event)) return;
        event.preventDefault();
        navigate(props.to);
      }}
    >
      {props.children}
    </a>
  );
}
