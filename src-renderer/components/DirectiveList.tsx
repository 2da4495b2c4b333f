import { DIRECTIVES } from './directives';

/** The Offline demo agent's directives, each with what it does (welcome screen and help panel). */
export function DirectiveList() {
  return (
    <dl className="directive-list">
      {DIRECTIVES.map((directive) => (
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
