import { useDirectives } from './directives';

/** The Offline demo agent's directives, each with what it does (welcome screen and help panel). */
export function DirectiveList() {
  const directives = useDirectives();
  return (
    <dl className="directive-list">
      {directives.map((directive) => (
        <div key={directive.example} className="directive">
          <dt>
            <code>{directive.example}</code>
          </dt>
          <dd>{directive.what}</dd>
        </div>
      ))}
    </dl>
  );
}
