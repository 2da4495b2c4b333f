/** One numbered schema change. Versions are applied in order and recorded in `PRAGMA user_version`. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly up: string;
}
