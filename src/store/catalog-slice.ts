import { skippedText } from '../services/account';
import { describeError } from '../services/describe-error';
import type { GetState, SetState, StoreDeps } from './deps';
import type { BouquetsResponse, Load, Package } from './types';

export interface CatalogSlice {
  readonly packages: Load<readonly Package[]>;
  readonly bouquets: Load<BouquetsResponse>;
  /** Loads packages and bouquets once; `force` reloads them. */
  loadCatalog: (force?: boolean) => Promise<void>;
}

export function createCatalogSlice(set: SetState, get: GetState, deps: StoreDeps): CatalogSlice {
  return {
    packages: { status: 'idle' },
    bouquets: { status: 'idle' },
    async loadCatalog(force = false) {
      const { packages, bouquets } = get();
      const jobs: Promise<void>[] = [];
      if (force || packages.status === 'idle' || packages.status === 'error') {
        set({ packages: { status: 'loading' } });
        jobs.push(
          deps.client.packages().then(
            (r) => {
              set({ packages: { status: 'ready', data: r.packages } });
              if (r.skipped.length) get().notify(skippedText('package', r.skipped), 'error');
              // A form opened before the packages arrived gets its default now.
              const form = get().form;
              const first =
                form && form.values.packageId === null && r.packages.find((p) => p.is_trial === form.trial);
              if (form && first) {
                const { package: _gone, ...errors } = form.errors;
                set({ form: { ...form, values: { ...form.values, packageId: first.id }, errors } });
              }
            },
            (err) => set({ packages: { status: 'error', error: describeError(err) } }),
          ),
        );
      }
      if (force || bouquets.status === 'idle' || bouquets.status === 'error') {
        set({ bouquets: { status: 'loading' } });
        jobs.push(
          deps.client.bouquets().then(
            (r) => {
              set({ bouquets: { status: 'ready', data: r } });
              if (r.skipped.length) get().notify(skippedText('bouquet', r.skipped), 'error');
            },
            (err) => set({ bouquets: { status: 'error', error: describeError(err) } }),
          ),
        );
      }
      await Promise.all(jobs);
    },
  };
}
