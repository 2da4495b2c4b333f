import { retryingImport } from '../platform/retrying-import';

type AsyncAction = (...args: never[]) => Promise<unknown>;

/**
 * A slice's rarely used actions, with their bodies in a module loaded on the first call (its own chunk,
 * out of the first load). The slice keeps its state, its event reducers and these stand-ins in the
 * store; each stand-in loads the module once and calls the real action. `names` lists every action the
 * module makes, so a new one cannot be left out.
 */
export function deferredActions<Actions extends Record<keyof Actions, AsyncAction>>(
  names: Readonly<Record<keyof Actions, true>>,
  load: () => Promise<Actions>,
): Actions {
  let loading: Promise<Actions> | null = null;
  const loaded = () => {
    loading ??= retryingImport(load).catch((error: unknown) => {
      // Not cached: the next call tries the module again.
      loading = null;
      throw error;
    });
    return loading;
  };
  const standIn =
    (name: keyof Actions) =>
    async (...args: never[]) => {
      const actions = await loaded();
      return actions[name](...args);
    };
  return Object.fromEntries(
    Object.keys(names).map((name) => [name, standIn(name as keyof Actions)]),
  ) as unknown as Actions;
}
