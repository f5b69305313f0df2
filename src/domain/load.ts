/** Every load has these outcomes: nothing yet, in flight, data, or failed (with the last data kept). */
export type Load<T> =
  | { readonly status: 'idle' }
  | {
      readonly status: 'loading';
      readonly data?: T;
      /** The read before this one failed (its data is older than that failure): what a retry is. */
      readonly afterError?: boolean;
    }
  | { readonly status: 'ready'; readonly data: T }
  | { readonly status: 'error'; readonly error: string; readonly data?: T };

/** The data of a load, whatever its state (errors keep the last data). */
export function loaded<T>(load: Load<T>): T | undefined {
  return 'data' in load ? load.data : undefined;
}

/**
 * Whether the load's last read failed: it failed, or it is being read again after failing (its data
 * kept is older than that failure). Not what a load in flight from a good read is.
 */
export function failedLast<T>(load: Load<T>): boolean {
  return load.status === 'error' || (load.status === 'loading' && load.afterError === true);
}
