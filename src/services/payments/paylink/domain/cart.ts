// The cart a Paylink token was created with (PaylinkCart), read for display. The cart is stored as given and not
// checked against the token's amount (as the real service does), so every field is read leniently: what is not the
// documented type is left out rather than shown wrong. Pure.

export interface CartLine {
  label: string;
  sku?: string;
  /** The price of one item, in minor units (the documented `amount` is not multiplied by `count`). */
  amount?: number;
  count: number;
}

export interface CartView {
  lines: CartLine[];
  productDescription?: string;
  productInformation?: string;
  coupon?: string;
  shipping?: number;
  tax?: number;
}

const MAX_LINES = 100;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const minor = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
};

/** What the payment page shows of a cart; undefined when there is nothing to show. */
export function cartView(cart: Record<string, unknown> | undefined): CartView | undefined {
  if (!cart) return undefined;
  const contents = Array.isArray(cart.contents) ? cart.contents : [];
  const lines: CartLine[] = [];
  for (const item of contents.slice(0, MAX_LINES)) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) continue;
    const i = item as Record<string, unknown>;
    const name = [text(i.brand), text(i.label), text(i.variant)].filter(Boolean).join(' ');
    const count = minor(i.count) ?? 1;
    const label = name || text(i.sku) || 'Item';
    lines.push({ label, ...(text(i.sku) ? { sku: text(i.sku) } : {}), ...(minor(i.amount) !== undefined ? { amount: minor(i.amount) } : {}), count });
  }
  const view: CartView = {
    lines,
    productDescription: text(cart.product_description),
    productInformation: text(cart.product_information),
    coupon: text(cart.coupon),
    shipping: minor(cart.shipping),
    tax: minor(cart.tax),
  };
  const empty = lines.length === 0 && !view.productDescription && !view.productInformation && !view.coupon && view.shipping === undefined && view.tax === undefined;
  return empty ? undefined : view;
}
