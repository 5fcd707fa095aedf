// The collection status derived from a collection and the merchant's products: documented collection-level issues
// (missing or invalid link and image, missing headline, featured products that are not in the catalog).

export interface CollectionIssue {
  code: string;
  servability: 'disapproved' | 'demoted' | 'unaffected';
  resolution: 'merchant_action';
  attributeName: string;
  description: string;
  detail: string;
  documentation: string;
  applicableCountries: string[];
  destination: string;
}

const DOC = 'https://support.google.com/merchants/answer/9673700';

const isHttpUrl = (v: unknown) => {
  try {
    const u = new URL(String(v));
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};

export function collectionStatus(
  collection: Record<string, any>,
  knownOfferIds: Set<string>,
  times: { createdAt: number; updatedAt: number },
): Record<string, unknown> {
  const countries = collection.productCountry ? [collection.productCountry] : [];
  const issues: CollectionIssue[] = [];
  const add = (code: string, servability: CollectionIssue['servability'], attributeName: string, description: string, detail: string) =>
    issues.push({ code, servability, resolution: 'merchant_action', attributeName, description, detail, documentation: DOC, applicableCountries: countries, destination: 'Shopping' });
  if (!collection.link) add('missing_link', 'disapproved', 'link', 'Missing link', 'Add a landing page link');
  else if (!isHttpUrl(collection.link)) add('invalid_link', 'disapproved', 'link', 'Invalid link', 'Use an absolute http:// or https:// URL');
  if (!collection.imageLink || collection.imageLink.length === 0) add('missing_image_link', 'disapproved', 'image link', 'Missing image', 'Add at least one image link');
  else if (!collection.imageLink.every(isHttpUrl)) add('invalid_image_link', 'disapproved', 'image link', 'Invalid image link', 'Use absolute http:// or https:// URLs');
  if (!collection.headline || collection.headline.length === 0) add('missing_headline', 'demoted', 'headline', 'Missing headline', 'Add a headline');
  for (const f of collection.featuredProduct ?? []) {
    if (!knownOfferIds.has(f.offerId)) add('featured_product_not_found', 'demoted', 'featured product', 'Featured product not found', `No product with offer id ${f.offerId}`);
  }
  const disapproved = issues.some((i) => i.servability === 'disapproved');
  return {
    id: collection.id,
    creationDate: new Date(times.createdAt).toISOString(),
    lastUpdateDate: new Date(times.updatedAt).toISOString(),
    destinationStatuses: [
      {
        destination: 'Shopping',
        status: disapproved ? 'disapproved' : 'approved',
        approvedCountries: disapproved ? [] : countries,
        pendingCountries: [],
        disapprovedCountries: disapproved ? countries : [],
      },
    ],
    collectionLevelIssuses: issues,
  };
}
