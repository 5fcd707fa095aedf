// Entity search: a name query and a prefix query over the seeded graph plus 20,000 generated entities.
import type { BenchScenario } from '../scenario.ts';

const KEY = 'bench-dev-api-key';

async function loadGenerated(adminUrl: string): Promise<void> {
  const words = ['north', 'river', 'stone', 'field', 'harbor', 'maple', 'silver', 'crown', 'lake', 'ridge'];
  for (let batch = 0; batch < 20; batch++) {
    const docs = Array.from({ length: 1000 }, (_, i) => {
      const n = batch * 1000 + i;
      return {
        id: `/g/bench_${n}`,
        types: [n % 2 ? 'Place' : 'Organization'],
        names: { en: `${words[n % 10]} ${words[Math.floor(n / 10) % 10]} ${n}` },
        popularity: n % 997,
      };
    });
    const res = await fetch(`${adminUrl}/services/entities/entities`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(docs) });
    if (!res.ok) throw new Error(`loading bench entities failed: ${res.status}`);
  }
}

let loaded = false;

export const scenarios: BenchScenario[] = [
  {
    name: 'entities.search',
    service: 'entities',
    async setup(env) {
      if (!loaded) await loadGenerated(env.adminUrl);
      loaded = true;
      return { requests: [{ path: `/v1/entities:search?key=${KEY}&query=ada%20lovelace&limit=10` }] };
    },
  },
  {
    name: 'entities.search.prefix',
    service: 'entities',
    async setup(env) {
      if (!loaded) await loadGenerated(env.adminUrl);
      loaded = true;
      return { requests: [{ path: `/v1/entities:search?key=${KEY}&query=silver%20ma&prefix=true&limit=20` }] };
    },
  },
];
