import { ApiError } from './errors';

/** Handler of an operation that is registered (routes, docs) but not built yet. */
export function notImplemented(what: string) {
  return async (): Promise<never> => {
    throw new ApiError('not-implemented', `${what} is not implemented yet`);
  };
}
