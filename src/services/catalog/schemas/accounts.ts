// Documented requests of accounts.*: the account body (name required, users with e-mail addresses), links, phone
// verification and labels.
import { Type, type TProperties } from '@sinclair/typebox';
import { MAX_RESULTS_PAGING, flag } from './common.ts';
import { wireBody } from './wire.ts';

export const ACCOUNT_NAME_MAX = 100;
export const LINK_TYPES = ['channelPartner', 'eCommercePlatform', 'paymentServiceProvider', 'localProductManager'] as const;
export const LINK_ACTIONS = ['approve', 'remove', 'request'] as const;
export const PHONE_VERIFICATION_METHODS = ['SMS', 'PHONE_CALL'] as const;

/** accounts.insert and accounts.update: the whole account. */
export const ACCOUNT_BODY = wireBody('Account', {
  rules: {
    name: { maxLength: ACCOUNT_NAME_MAX, description: `Display name of the account (at most ${ACCOUNT_NAME_MAX} characters).` },
    websiteUrl: { description: 'The store\'s website (an http or https URL); its host can be claimed with claimwebsite.' },
    'users.emailAddress': { description: 'E-mail address of the user; required for every user.' },
    id: { description: 'Ignored on insert (a new id is made); on update it must equal accountId.' },
    labelIds: { description: 'Ignored: labels change through updatelabels.' },
  },
  required: ['name', 'users.emailAddress'],
  description: 'The account.',
});

export const ACCOUNT_LIST_QUERY: TProperties = {
  ...MAX_RESULTS_PAGING,
  label: Type.Optional(Type.String({ description: 'Only sub-accounts carrying this label id.' })),
  name: Type.Optional(Type.String({ description: 'Only sub-accounts whose name contains this text (case ignored).' })),
};

/** accounts.listlinks: Content API raises a smaller page size to this. */
export const LIST_LINKS_MIN_RESULTS = 5;
export const LIST_LINKS_QUERY: TProperties = {
  ...MAX_RESULTS_PAGING,
  maxResults: Type.Optional(Type.Integer({ minimum: 0, description: `Most links on one page: 25 unless given, at least ${LIST_LINKS_MIN_RESULTS} (a smaller value is raised), at most 250.` })),
};

export const ACCOUNT_DELETE_QUERY: TProperties = { force: flag('Also delete the account when it still has products.') };

export const CLAIM_WEBSITE_QUERY: TProperties = { overwrite: flag('Take the claim over from another account that holds it.') };

export const LINK_BODY = wireBody('AccountsLinkRequest', {
  rules: {
    action: { enum: [...LINK_ACTIONS], description: 'request a link, approve one requested of this account, or remove it.' },
    linkType: { enum: [...LINK_TYPES], description: 'Kind of the link.' },
    linkedAccountId: { description: 'The other account of the link.' },
    services: { description: 'Services the action applies to (all of the link\'s when empty; a request defaults to shoppingAdsProductManagement).' },
  },
  required: ['action', 'linkedAccountId', 'linkType'],
});

export const REQUEST_PHONE_VERIFICATION_BODY = wireBody('RequestPhoneVerificationRequest', {
  rules: {
    phoneRegionCode: { pattern: '^[A-Z]{2}$', description: 'CLDR region code of the phone number, e.g. "US".' },
    phoneNumber: { description: 'The number to verify: 6 to 15 digits, optionally with a leading + and spaces, dots, dashes or parentheses.' },
    phoneVerificationMethod: { enum: [...PHONE_VERIFICATION_METHODS], description: 'How the code is sent.' },
  },
  required: ['phoneRegionCode', 'phoneNumber', 'phoneVerificationMethod'],
});

export const VERIFY_PHONE_NUMBER_BODY = wireBody('VerifyPhoneNumberRequest', {
  rules: {
    verificationId: { description: 'The id requestphoneverification answered.' },
    verificationCode: { description: 'The 6-digit code that was sent (valid 10 minutes, 5 attempts).' },
  },
  required: ['verificationId', 'verificationCode'],
});

export const UPDATE_LABELS_BODY = wireBody('AccountsUpdateLabelsRequest', {
  rules: { labelIds: { description: 'The labels the account carries from now on; each must exist in the managing account.' } },
});
