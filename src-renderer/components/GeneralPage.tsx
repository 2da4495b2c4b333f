import type { ReactNode } from 'react';
import { TEXT_SIZES, THEMES, type TextSize, type Theme } from '../state/appearance';
import { notificationsOn } from '../state/preferences-slice';
import { useAppStore, useStoreApi } from '../state/store-context';

const THEME_LABELS: Record<Theme, string> = { system: 'System', light: 'Light', dark: 'Dark' };
const TEXT_SIZE_LABELS: Record<TextSize, string> = { small: 'Small', default: 'Default', large: 'Large' };

/** Settings → General: the theme and text size (this window's, applied at once), and desktop notifications in a browser tab. */
export function GeneralPage() {
  const store = useStoreApi();
  const appearance = useAppStore((state) => state.appearance);
  const notifications = useAppStore((state) => state.notifications);
  const actions = store.getState();
  return (
    <div className="general-page">
      <section className="settings-section" aria-labelledby="general-appearance">
        <h4 id="general-appearance">Appearance</h4>
        <Choices
          label="Theme"
          options={THEMES}
          labels={THEME_LABELS}
          chosen={appearance.theme}
          onChoose={(theme) => actions.setAppearance({ theme })}
        />
        <Choices
          label="Text size"
          options={TEXT_SIZES}
          labels={TEXT_SIZE_LABELS}
          chosen={appearance.textSize}
          onChoose={(textSize) => actions.setAppearance({ textSize })}
        />
        <p className="settings-note">
          Kept in this browser or window. System follows your computer’s light or dark setting.
        </p>
      </section>
      {notifications.offered ? (
        <section className="settings-section" aria-labelledby="general-notifications">
          <h4 id="general-notifications">Desktop notifications</h4>
          <label className="check-row">
            <input
              type="checkbox"
              checked={notificationsOn(notifications)}
              disabled={notifications.permission === 'denied'}
              onChange={(event) => void actions.setNotificationsOn(event.target.checked)}
            />
            <span>
              Notify me when a turn finishes or a question or permission request waits, while this tab is in the
              background
            </span>
          </label>
          <NotificationNote>
            {notifications.permission === 'denied'
              ? 'This browser blocks notifications from Cairn. Allow them in the site settings (the icon left of the address), then reload.'
              : notifications.dismissed
                ? 'The browser’s permission prompt was closed without an answer, so notifications stay off. Tick the box to be asked again.'
                : notifications.permission === 'default'
                  ? 'Your browser will ask once for permission.'
                  : null}
          </NotificationNote>
        </section>
      ) : null}
    </div>
  );
}

function NotificationNote({ children }: { children: ReactNode }) {
  if (children === null) return null;
  return (
    <p className="settings-note" data-testid="notifications-note">
      {children}
    </p>
  );
}

function Choices<Value extends string>({
  label,
  options,
  labels,
  chosen,
  onChoose,
}: {
  label: string;
  options: readonly Value[];
  labels: Record<Value, string>;
  chosen: Value;
  onChoose: (value: Value) => void;
}) {
  return (
    <fieldset className="general-choices">
      <legend>{label}</legend>
      <div className="choice-row">
        {options.map((option) => (
          <label key={option} className={`choice choice-compact${chosen === option ? ' is-checked' : ''}`}>
            <input
              type="radio"
              name={label}
              value={option}
              checked={chosen === option}
              onChange={() => onChoose(option)}
            />
            <span className="choice-label">{labels[option]}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
