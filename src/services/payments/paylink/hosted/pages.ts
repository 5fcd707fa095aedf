// The hosted payment page's HTML: the field-guard form, the card form, and outcome pages. Plain forms that work
// without script; every value is escaped.
import { escapeHtml as e } from '../../../../core/http/html.ts';
import { cartView } from '../domain/cart.ts';
import { selectChoices, type CustomParam } from '../domain/custom-params.ts';
import { money } from '../notifications.ts';
import type { TokenRecord } from '../store.ts';
import type { SealedGuard } from '../tokens.ts';

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;padding:2rem;color:#222}
main{max-width:28rem;margin:auto;background:#fff;padding:1.5rem 2rem;border-radius:8px;box-shadow:0 1px 4px #0002}
label{display:block;margin:.8rem 0 .2rem;font-weight:600}input,select{width:100%;padding:.5rem;box-sizing:border-box;font-size:1rem}
.row{display:flex;gap:.5rem}.row>div{flex:1}button{margin-top:1.2rem;width:100%;padding:.7rem;font-size:1.05rem;background:#1a5fb4;color:#fff;border:0;border-radius:4px}
.error{background:#fde8e8;color:#8a1111;padding:.6rem;border-radius:4px}.amount{font-size:1.6rem;font-weight:700}.muted{color:#666}table{width:100%;border-collapse:collapse;margin:.5rem 0}th,td{text-align:left;padding:.2rem .3rem}`;

export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(title)}</title><style>${STYLE}</style></head>
<body><main>
${body}
</main></body>
</html>`;
}

function header(t: TokenRecord, merchantName: string): string {
  const descriptor = t.bill?.descriptor ?? t.request.config?.descriptor;
  return `<h1>${e(merchantName)}</h1>
<p class="amount" id="amount">${e(money(t.amount, t.currency))}</p>
${descriptor ? `<p>${e(descriptor)}</p>` : ''}
<p class="muted">Reference: <span id="identifier">${e(t.identifier)}</span></p>`;
}

/** The token's cart (PaylinkCart), read-only: items with count and price, then description, shipping, tax, coupon. */
function cartTable(t: TokenRecord): string {
  const cart = cartView(t.request.cart);
  if (!cart) return '';
  const price = (minor: number | undefined) => (minor === undefined ? '' : e(money(minor, t.currency)));
  const rows = cart.lines
    .map((l) => `<tr class="cart-item"><td>${e(l.label)}${l.sku ? ` <span class="muted">${e(l.sku)}</span>` : ''}</td><td>${l.count}</td><td>${price(l.amount)}</td><td>${price(l.amount === undefined ? undefined : l.amount * l.count)}</td></tr>`)
    .join('');
  const extra = (id: string, label: string, minor: number | undefined) => (minor === undefined ? '' : `<tr id="${id}"><td colspan="3">${label}</td><td>${price(minor)}</td></tr>`);
  return `<section id="cart">
${cart.productDescription ? `<p id="cart-description">${e(cart.productDescription)}</p>` : ''}
${cart.lines.length ? `<table><thead><tr><th>Item</th><th>Qty</th><th>Price</th><th>Total</th></tr></thead><tbody>${rows}</tbody><tfoot>${extra('cart-shipping', 'Shipping', cart.shipping)}${extra('cart-tax', 'Tax', cart.tax)}</tfoot></table>` : `<table>${extra('cart-shipping', 'Shipping', cart.shipping)}${extra('cart-tax', 'Tax', cart.tax)}</table>`}
${cart.coupon ? `<p id="cart-coupon">Coupon: ${e(cart.coupon)}</p>` : ''}
${cart.productInformation ? `<p id="cart-information" class="muted">${e(cart.productInformation)}</p>` : ''}
</section>`;
}

const errorBox = (message?: string) => (message ? `<p class="error" id="error" role="alert">${e(message)}</p>` : '');

export function guardPage(t: TokenRecord, merchantName: string, guards: SealedGuard[], error?: string): string {
  const fields = guards
    .map((g) => `<label for="guard-${e(g.name)}">${e(g.label)}</label><input id="guard-${e(g.name)}" name="${e(g.name)}" type="${['date', 'number', 'email', 'tel'].includes(g.field_type) ? g.field_type : 'text'}" autocomplete="off" required>`)
    .join('\n');
  return layout(`Pay ${merchantName}`, `${header(t, merchantName)}
<p>Please confirm your details to continue.</p>
${errorBox(error)}
<form method="post" action="/pay/${e(t.token)}/guard" id="guard-form">
${fields}
<button type="submit" id="continue">Continue</button>
</form>`);
}

export function paymentPage(t: TokenRecord, merchantName: string, error?: string): string {
  const months = Array.from({ length: 12 }, (_, i) => `<option value="${i + 1}">${String(i + 1).padStart(2, '0')}</option>`).join('');
  return layout(`Pay ${merchantName}`, `${header(t, merchantName)}
${cartTable(t)}
${errorBox(error)}
<form method="post" action="/pay/${e(t.token)}" id="payment-form" autocomplete="on">
${customFields(t.request.config?.customParams ?? [])}
<label for="name_on_card">Name on card</label><input id="name_on_card" name="name_on_card" autocomplete="cc-name" maxlength="45">
<label for="cardnumber">Card number</label><input id="cardnumber" name="cardnumber" inputmode="numeric" autocomplete="cc-number" maxlength="30" required>
<div class="row"><div><label for="expmonth">Expiry month</label><select id="expmonth" name="expmonth" autocomplete="cc-exp-month">${months}</select></div>
<div><label for="expyear">Expiry year</label><input id="expyear" name="expyear" inputmode="numeric" autocomplete="cc-exp-year" maxlength="4" required></div></div>
<label for="csc">Security code</label><input id="csc" name="csc" inputmode="numeric" autocomplete="cc-csc" maxlength="4">
<label for="postcode">Billing postcode</label><input id="postcode" name="postcode" autocomplete="postal-code" maxlength="16">
<button type="submit" id="pay">Pay ${e(money(t.amount, t.currency))}</button>
</form>`);
}

/** The merchant's custom parameters the payer sees (hidden ones stay on the server), in their `order`. */
function customFields(params: CustomParam[]): string {
  return [...params]
    .filter((p) => p.field_type !== 'hidden')
    .sort((a, b) => a.order - b.order)
    .map((p) => {
      const id = `custom_${e(p.name)}`;
      const label = `<label for="${id}">${e(p.label ?? p.name)}${p.required ? ' *' : ''}</label>`;
      const common = `id="${id}" name="${id}"${p.required ? ' required' : ''}${p.locked ? ' readonly' : ''}`;
      if (p.field_type === 'select') {
        const options = selectChoices(p.options).map((c) => `<option value="${e(c.value)}">${e(c.label)}</option>`).join('');
        return `${label}<select ${common}><option value=""></option>${options}</select>`;
      }
      const type = p.field_type === 'dob' ? 'date' : 'text';
      const extra = `${p.value ? ` value="${e(p.value)}"` : ''}${p.placeholder ? ` placeholder="${e(p.placeholder)}"` : ''}${p.pattern ? ` pattern="${e(p.pattern)}"` : ''}`;
      return `${label}<input type="${type}" ${common}${extra} maxlength="200">`;
    })
    .join('\n');
}

export function messagePage(title: string, message: string, detail?: Record<string, string | number | undefined>): string {
  const rows = Object.entries(detail ?? {})
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `<dt>${e(k)}</dt><dd id="result-${e(k.toLowerCase().replace(/\s+/g, '-'))}">${e(v)}</dd>`)
    .join('');
  return layout(title, `<h1 id="title">${e(title)}</h1><p id="message">${e(message)}</p>${rows ? `<dl>${rows}</dl>` : ''}`);
}
