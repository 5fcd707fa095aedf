// The product and product status resources of Content API v2.1, as the googleapis client declares them.
import type { content_v2_1 } from 'googleapis';

export type Product = content_v2_1.Schema$Product;
export type Price = content_v2_1.Schema$Price;
export type ProductStatus = content_v2_1.Schema$ProductStatus;
export type DestinationStatus = content_v2_1.Schema$ProductStatusDestinationStatus;

/** How an issue affects serving (`ProductStatusItemLevelIssue.servability`). */
export type Servability = 'disapproved' | 'demoted' | 'unaffected';

/** One item-level issue: every field the resource names, always filled. */
export interface ItemLevelIssue {
  code: string;
  servability: Servability;
  resolution: 'merchant_action' | 'pending_processing';
  attributeName: string;
  description: string;
  detail: string;
  documentation: string;
  applicableCountries: string[];
  /** Set by `productStatus`, which reports each issue once per destination it affects. */
  destination?: string;
}
