// Reference data the catalog serves where Merchant Center has fixed lists: carriers and their services, holidays
// with delivery guarantees, pickup services and POS data providers. These are our choice of a representative subset,
// documented in docs/catalog.md.

export const SUPPORTED_CARRIERS = [
  { name: 'UPS', country: 'US', services: ['Ground', 'Next Day Air', '2nd Day Air', '3 Day Select'], eddServices: ['Ground'] },
  { name: 'FedEx', country: 'US', services: ['Ground', 'Home Delivery', 'Express Saver', 'First Overnight', 'Priority Overnight', 'Standard Overnight', '2Day'], eddServices: ['Ground', 'Home Delivery'] },
  { name: 'USPS', country: 'US', services: ['Priority Mail Express', 'Media Mail', 'Retail Ground', 'First-Class Mail', 'Priority Mail'], eddServices: [] },
  { name: 'Australia Post', country: 'AU', services: ['Regular Parcel', 'Express Parcel'], eddServices: [] },
  { name: 'TNT', country: 'AU', services: ['Road Express', 'Overnight'], eddServices: [] },
  { name: 'DHL', country: 'DE', services: ['Paket', 'Päckchen'], eddServices: [] },
  { name: 'DPD', country: 'DE', services: ['Express 12', 'Express', 'Classic Parcel'], eddServices: [] },
  { name: 'Royal Mail', country: 'GB', services: ['1st Class', '2nd Class'], eddServices: [] },
];

export const SUPPORTED_HOLIDAYS = [
  { id: 'thanksgiving-us', countryCode: 'US', type: 'Thanksgiving', date: '2026-11-26', deliveryGuaranteeDate: '2026-11-25', deliveryGuaranteeHour: '12' },
  { id: 'christmas-us', countryCode: 'US', type: 'Christmas', date: '2026-12-25', deliveryGuaranteeDate: '2026-12-24', deliveryGuaranteeHour: '12' },
  { id: 'christmas-gb', countryCode: 'GB', type: 'Christmas', date: '2026-12-25', deliveryGuaranteeDate: '2026-12-24', deliveryGuaranteeHour: '10' },
  { id: 'christmas-de', countryCode: 'DE', type: 'Christmas', date: '2026-12-25', deliveryGuaranteeDate: '2026-12-23', deliveryGuaranteeHour: '16' },
  { id: 'mothers-day-us', countryCode: 'US', type: 'Mother\'s Day', date: '2027-05-09', deliveryGuaranteeDate: '2027-05-08', deliveryGuaranteeHour: '12' },
];

export const SUPPORTED_PICKUP_SERVICES = [
  { carrierName: 'UPS', serviceName: 'Access Point', country: 'US' },
  { carrierName: 'FedEx', serviceName: 'Hold at Location', country: 'US' },
  { carrierName: 'DHL', serviceName: 'Packstation', country: 'DE' },
];

export const POS_DATA_PROVIDERS = [
  { country: 'US', posDataProviders: [{ providerId: '1001', displayName: 'Square', fullName: 'Square, Inc.' }, { providerId: '1002', displayName: 'Lightspeed', fullName: 'Lightspeed Commerce' }] },
  { country: 'GB', posDataProviders: [{ providerId: '2001', displayName: 'Epos Now', fullName: 'Epos Now Ltd' }] },
  { country: 'DE', posDataProviders: [{ providerId: '3001', displayName: 'Pointofsale', fullName: 'Pointofsale GmbH' }] },
];
