// A backend of a large account for the list tests: `zones` zones and `accounts` accounts, paged by the mock's own list code
// (mock/src/lists.ts listReply, with the mock's bounds for GET /zones and GET /accounts: per_page 5-50), each zone's WAF status and
// an empty Logpush job list. The mock itself serves its seven zones and one account (mock/src/zones.ts), fixed: this serves the
// same pages for thousands. Every request is recorded (`received`), to count what a read sends.
import { listReply } from '../../../mock/src/lists';
import { json, startServer, type TestServer } from './server';

export interface LargeAccount extends TestServer {
  apiBaseUrl: string;
  /** The requests received whose path (without the query) matches. */
  count(path: RegExp): number;
}

export const zoneName = (i: number) => `zone${String(i).padStart(5, '0')}.example`;
export const accountName = (i: number) => `Account ${String(i).padStart(4, '0')}`;

export async function startLargeAccount(zones: number, accounts: number): Promise<LargeAccount> {
  const zoneList = Array.from({ length: zones }, (_, i) => ({ id: `z${i}`, name: zoneName(i), plan: { legacy_id: i % 10 ? 'pro' : 'enterprise' } }));
  const accountList = Array.from({ length: accounts }, (_, i) => ({ id: `a${i}`, name: accountName(i) }));
  const pages = { min: 5, max: 50, default: 20 };
  const srv = await startServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const path = url.pathname.replace(/^\/client\/v4/, '');
    let m: RegExpExecArray | null;
    if (path === '/zones') return reply(listReply(url.searchParams, zoneList, { perPage: pages }));
    if (path === '/accounts') return reply(listReply(url.searchParams, accountList, { perPage: pages }));
    if ((m = /^\/zones\/([^/]+)$/.exec(path))) {
      const z = zoneList.find((x) => x.id === m![1]);
      if (z) return json(res, 200, { success: true, errors: [], messages: [], result: z });
    }
    if ((m = /^\/zones\/([^/]+)\/waf_migration\/status$/.exec(path))) {
      return json(res, 200, { success: true, errors: [], messages: [], result: { migration_state: m[1] === 'z0' ? 'migrated' : 'start', old_rules_enabled: true, new_rules_enabled: false } });
    }
    if (/^\/zones\/[^/]+\/waf_migration\/check$/.test(path)) return json(res, 200, { success: true, errors: [], messages: [], result: { compatible: true, migration_state: 'start' } });
    if (/^\/(zones|accounts)\/[^/]+\/logpush\/jobs$/.test(path)) return json(res, 200, { success: true, errors: [], messages: [], result: [] });
    json(res, 404, { success: false, errors: [{ code: 7003, message: `No route for ${path}` }], messages: [], result: null });
    function reply(r: { status: number; body: unknown }) { json(res, r.status, r.body); }
  });
  return {
    ...srv,
    apiBaseUrl: `${srv.url}/client/v4`,
    count: (path) => srv.received.filter((r) => path.test(new URL(r.url, 'http://x').pathname.replace(/^\/client\/v4/, ''))).length,
  };
}
