import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { productIssues, productStatus, type Product } from '../../src/services/catalog/domain/product-rules.ts';
import {
  ReportQueryError, evaluateReport, parseReportQuery, type PerformanceRecord,
} from '../../src/services/catalog/domain/report-query.ts';

// A Wednesday.
const TODAY = '2026-03-04';
const parse = (text: string) => parseReportQuery(text, { today: TODAY });
const windowOf = (range: string) => parse(`SELECT metrics.clicks FROM ProductPerformanceView WHERE segments.date DURING ${range}`).dateWindow;

function fails(text: string, message: RegExp, position?: number) {
  assert.throws(() => parse(text), (err: unknown) => {
    assert.ok(err instanceof ReportQueryError, String(err));
    assert.match(err.message, message);
    if (position !== undefined) assert.equal(err.position, position, err.message);
    return true;
  });
}

describe('parseReportQuery', () => {
  it('parses fields, table, conditions, ordering and limit', () => {
    const q = parse(`select segments.offer_id, metrics.clicks, metrics.ctr FROM product_performance_view
      WHERE segments.date BETWEEN '2026-02-01' AND '2026-02-28' AND segments.program IN ('SHOPPING_ADS', "FREE_PRODUCT_LISTING")
        AND metrics.clicks >= 10 AND segments.title NOT LIKE '%gift%'
      ORDER BY metrics.clicks DESC, segments.offer_id LIMIT 5`);
    assert.equal(q.table, 'product_performance_view');
    assert.deepEqual(q.fields.map((f) => f.name), ['segments.offer_id', 'metrics.clicks', 'metrics.ctr']);
    assert.deepEqual(q.dateWindow, { start: '2026-02-01', end: '2026-02-28' });
    assert.deepEqual(q.conditions.map((c) => [c.field.name, c.operator, c.values]), [
      ['segments.program', 'IN', ['SHOPPING_ADS', 'FREE_PRODUCT_LISTING']],
      ['metrics.clicks', '>=', [10]],
      ['segments.title', 'NOT LIKE', ['%gift%']],
    ]);
    assert.deepEqual(q.orderBy.map((o) => [o.field.name, o.descending]), [['metrics.clicks', true], ['segments.offer_id', false]]);
    assert.equal(q.limit, 5);
    assert.equal(parse('SELECT product_view.id FROM ProductView').table, 'product_view');
    assert.equal(parse("SELECT metrics.clicks FROM MerchantPerformanceView WHERE segments.date = '2026-03-01'").table, 'product_performance_view');
  });

  it('resolves relative date ranges against today', () => {
    assert.deepEqual(windowOf('TODAY'), { start: '2026-03-04', end: '2026-03-04' });
    assert.deepEqual(windowOf('YESTERDAY'), { start: '2026-03-03', end: '2026-03-03' });
    assert.deepEqual(windowOf('LAST_7_DAYS'), { start: '2026-02-25', end: '2026-03-03' });
    assert.deepEqual(windowOf('LAST_14_DAYS'), { start: '2026-02-18', end: '2026-03-03' });
    assert.deepEqual(windowOf('LAST_30_DAYS'), { start: '2026-02-02', end: '2026-03-03' });
    assert.deepEqual(windowOf('THIS_MONTH'), { start: '2026-03-01', end: '2026-03-31' });
    assert.deepEqual(windowOf('LAST_MONTH'), { start: '2026-02-01', end: '2026-02-28' });
    assert.deepEqual(windowOf('THIS_WEEK_MON_TODAY'), { start: '2026-03-02', end: '2026-03-04' });
    assert.deepEqual(windowOf('THIS_WEEK_SUN_TODAY'), { start: '2026-03-01', end: '2026-03-04' });
    assert.deepEqual(windowOf('LAST_WEEK_MON_SUN'), { start: '2026-02-23', end: '2026-03-01' });
    assert.deepEqual(windowOf('LAST_WEEK_SUN_SAT'), { start: '2026-02-22', end: '2026-02-28' });
    assert.deepEqual(windowOf('LAST_BUSINESS_WEEK'), { start: '2026-02-23', end: '2026-02-27' });
    assert.deepEqual(parse('SELECT metrics.clicks FROM ProductPerformanceView DURING LAST_7_DAYS').dateWindow, { start: '2026-02-25', end: '2026-03-03' });
  });

  it('intersects several date conditions', () => {
    const q = parse("SELECT metrics.clicks FROM ProductPerformanceView WHERE segments.date >= '2026-02-10' AND segments.date < '2026-02-20' AND segments.date DURING LAST_30_DAYS");
    assert.deepEqual(q.dateWindow, { start: '2026-02-10', end: '2026-02-19' });
  });

  it('names the problem and its position', () => {
    fails('', /empty/, 1);
    fails('SELECT metrics.clicks FROM ProductPerformanceView', /segments\.date is required/);
    fails("SELECT metrics.clicks FROM ProductPerformanceView WHERE segments.date >= '2026-01-01'", /both sides/);
    fails("SELECT metrics.clicks FROM ProductPerformanceView WHERE segments.date BETWEEN '2026-02-10' AND '2026-02-01'", /empty/);
    fails('SELECT metrics.clickz FROM ProductPerformanceView DURING TODAY', /Unrecognized field 'metrics.clickz' at position 8/, 8);
    fails('SELECT metrics.clicks FROM ProductView', /cannot be selected from ProductView/, 8);
    fails('SELECT product_view.id FROM Products', /Unknown table Products/, 29);
    fails('SELECT * FROM ProductView', /not supported/, 8);
    fails('SELECT product_view.id ProductView', /Expected FROM but found ProductView at position 24/, 24);
    fails("SELECT product_view.id FROM ProductView WHERE product_view.title = 'open", /Unterminated string/, 68);
    fails('SELECT product_view.id FROM ProductView WHERE product_view.title = 3', /Expected a string for product_view.title but found 3/);
    fails("SELECT product_view.id FROM ProductView WHERE product_view.price_micros > '3'", /Expected a number/);
    fails("SELECT metrics.clicks FROM ProductPerformanceView WHERE segments.date BETWEEN '2026-02-30' AND '2026-03-01'", /Invalid date '2026-02-30'/);
    fails('SELECT metrics.clicks FROM ProductPerformanceView WHERE segments.date DURING LAST_YEAR', /Unknown date range 'LAST_YEAR'/);
    fails("SELECT product_view.id FROM ProductView WHERE product_view.title DURING TODAY", /DURING applies to segments.date only/);
    fails("SELECT product_view.id FROM ProductView WHERE product_view.gtin = '1'", /cannot be used with product_view.gtin/);
    fails("SELECT product_view.id FROM ProductView WHERE product_view.title REGEXP_MATCH '('", /Invalid regular expression/);
    // RE2 has no lookaround or backreferences, and says why. A backslash in a string literal is written twice.
    fails("SELECT product_view.id FROM ProductView WHERE product_view.title REGEXP_MATCH 'a(?=b)'", /Invalid regular expression 'a\(\?=b\)': .*unsupported Perl syntax/);
    fails("SELECT product_view.id FROM ProductView WHERE product_view.title REGEXP_MATCH '(a)\\\\1'", /Invalid regular expression '\(a\)\\1': .*invalid escape sequence/);
    fails('SELECT product_view.id FROM ProductView LIMIT 0', /positive integer/);
    fails('SELECT product_view.id FROM ProductView LIMIT 10 extra', /Unexpected extra/);
    fails('SELECT segments.offer_id, metrics.clicks FROM ProductPerformanceView DURING TODAY ORDER BY metrics.impressions', /must also be selected/);
    fails('SELECT product_view.id, product_view.id FROM ProductView', /more than once/);
    fails('SELECT product_view.id FROM ProductView WHERE product_view.title @ 1', /Unexpected character '@'/);
  });
});

const products: Product[] = [
  { id: 'online:en:US:a', offerId: 'a', title: 'Red shoe', brand: 'Acme', price: { value: '20.00', currency: 'USD' }, targetCountry: 'US', googleProductCategory: 'Apparel & Accessories > Shoes', productTypes: ['Shoes > Running'], customLabel0: 'summer' },
  { id: 'online:en:US:b', offerId: 'b', title: 'Blue hat', brand: 'Bolt', price: { value: '9.50', currency: 'USD' }, targetCountry: 'US', googleProductCategory: 'Apparel & Accessories > Hats' },
];
const record = (date: string, offerId: string, clicks: number, impressions: number, program = 'SHOPPING_ADS', conversions = 0, conversionValueMicros = 0): PerformanceRecord =>
  ({ date, offerId, program, clicks, impressions, conversions, conversionValueMicros });
const performance: PerformanceRecord[] = [
  record('2026-03-01', 'a', 10, 100, 'SHOPPING_ADS', 2, 40_000_000),
  record('2026-03-01', 'a', 5, 50, 'FREE_PRODUCT_LISTING'),
  record('2026-03-02', 'a', 1, 100),
  record('2026-03-02', 'b', 4, 10),
  record('2026-02-01', 'b', 99, 999),
];
const run = (text: string) => evaluateReport(parse(text), { products, performance });

describe('evaluateReport on performance', () => {
  it('aggregates by the selected segments inside the date window', () => {
    assert.deepEqual(run("SELECT segments.offer_id, metrics.clicks, metrics.impressions, metrics.ctr FROM ProductPerformanceView WHERE segments.date BETWEEN '2026-03-01' AND '2026-03-02' ORDER BY segments.offer_id"), [
      { segments: { offerId: 'a' }, metrics: { clicks: '16', impressions: '250', ctr: 16 / 250 } },
      { segments: { offerId: 'b' }, metrics: { clicks: '4', impressions: '10', ctr: 0.4 } },
    ]);
  });

  it('reports dates as Date objects and metrics without segments as one row', () => {
    assert.deepEqual(run("SELECT segments.date, metrics.clicks FROM ProductPerformanceView WHERE segments.date BETWEEN '2026-03-01' AND '2026-03-02' ORDER BY segments.date DESC"), [
      { segments: { date: { year: 2026, month: 3, day: 2 } }, metrics: { clicks: '5' } },
      { segments: { date: { year: 2026, month: 3, day: 1 } }, metrics: { clicks: '15' } },
    ]);
    assert.deepEqual(run('SELECT metrics.impressions FROM ProductPerformanceView DURING THIS_MONTH'), [{ metrics: { impressions: '260' } }]);
    assert.deepEqual(run('SELECT segments.week, metrics.clicks FROM ProductPerformanceView DURING THIS_MONTH'), [
      { segments: { week: { year: 2026, month: 2, day: 23 } }, metrics: { clicks: '15' } },
      { segments: { week: { year: 2026, month: 3, day: 2 } }, metrics: { clicks: '5' } },
    ]);
  });

  it('filters on segments before and on metrics after aggregation', () => {
    assert.deepEqual(run("SELECT segments.program, metrics.clicks FROM ProductPerformanceView WHERE segments.date DURING THIS_MONTH AND segments.brand = 'Acme' ORDER BY metrics.clicks"), [
      { segments: { program: 'FREE_PRODUCT_LISTING' }, metrics: { clicks: '5' } },
      { segments: { program: 'SHOPPING_ADS' }, metrics: { clicks: '11' } },
    ]);
    assert.deepEqual(run("SELECT segments.offer_id, metrics.clicks FROM ProductPerformanceView WHERE segments.date DURING THIS_MONTH AND metrics.clicks > 10"), [
      { segments: { offerId: 'a' }, metrics: { clicks: '16' } },
    ]);
    assert.deepEqual(run("SELECT segments.title, metrics.clicks FROM ProductPerformanceView WHERE segments.date DURING THIS_MONTH AND segments.title LIKE '%hat'"), [
      { segments: { title: 'Blue hat' }, metrics: { clicks: '4' } },
    ]);
    // Many `%`s: test/core/wildcard.test.ts shows such patterns over long values answer at once.
    const hostile = `${'%e'.repeat(20)}%z`;
    assert.deepEqual(run(`SELECT segments.title, metrics.clicks FROM ProductPerformanceView WHERE segments.date DURING THIS_MONTH AND segments.title LIKE '${hostile}'`), []);
    assert.deepEqual(run(`SELECT segments.title, metrics.clicks FROM ProductPerformanceView WHERE segments.date DURING THIS_MONTH AND segments.title NOT LIKE '${hostile}' AND segments.title LIKE 'R_d%'`), [
      { segments: { title: 'Red shoe' }, metrics: { clicks: '16' } },
    ]);
    assert.deepEqual(run("SELECT segments.title, metrics.clicks FROM ProductPerformanceView WHERE segments.date DURING THIS_MONTH AND segments.title REGEXP_MATCH '(?i)^RED'"), [
      { segments: { title: 'Red shoe' }, metrics: { clicks: '16' } },
    ]);
    assert.deepEqual(run("SELECT segments.category_l2, segments.product_type_l2, segments.custom_label0, metrics.clicks FROM ProductPerformanceView WHERE segments.date DURING THIS_MONTH AND segments.category_l1 = 'Apparel & Accessories' ORDER BY metrics.clicks DESC LIMIT 1"), [
      { segments: { categoryL2: 'Shoes', productTypeL2: 'Running', customLabel0: 'summer' }, metrics: { clicks: '16' } },
    ]);
  });

  it('reports conversions with their currency', () => {
    assert.deepEqual(run("SELECT segments.offer_id, metrics.conversions, metrics.conversion_value_micros FROM ProductPerformanceView WHERE segments.date DURING THIS_MONTH AND segments.offer_id = 'a'"), [
      { segments: { offerId: 'a', currencyCode: 'USD' }, metrics: { conversions: 2, conversionValueMicros: '40000000' } },
    ]);
  });
});

describe('evaluateReport on product_view', () => {
  const now = Date.parse('2026-03-04T00:00:00Z');
  const statuses = products.map((p) => productStatus(p, productIssues(p, { now }), { now }));
  const view = (text: string) => evaluateReport(parse(text), { products, statuses, performance });

  it('reads product attributes, status and issues', () => {
    const [row] = view("SELECT product_view.id, product_view.price_micros, product_view.aggregated_destination_status, product_view.item_issues, product_view.click_potential, product_view.creation_time FROM ProductView WHERE product_view.offer_id = 'a'");
    assert.equal(row.productView!.id, 'online:en:US:a');
    assert.equal(row.productView!.priceMicros, '20000000');
    assert.equal(row.productView!.aggregatedDestinationStatus, 'NOT_ELIGIBLE_OR_DISAPPROVED');
    assert.equal(row.productView!.clickPotential, 'MEDIUM', 'b has more clicks');
    assert.equal(row.productView!.creationTime, String(now / 1000));
    const link = row.productView!.itemIssues!.find((i) => i.issueType!.code === 'missing_link')!;
    assert.equal(link.severity!.aggregatedSeverity, 'DISAPPROVED');
    assert.deepEqual(link.severity!.severityPerDestination!.map((d) => [d.destination, d.disapprovedCountries]), [
      ['Shopping', ['US']], ['SurfacesAcrossGoogle', ['US']], ['DisplayAds', ['US']],
    ]);
  });

  it('filters, orders and limits products', () => {
    assert.deepEqual(view('SELECT product_view.offer_id FROM ProductView ORDER BY product_view.price_micros'), [
      { productView: { offerId: 'b' } }, { productView: { offerId: 'a' } },
    ]);
    assert.deepEqual(view("SELECT product_view.offer_id FROM ProductView WHERE product_view.brand IN ('Bolt', 'Zed')"), [{ productView: { offerId: 'b' } }]);
    assert.deepEqual(view('SELECT product_view.offer_id FROM ProductView ORDER BY product_view.title DESC LIMIT 1'), [{ productView: { offerId: 'a' } }]);
  });

  it('matches long IN and CONTAINS lists against many products', () => {
    // The list was searched again for every product: 400,000 values times 40,000 products.
    const many = Array.from({ length: 40_000 }, (_, i) => ({ ...products[0], offerId: `o${i}`, gtin: `g${i}` }));
    const wanted = Array.from({ length: 400_000 }, (_, i) => `o${i * 7}`);
    const list = (values: string[]) => values.map((v) => `'${v}'`).join(',');
    const ids = (text: string) => evaluateReport(parse(text), { products: many, statuses: [] }).map((r) => r.productView!.offerId);
    const sevenths = many.filter((_, i) => i % 7 === 0).map((p) => p.offerId);
    assert.deepEqual(ids(`SELECT product_view.offer_id FROM ProductView WHERE product_view.offer_id IN (${list(wanted)})`), sevenths);
    assert.equal(ids(`SELECT product_view.offer_id FROM ProductView WHERE product_view.offer_id NOT IN (${list(wanted)})`).length, many.length - sevenths.length);
    const gtins = wanted.map((v) => v.replace('o', 'g'));
    assert.deepEqual(ids(`SELECT product_view.offer_id FROM ProductView WHERE product_view.gtin CONTAINS ANY (${list(gtins)})`), sevenths);
    assert.deepEqual(ids(`SELECT product_view.offer_id FROM ProductView WHERE product_view.gtin CONTAINS ALL ('g7', 'g7')`), ['o7']);
    assert.deepEqual(ids(`SELECT product_view.offer_id FROM ProductView WHERE product_view.gtin CONTAINS ALL ('g7', 'g8')`), []);
    assert.equal(ids(`SELECT product_view.offer_id FROM ProductView WHERE product_view.gtin CONTAINS NONE (${list(gtins)})`).length, many.length - sevenths.length);
  });
});

describe('evaluateReport properties', () => {
  const day = fc.integer({ min: 0, max: 20 }).map((d) => new Date(Date.UTC(2026, 1, 10 + d)).toISOString().slice(0, 10));
  const recordArb = fc.record({
    date: day,
    offerId: fc.constantFrom('a', 'b', 'c'),
    program: fc.constantFrom('SHOPPING_ADS', 'FREE_PRODUCT_LISTING'),
    clicks: fc.nat(1000),
    impressions: fc.nat(100_000),
    conversions: fc.nat(50),
    conversionValueMicros: fc.nat(10_000_000),
  });

  it('aggregation totals equal independent sums over the window', () => {
    fc.assert(fc.property(fc.array(recordArb, { maxLength: 60 }), day, day, (records, d1, d2) => {
      const [start, end] = d1 <= d2 ? [d1, d2] : [d2, d1];
      const rows = evaluateReport(
        parse(`SELECT segments.offer_id, segments.program, metrics.clicks, metrics.impressions FROM ProductPerformanceView WHERE segments.date BETWEEN '${start}' AND '${end}'`),
        { products, performance: records },
      );
      const inWindow = records.filter((r) => r.date >= start && r.date <= end);
      for (const row of rows) {
        const mine = inWindow.filter((r) => r.offerId === row.segments!.offerId && r.program === row.segments!.program);
        assert.equal(row.metrics!.clicks, String(mine.reduce((s, r) => s + r.clicks, 0)));
        assert.equal(row.metrics!.impressions, String(mine.reduce((s, r) => s + r.impressions, 0)));
      }
      assert.equal(rows.reduce((s, r) => s + Number(r.metrics!.clicks), 0), inWindow.reduce((s, r) => s + r.clicks, 0));
      assert.equal(rows.length, new Set(inWindow.map((r) => `${r.offerId}/${r.program}`)).size);
    }), { numRuns: 200 });
  });

  it('never throws anything but ReportQueryError on arbitrary text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 80 }), (text) => {
      try {
        parse(text);
      } catch (err) {
        assert.ok(err instanceof ReportQueryError);
      }
    }), { numRuns: 300 });
  });
});
