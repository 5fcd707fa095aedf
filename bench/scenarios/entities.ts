// Entity search over the full default graph (built at start: ~136,000 countries, cities, languages, currencies):
// whole-name queries, accent-less prefix queries (short and long prefixes), and queries restricted by type.
import type { BenchScenario, RequestFactory } from '../scenario.ts';

const KEY = 'bench-dev-api-key';

/**
 * Each request one never sent before (a `quotaUser` of its own): answers of 200 are kept, and the ten queries of a
 * scenario would otherwise be answered from memory after their first time, measuring the kept answer, not the search
 * (entities.get-by-id measures that one).
 */
export const unseen: RequestFactory = () => {
  let n = 0;
  return (req) => ({ ...req, path: `${req.path}&quotaUser=${(n++).toString(36)}` });
};

// autocannon sends each connection through the list in turn, so no one lucky query decides the figures.
const sequence = (params: string[]) =>
  params.map((p) => ({ path: `/v1/entities:search?key=${KEY}&${p}`, computedBy: { module: import.meta.url, factory: 'unseen' } }));

const NAMES = ['paris', 'new%20york%20city', 'tokyo', 'france', 'san%20jose', 'springfield', 'euro', 'french', 'santa%20cruz', 'london'];
const PREFIXES = ['sao%20pau', 's', 'new%20y', 'ber', 'lo', 'santa', 'mu', 'k', 'port%20', 'ch'];
const TYPED = ['query=a&prefix=true&types=Country', 'query=french&types=Language', 'query=san&types=City', 'query=e&prefix=true&types=Language', 'query=paris&types=Country', 'query=l&prefix=true&types=Continent'];

export const scenarios: BenchScenario[] = [
  {
    name: 'entities.search.name',
    service: 'entities',
    async setup() {
      return { requests: sequence(NAMES.map((q) => `query=${q}&limit=10`)) };
    },
  },
  {
    name: 'entities.search.prefix',
    service: 'entities',
    async setup() {
      return { requests: sequence(PREFIXES.map((q) => `query=${q}&prefix=true&limit=20`)) };
    },
  },
  {
    name: 'entities.search.type',
    service: 'entities',
    async setup() {
      return { requests: sequence(TYPED.map((q) => `${q}&limit=20`)) };
    },
  },
];
