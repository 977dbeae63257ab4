// The parser on a fixed set of 50 sentences, typed or as speech recognition writes them, each
// with the draft a person would expect. Today is Wednesday 18 March 2026; the organization's
// currency is USD.
import { describe, expect, it } from 'vitest';
import { parseExpenseText, type Named } from './ai.parse-expense.ts';

const CATEGORY_NAMES = [
  'Travel',
  'Meals',
  'Software',
  'Hardware',
  'Office Supplies',
  'Training',
  'Marketing',
  'Logistics',
  'Utilities',
  'Professional Services',
  'Payroll',
];
const VENDOR_NAMES = [
  'Atlas Legal LLP',
  'Northwind Consulting',
  'Skyline Travel Group',
  'Blue Harbor Insurance',
  'Crescent Audit Partners',
  'Vertex Cloud Services',
  'Summit Office Interiors',
  'Transcontinental Freight',
  'Harbor Fuel Supply',
  'RoadStar Tyres',
  'Pallet Pro Ltd',
  'Swift Customs Brokers',
  'Metro Fleet Leasing',
  'Dockside Security',
];
const named = (names: string[], prefix: string): Named[] => names.map((name, i) => ({ id: `${prefix}-${i}`, name }));
const categories = named(CATEGORY_NAMES, 'cat');
const vendors = named(VENDOR_NAMES, 'ven');
const ctx = { today: '2026-03-18', currency: 'USD', categories, vendors };

type Expected = [
  text: string,
  amount: string | null,
  currency: string,
  date: string,
  category: string | null,
  vendor: string | null,
  description: string,
];

const TODAY = '2026-03-18';
export const SENTENCES: Expected[] = [
  [
    'taxi to the airport 45 dollars yesterday, client visit',
    '45.00',
    'USD',
    '2026-03-17',
    'Travel',
    null,
    'Taxi to the airport, client visit',
  ],
  ['lunch with the team 86.40 last Friday', '86.40', 'USD', '2026-03-13', 'Meals', null, 'Lunch with the team'],
  ['forty-five dollars for a taxi yesterday', '45.00', 'USD', '2026-03-17', 'Travel', null, 'A taxi'],
  ['hotel in Berlin 2.5k euros March 3', '2500.00', 'EUR', '2026-03-03', 'Travel', null, 'Hotel in Berlin'],
  ['€12,50 coffee with a client today', '12.50', 'EUR', TODAY, 'Meals', null, 'Coffee with a client'],
  ['£320 train tickets to London on the 5th', '320.00', 'GBP', '2026-03-05', 'Travel', null, 'Train tickets to London'],
  ['new laptop 1,299.99 USD', '1299.99', 'USD', TODAY, 'Hardware', null, 'New laptop'],
  ['Adobe subscription 59.99 last Monday', '59.99', 'USD', '2026-03-16', 'Software', null, 'Adobe subscription'],
  [
    'toner cartridges 89 dollars two days ago',
    '89.00',
    'USD',
    '2026-03-16',
    'Office Supplies',
    null,
    'Toner cartridges',
  ],
  [
    'freight from Transcontinental Freight 4,200 on 3/14',
    '4200.00',
    'USD',
    '2026-03-14',
    'Logistics',
    'Transcontinental Freight',
    'Freight from Transcontinental Freight',
  ],
  [
    'diesel at Harbor Fuel Supply 640 yesterday',
    '640.00',
    'USD',
    '2026-03-17',
    'Logistics',
    'Harbor Fuel Supply',
    'Diesel at Harbor Fuel Supply',
  ],
  [
    'new tyres from RoadStar 1.8k last week',
    '1800.00',
    'USD',
    '2026-03-11',
    'Logistics',
    'RoadStar Tyres',
    'New tyres from RoadStar',
  ],
  [
    'pallets from Pallet Pro 350 dollars',
    '350.00',
    'USD',
    TODAY,
    'Logistics',
    'Pallet Pro Ltd',
    'Pallets from Pallet Pro',
  ],
  [
    'customs clearance Swift Customs Brokers 275.50 on March 9',
    '275.50',
    'USD',
    '2026-03-09',
    'Logistics',
    'Swift Customs Brokers',
    'Customs clearance Swift Customs Brokers',
  ],
  [
    'dinner with clients one hundred twenty dollars last night',
    '120.00',
    'USD',
    '2026-03-17',
    'Meals',
    null,
    'Dinner with clients',
  ],
  ['uber 23 dollars on the 12th', '23.00', 'USD', '2026-03-12', 'Travel', null, 'Uber'],
  ['parking at the airport 36 on Sunday', '36.00', 'USD', '2026-03-15', 'Travel', null, 'Parking at the airport'],
  ['conference ticket 899 USD February 27', '899.00', 'USD', '2026-02-27', 'Training', null, 'Conference ticket'],
  ['online course 149.00 yesterday', '149.00', 'USD', '2026-03-17', 'Training', null, 'Online course'],
  ['Facebook ads campaign 3k', '3000.00', 'USD', TODAY, 'Marketing', null, 'Facebook ads campaign'],
  [
    'printing flyers for the trade show 420 dollars',
    '420.00',
    'USD',
    TODAY,
    'Marketing',
    null,
    'Printing flyers for the trade show',
  ],
  ['courier to Rotterdam 95 euros yesterday', '95.00', 'EUR', '2026-03-17', 'Logistics', null, 'Courier to Rotterdam'],
  ['internet bill 79.90', '79.90', 'USD', TODAY, 'Utilities', null, 'Internet bill'],
  ['electricity 1,245.60 last month', '1245.60', 'USD', '2026-02-18', 'Utilities', null, 'Electricity'],
  [
    'legal advice from Atlas Legal 2,000 dollars',
    '2000.00',
    'USD',
    TODAY,
    'Professional Services',
    'Atlas Legal LLP',
    'Legal advice from Atlas Legal',
  ],
  [
    'audit fees Crescent Audit Partners 12k',
    '12000.00',
    'USD',
    TODAY,
    'Professional Services',
    'Crescent Audit Partners',
    'Audit fees Crescent Audit Partners',
  ],
  [
    'Northwind consulting workshop 1500 on Friday',
    '1500.00',
    'USD',
    '2026-03-13',
    'Professional Services',
    'Northwind Consulting',
    'Northwind consulting workshop',
  ],
  [
    'Vertex cloud hosting 420.75 USD',
    '420.75',
    'USD',
    TODAY,
    'Software',
    'Vertex Cloud Services',
    'Vertex cloud hosting',
  ],
  ['sandwiches for the team meeting 64.20', '64.20', 'USD', TODAY, 'Meals', null, 'Sandwiches for the team meeting'],
  ['flight to Dubai 1,150 dollars on 2026-03-02', '1150.00', 'USD', '2026-03-02', 'Travel', null, 'Flight to Dubai'],
  ['rental car for three days 210 dollars', '210.00', 'USD', TODAY, 'Travel', null, 'Rental car for three days'],
  [
    'two nights at the Hilton 380 euros last Tuesday',
    '380.00',
    'EUR',
    '2026-03-17',
    null,
    null,
    'Two nights at the Hilton',
  ],
  ['bought pens and notebooks 23.45', '23.45', 'USD', TODAY, 'Office Supplies', null, 'Pens and notebooks'],
  [
    'I spent 60 bucks on gas for the truck yesterday',
    '60.00',
    'USD',
    '2026-03-17',
    'Logistics',
    null,
    'Gas for the truck',
  ],
  [
    'monitor for home office 249.99 on Saturday',
    '249.99',
    'USD',
    '2026-03-14',
    'Hardware',
    null,
    'Monitor for home office',
  ],
  ['keyboard and mouse 120', '120.00', 'USD', TODAY, 'Hardware', null, 'Keyboard and mouse'],
  ['team breakfast 18 pounds', '18.00', 'GBP', TODAY, 'Meals', null, 'Team breakfast'],
  [
    'Skyline Travel Group flights 2,340.00 last Thursday',
    '2340.00',
    'USD',
    '2026-03-12',
    'Travel',
    'Skyline Travel Group',
    'Skyline Travel Group flights',
  ],
  [
    'insurance premium Blue Harbor Insurance USD 4,800',
    '4800.00',
    'USD',
    TODAY,
    null,
    'Blue Harbor Insurance',
    'Insurance premium Blue Harbor Insurance',
  ],
  [
    'Summit Office Interiors desk chairs 3.2k yesterday',
    '3200.00',
    'USD',
    '2026-03-17',
    null,
    'Summit Office Interiors',
    'Summit Office Interiors desk chairs',
  ],
  ['paid twenty-five dollars for parking', '25.00', 'USD', TODAY, 'Travel', null, 'Parking'],
  ['coffee 4.50', '4.50', 'USD', TODAY, 'Meals', null, 'Coffee'],
  ['taxi', null, 'USD', TODAY, 'Travel', null, 'Taxi'],
  ['hotel 3 nights 540 dollars December 12', '540.00', 'USD', '2025-12-12', 'Travel', null, 'Hotel 3 nights'],
  [
    'Metro Fleet Leasing van lease 1,100 on the 1st',
    '1100.00',
    'USD',
    '2026-03-01',
    'Logistics',
    'Metro Fleet Leasing',
    'Metro Fleet Leasing van lease',
  ],
  [
    'Dockside Security guards 2 nights 900',
    '900.00',
    'USD',
    TODAY,
    null,
    'Dockside Security',
    'Dockside Security guards 2 nights',
  ],
  [
    'client dinner at Nobu, one hundred and fifty euros, yesterday',
    '150.00',
    'EUR',
    '2026-03-17',
    'Meals',
    null,
    'Client dinner at Nobu',
  ],
  ['train to Hamburg 89.90 EUR on Monday', '89.90', 'EUR', '2026-03-16', 'Travel', null, 'Train to Hamburg'],
  [
    'software license renewal 1,200 dollars last Wednesday',
    '1200.00',
    'USD',
    '2026-03-11',
    'Software',
    null,
    'Software license renewal',
  ],
  ['zoom subscription 15.99 on March 1st', '15.99', 'USD', '2026-03-01', 'Software', null, 'Zoom subscription'],
];

const FIELDS = ['amount', 'currency', 'date', 'category', 'vendor', 'description'] as const;

function actualOf(text: string) {
  const p = parseExpenseText(text, ctx);
  return {
    amount: p.amount,
    currency: p.currency,
    date: p.date,
    category: p.category?.name ?? null,
    vendor: p.vendor?.name ?? null,
    description: p.description,
  };
}

describe('parse-expense on 50 sentences', () => {
  it('has 50 sentences', () => expect(SENTENCES).toHaveLength(50));

  it.each(SENTENCES)('%s', (text, amount, currency, date, category, vendor, description) => {
    expect(actualOf(text)).toEqual({ amount, currency, date, category, vendor, description });
  });

  it('gets every field of every sentence right (accuracy per field)', () => {
    const right = Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<(typeof FIELDS)[number], number>;
    for (const [text, ...expected] of SENTENCES) {
      const actual = actualOf(text);
      FIELDS.forEach((f, i) => {
        if (actual[f] === expected[i]) right[f]++;
      });
    }
    const accuracy = Object.fromEntries(FIELDS.map((f) => [f, right[f] / SENTENCES.length]));
    console.info('parse-expense accuracy', accuracy);
    for (const f of FIELDS) expect(accuracy[f], f).toBe(1);
  });
});

describe('parse-expense rules', () => {
  it("keeps the organization's currency and today when the sentence names neither", () => {
    expect(parseExpenseText('stationery 12', { ...ctx, currency: 'EUR' })).toMatchObject({
      amount: '12.00',
      currency: 'EUR',
      date: TODAY,
    });
  });
  it('reads "last Friday" on a Friday as the Friday a week before', () => {
    expect(parseExpenseText('lunch 20 last Friday', { ...ctx, today: '2026-03-20' }).date).toBe('2026-03-13');
  });
  it('rounds to what the currency holds', () => {
    expect(parseExpenseText('sushi 1,234.5 yen', ctx)).toMatchObject({ currency: 'JPY', amount: '1235.00' });
  });
  it('matches a vendor only among those given', () => {
    expect(parseExpenseText('invoice from Rhein Turbinen 500', ctx).vendor).toBeNull();
  });
  it('matches a misspelt vendor', () => {
    expect(parseExpenseText('freight Transcontinantal 900', ctx).vendor?.name).toBe('Transcontinental Freight');
  });
});
