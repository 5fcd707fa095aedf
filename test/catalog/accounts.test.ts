import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DATABASES, call } from '../helpers/runtime.ts';
import { MCA, OTHER, OTHER_TOKEN, SUB, SUB_TOKEN, startCatalog, type CatalogRuntime } from './helpers.ts';

for (const database of DATABASES) {
  describe(`catalog accounts (${database})`, () => {
    let c: CatalogRuntime;
    before(async () => {
      c = await startCatalog(database);
    });
    after(() => c.close());

    it('authinfo names the MCA of the dev user, and the granted account of another principal', async () => {
      const res = await c.client().accounts.authinfo();
      assert.deepEqual(res.data.accountIdentifiers, [{ aggregatorId: MCA }]);
      const sub = await c.api('/accounts/authinfo', { token: SUB_TOKEN });
      assert.deepEqual(sub.body.accountIdentifiers, [{ merchantId: SUB, aggregatorId: MCA }]);
      // A principal that reaches no account is authenticated all the same, with nothing to name.
      const stranger = await call(`${c.t.adminUrl}/principals`, { body: { kind: 'user', name: 'Stranger', attrs: { email: 'nobody@nowhere.example' } } });
      const token = await call(`${c.t.adminUrl}/principals/${stranger.body.id}/credentials`, { body: { type: 'bearer', scopes: ['https://www.googleapis.com/auth/content'] } });
      const none = await c.api('/accounts/authinfo', { token: token.body.value });
      assert.deepEqual(none.body, { kind: 'content#accountsAuthInfoResponse' });
      assert.equal((await c.api(`/${MCA}/accounts/${MCA}`, { token: token.body.value })).status, 401);
      const noScope = await call(`${c.t.adminUrl}/principals/${stranger.body.id}/credentials`, { body: { type: 'bearer', scopes: ['https://www.googleapis.com/auth/drive'] } });
      assert.equal((await c.api('/accounts/authinfo', { token: noScope.body.value })).status, 403);
    });

    it('access matrix: own account, sub-account, unrelated account, no credentials', async () => {
      assert.equal((await c.api(`/${MCA}/accounts/${MCA}`)).status, 200);
      assert.equal((await c.api(`/${MCA}/accounts/${SUB}`)).body.name, 'Twinstack shop');
      assert.equal((await c.api(`/${SUB}/accounts/${SUB}`)).status, 200);
      const other = await c.api(`/${OTHER}/accounts/${OTHER}`);
      assert.equal(other.status, 401);
      assert.equal(other.body.error.message, `User cannot access account ${OTHER}`);
      const notSub = await c.api(`/${MCA}/accounts/${OTHER}`);
      assert.equal(notSub.status, 403);
      const anonymous = await c.api(`/${MCA}/accounts/${MCA}`, { token: null });
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.body.error.errors[0].reason, 'required');
      // The sub-account's operator reaches the sub-account only.
      assert.equal((await c.api(`/${SUB}/accounts/${SUB}`, { token: SUB_TOKEN })).status, 200);
      assert.equal((await c.api(`/${MCA}/accounts/${MCA}`, { token: SUB_TOKEN })).status, 401);
      assert.equal((await c.api(`/${OTHER}/accounts/${OTHER}`, { token: OTHER_TOKEN })).status, 200);
      const key = await call(`${c.base}/content/v2.1/${MCA}/accounts/${MCA}?key=test-dev-api-key`);
      assert.equal(key.status, 401);
    });

    it('creates, lists, updates and deletes sub-accounts through the client', async () => {
      const content = c.client();
      const created = await content.accounts.insert({ merchantId: MCA, requestBody: { name: 'Second shop', websiteUrl: 'https://second.example.com' } });
      assert.equal(created.data.kind, 'content#account');
      const id = created.data.id!;
      const listed = await content.accounts.list({ merchantId: MCA });
      assert.deepEqual(listed.data.resources!.map((a) => a.id).sort(), [SUB, id].sort());
      const updated = await content.accounts.update({ merchantId: MCA, accountId: id, requestBody: { id, name: 'Renamed shop' } });
      assert.equal(updated.data.name, 'Renamed shop');
      await content.accounts.delete({ merchantId: MCA, accountId: id });
      const gone = await c.api(`/${MCA}/accounts/${id}`);
      assert.equal(gone.status, 403);
    });

    it('refuses bad account bodies and changes nothing', async () => {
      const before = await c.api(`/${MCA}/accounts`);
      for (const body of [{}, { name: 5 }, { name: 'x'.repeat(101) }, { name: 'ok', websiteUrl: 'ftp://x' }, { name: 'ok', bogus: 1 }, { name: 'ok', users: [{ emailAddress: 'nope' }] }]) {
        const res = await c.api(`/${MCA}/accounts`, { body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error.code, 400);
      }
      // Long runs of dots after the @: each dot was tried against the rest of the address in turn (minutes).
      const dots = '.'.repeat(300_000);
      for (const emailAddress of [`a@b${dots} `, `a@b${dots}@`, `a@${dots}`.slice(0, -1) + ' x']) {
        const res = await c.api(`/${MCA}/accounts`, { body: { name: 'ok', users: [{ emailAddress }] } });
        assert.equal(res.status, 400);
        assert.match(res.body.error.message, /^Invalid e-mail address for account\.users\[0\]\.emailAddress/);
      }
      const sub = await c.api(`/${SUB}/accounts`, { body: { name: 'child of a non-MCA' } });
      assert.equal(sub.status, 403);
      assert.deepEqual((await c.api(`/${MCA}/accounts`)).body, before.body);
    });

    it('listlinks pages hold at least 5 links, as a smaller maxResults is raised to 5', async () => {
      const content = c.client();
      const newShop = async (name: string) => (await content.accounts.insert({ merchantId: MCA, requestBody: { name } })).data.id!;
      const shop = await newShop('Linking shop');
      const partners = [];
      for (let i = 0; i < 6; i++) partners.push(await newShop(`Partner ${i}`));
      for (const linkedAccountId of partners) {
        await content.accounts.link({ merchantId: MCA, accountId: shop, requestBody: { action: 'request', linkType: 'channelPartner', linkedAccountId } });
      }
      const first = await content.accounts.listlinks({ merchantId: MCA, accountId: shop, maxResults: 2 });
      assert.equal(first.data.links!.length, 5);
      assert.ok(first.data.nextPageToken);
      const rest = await content.accounts.listlinks({ merchantId: MCA, accountId: shop, maxResults: 2, pageToken: first.data.nextPageToken! });
      assert.equal(rest.data.links!.length, 1);
      assert.equal(rest.data.nextPageToken, undefined);
      assert.deepEqual([...first.data.links!, ...rest.data.links!].map((l) => l.linkedAccountId).sort(), [...partners].sort());
    });

    it('links: request from one side, seen pending from both, approved by the other, removed', async () => {
      const request = await c.api(`/${SUB}/accounts/${SUB}/link`, { body: { action: 'request', linkType: 'channelPartner', linkedAccountId: OTHER, services: ['shoppingAdsProductManagement'] } });
      assert.equal(request.status, 200);
      const mine = await c.api(`/${SUB}/accounts/${SUB}/listlinks`);
      assert.deepEqual(mine.body.links, [{ linkedAccountId: OTHER, services: [{ service: 'shoppingAdsProductManagement', status: 'pending' }] }]);
      // Only the other side may approve.
      assert.equal((await c.api(`/${SUB}/accounts/${SUB}/link`, { body: { action: 'approve', linkType: 'channelPartner', linkedAccountId: OTHER } })).status, 400);
      const approve = await c.api(`/${OTHER}/accounts/${OTHER}/link`, { token: OTHER_TOKEN, body: { action: 'approve', linkType: 'channelPartner', linkedAccountId: SUB } });
      assert.equal(approve.status, 200);
      const theirs = await c.api(`/${OTHER}/accounts/${OTHER}/listlinks`, { token: OTHER_TOKEN });
      assert.equal(theirs.body.links[0].services[0].status, 'active');
      assert.equal((await c.api(`/${SUB}/accounts/${SUB}/listlinks`)).body.links[0].services[0].status, 'active');
      assert.equal((await c.api(`/${SUB}/accounts/${SUB}/link`, { body: { action: 'remove', linkType: 'channelPartner', linkedAccountId: OTHER } })).status, 200);
      assert.equal((await c.api(`/${OTHER}/accounts/${OTHER}/listlinks`, { token: OTHER_TOKEN })).body.links, undefined);
      for (const body of [{ action: 'wave', linkType: 'channelPartner', linkedAccountId: OTHER }, { action: 'request', linkType: 'channelPartner' }, { action: 'request', linkType: 'channelPartner', linkedAccountId: '999' }]) {
        assert.ok([400, 404].includes((await c.api(`/${SUB}/accounts/${SUB}/link`, { body })).status), JSON.stringify(body));
      }
    });

    it('labels: create, assign through updatelabels, delete unassigns everywhere', async () => {
      const content = c.client();
      const label = await content.accounts.labels.create({ accountId: MCA, requestBody: { name: 'Premium', description: 'Best shops' } });
      const labelId = label.data.labelId!;
      assert.equal(label.data.accountId, MCA);
      assert.equal((await c.api(`/accounts/${MCA}/labels`, { body: { name: 'Premium' } })).status, 400);
      await content.accounts.updatelabels({ merchantId: MCA, accountId: SUB, requestBody: { labelIds: [labelId] } });
      assert.deepEqual((await content.accounts.get({ merchantId: MCA, accountId: SUB })).data.labelIds, [labelId]);
      const filtered = await content.accounts.list({ merchantId: MCA, label: labelId });
      assert.deepEqual(filtered.data.resources!.map((a) => a.id), [SUB]);
      await content.accounts.labels.patch({ accountId: MCA, labelId, requestBody: { name: 'Gold' } });
      assert.equal((await content.accounts.labels.list({ accountId: MCA })).data.accountLabels![0].name, 'Gold');
      await content.accounts.labels.delete({ accountId: MCA, labelId });
      assert.equal((await content.accounts.get({ merchantId: MCA, accountId: SUB })).data.labelIds, undefined);
      assert.equal((await c.api(`/${MCA}/accounts/${SUB}/updatelabels`, { body: { labelIds: [labelId] } })).status, 400);
      assert.equal((await c.api(`/accounts/${OTHER}/labels`, { body: { name: 'x' } })).status, 401);
    });

    it('phone verification sends an SMS code that verifyphonenumber checks', async () => {
      const requested = await c.api(`/${MCA}/accounts/${SUB}/requestphoneverification`, { body: { phoneRegionCode: 'US', phoneNumber: '+1 650 555 0100', phoneVerificationMethod: 'SMS', languageCode: 'en' } });
      assert.equal(requested.status, 200);
      const outbox = await call(`${c.t.adminUrl}/outbox?service=catalog&channel=sms`);
      const sms = outbox.body.messages.find((m: { correlation: string }) => m.correlation === `phoneverification:${requested.body.verificationId}`);
      const code = /(\d{6})/.exec(sms.body)![1];
      const wrong = await c.api(`/${MCA}/accounts/${SUB}/verifyphonenumber`, { body: { verificationId: requested.body.verificationId, verificationCode: code === '000000' ? '111111' : '000000', phoneVerificationMethod: 'SMS' } });
      assert.equal(wrong.status, 400);
      const ok = await c.api(`/${MCA}/accounts/${SUB}/verifyphonenumber`, { body: { verificationId: requested.body.verificationId, verificationCode: code, phoneVerificationMethod: 'SMS' } });
      assert.equal(ok.body.verifiedPhoneNumber, '+16505550100');
      const account = await c.api(`/${MCA}/accounts/${SUB}`);
      assert.equal(account.body.businessInformation.phoneVerificationStatus, 'VERIFIED');
      assert.equal((await c.api(`/${MCA}/accounts/${SUB}/requestphoneverification`, { body: { phoneRegionCode: 'US', phoneNumber: 'abc', phoneVerificationMethod: 'SMS' } })).status, 400);
    });

    it('claimwebsite claims the host once; another account needs overwrite', async () => {
      const content = c.client();
      await content.accounts.claimwebsite({ merchantId: MCA, accountId: SUB });
      const status = await content.accountstatuses.get({ merchantId: MCA, accountId: SUB });
      assert.equal(status.data.websiteClaimed, true);
      const twin = await content.accounts.insert({ merchantId: MCA, requestBody: { name: 'Twin', websiteUrl: 'https://shop.example.com/other' } });
      assert.equal((await c.api(`/${MCA}/accounts/${twin.data.id}/claimwebsite`, { method: 'POST' })).status, 403);
      assert.equal((await c.api(`/${MCA}/accounts/${twin.data.id}/claimwebsite?overwrite=true`, { method: 'POST' })).status, 200);
      assert.equal((await content.accountstatuses.get({ merchantId: MCA, accountId: SUB })).data.websiteClaimed, false);
    });

    it('return carriers and credentials', async () => {
      const content = c.client();
      const carrier = await content.accounts.returncarrier.create({ accountId: SUB, requestBody: { carrierCode: 'UPS', carrierAccountName: 'Main', carrierAccountNumber: '123' } });
      const id = carrier.data.carrierAccountId!;
      await content.accounts.returncarrier.patch({ accountId: SUB, carrierAccountId: id, requestBody: { carrierAccountName: 'Renamed' } });
      assert.equal((await content.accounts.returncarrier.list({ accountId: SUB })).data.accountReturnCarriers![0].carrierAccountName, 'Renamed');
      assert.equal((await c.api(`/accounts/${SUB}/returncarrier`, { body: { carrierCode: 'DHL', carrierAccountName: 'x', carrierAccountNumber: '1' } })).status, 400);
      await content.accounts.returncarrier.delete({ accountId: SUB, carrierAccountId: id });
      assert.equal((await content.accounts.returncarrier.list({ accountId: SUB })).data.accountReturnCarriers, undefined);
      const creds = await content.accounts.credentials.create({ accountId: SUB, requestBody: { accessToken: 'shpat_secret', purpose: 'SHOPIFY_ORDER_MANAGEMENT', expiresIn: '3600' } });
      assert.equal(creds.data.accessToken, undefined);
      assert.equal(creds.data.purpose, 'SHOPIFY_ORDER_MANAGEMENT');
      assert.equal((await c.api(`/accounts/${SUB}/credentials`, { body: { purpose: 'SHOPIFY_ORDER_MANAGEMENT' } })).status, 400);
    });

    it('filters sub-accounts by name and label before paging: every page but the last is full', async () => {
      const content = c.client();
      const label = (await content.accounts.labels.create({ accountId: MCA, requestBody: { name: 'Orchard' } })).data.labelId!;
      const fruit: string[] = [];
      for (let i = 0; i < 5; i++) {
        await content.accounts.insert({ merchantId: MCA, requestBody: { name: `Tool shop ${i}` } });
        const shop = await content.accounts.insert({ merchantId: MCA, requestBody: { name: `Fruit shop ${i}` } });
        await content.accounts.updatelabels({ merchantId: MCA, accountId: shop.data.id!, requestBody: { labelIds: [label] } });
        fruit.push(shop.data.id!);
      }
      const walk = async (path: string, filter: string) => {
        const pages: string[][] = [];
        let token = '';
        do {
          const res = await c.api(`${path}?maxResults=2&${filter}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
          assert.equal(res.status, 200, res.text);
          pages.push((res.body.resources ?? []).map((a: { id?: string; accountId?: string }) => a.id ?? a.accountId));
          token = res.body.nextPageToken ?? '';
        } while (token);
        return pages;
      };
      for (const [path, filter] of [[`/${MCA}/accounts`, 'name=FRUIT'], [`/${MCA}/accounts`, `label=${label}`], [`/${MCA}/accountstatuses`, 'name=fruit']]) {
        const pages = await walk(path, filter);
        assert.deepEqual(pages.map((p) => p.length), [2, 2, 1], `${path}?${filter}`);
        assert.deepEqual(pages.flat().sort(), [...fruit].sort());
      }
      const none = await c.api(`/${MCA}/accounts?maxResults=2&name=nothing-like-this`);
      assert.deepEqual(none.body, { kind: 'content#accountsListResponse' });
    });

    it('custombatch of accounts authorises each entry', async () => {
      const res = await c.client().accounts.custombatch({
        requestBody: {
          entries: [
            { batchId: 1, merchantId: MCA, accountId: SUB, method: 'get' },
            { batchId: 2, merchantId: OTHER, accountId: OTHER, method: 'get' },
            { batchId: 3, merchantId: MCA, method: 'insert', account: { name: 'Batch shop' } },
          ],
        },
      });
      assert.equal(res.data.entries![0].account!.id, SUB);
      assert.equal(res.data.entries![1].errors!.code, 401);
      assert.equal(res.data.entries![2].account!.name, 'Batch shop');
    });
  });
}
