/**
 * A service the wiring refers to before it is built (services that need each other): read it with
 * get() once it is set; current is null until then, for callers that have a fallback.
 */
export class BuiltLater<T> {
  private value: T | null = null;

  constructor(private readonly notReady: string) {}

  set(value: T): T {
    this.value = value;
    return value;
  }

  get current(): T | null {
    return this.value;
  }

  get(): T {
    if (this.value === null) throw new Error(this.notReady);
    return this.value;
  }
}
