/**
 * An organization's own terms, as docs/administration.md recommends for BannedWords: names, products, places,
 * seasons. The context bench and the context matcher's properties judge passwords against the same list.
 */
export const ORGANIZATION = [
  'Acme',
  'AcmeCorp',
  'Contoso',
  'Fabrikam',
  'Passwordstate',
  'Northwind',
  'Seattle',
  'Redmond',
  'Spring',
  'Summer',
  'Autumn',
  'Winter',
  'Payroll',
  'Helpdesk',
  'Welcome',
  'Changeme',
];
